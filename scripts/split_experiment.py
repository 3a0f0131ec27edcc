#!/usr/bin/env python3
"""Does a tuning of the content signal generalise? Split the dev set in two
halves (index order), pick the best grid point on one half, report it on the
other, both ways, beside the shipped defaults.

    python3 scripts/split_experiment.py ../shared/bench/dev

Needs `cargo build --release` first (uses target/release/tex).
"""
import itertools, json, os, subprocess, sys, tempfile

GRID = {
    "min_share": [0.3, 0.5, 0.7],
    "frame_share": [0.8, 0.9, 0.95, 1.0],
    "layout_ratio": [0.3, 0.5, 0.7],
}


def half_set(root, sites, tmp, name):
    d = os.path.join(tmp, name)
    os.makedirs(d)
    for s in sites:
        os.symlink(os.path.abspath(os.path.join(root, s)), os.path.join(d, s))
    with open(os.path.join(d, "index.json"), "w") as f:
        json.dump(sites, f)
    return d


def bench(tex, set_dir, configs, tmp):
    args = [tex, "bench", set_dir]
    for i, c in enumerate(configs):
        path = os.path.join(tmp, f"c{i}.json")
        with open(path, "w") as f:
            json.dump({"content": c}, f)
        args += ["--config", path]
    out = os.path.join(tmp, "out.json")
    subprocess.run(args + ["--json", out], check=True, stdout=subprocess.DEVNULL)
    runs = json.load(open(out))["runs"]
    return [r["average"]["f1"] for r in runs]


def main():
    root = sys.argv[1]
    tex = os.path.join(os.path.dirname(__file__), "..", "target", "release", "tex")
    sites = json.load(open(os.path.join(root, "index.json")))
    halves = {"A": sites[: len(sites) // 2], "B": sites[len(sites) // 2 :]}
    grid = [dict(zip(GRID, v)) for v in itertools.product(*GRID.values())]
    with tempfile.TemporaryDirectory() as tmp:
        f1 = {}
        for h, ss in halves.items():
            f1[h] = bench(tex, half_set(root, ss, tmp, h), grid + [{}], tmp)
        for tune, test in (("A", "B"), ("B", "A")):
            best = max(range(len(grid)), key=lambda i: f1[tune][i])
            print(f"tuned on {tune} ({', '.join(halves[tune])}): best {grid[best]} F1 {100 * f1[tune][best]:.2f}")
            print(f"  on {test}: tuned {100 * f1[test][best]:.2f}, shipped defaults {100 * f1[test][-1]:.2f}, "
                  f"best possible there {100 * max(f1[test][:-1]):.2f}")


if __name__ == "__main__":
    main()
