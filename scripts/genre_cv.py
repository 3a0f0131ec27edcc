#!/usr/bin/env python3
"""Does the default configuration generalise to genres it was not tuned on?

Leave-one-genre-out cross-validation over the content signal's tunables
and the search's patience:
for each genre (from each site's bench.json), the grid point with the best
mean of template F1 and content F1 on the *other* genres is chosen and
scored on the held-out genre's sites. Printed side by side: the shipped
defaults in-sample, and the cross-validated figures (every site scored by a
configuration chosen without its genre).

    python3 scripts/genre_cv.py ../shared/bench/dev

Runs `target/release/tex bench` once with every grid point (build it first
with `cargo build --release`).
"""
import itertools, json, os, subprocess, sys, tempfile

GRID = {
    "content.min_share": [0.3, 0.5, 0.7],
    "content.parent_share": [0.5, 0.7, 0.9],
    "content.frame_share": [0.9, 0.95, 1.0],
    "content.layout_ratio": [0.3, 0.5, 0.7],
    "patience": [6, 8],
}


def config(point):
    """The configuration file of a grid point: dotted names are nested fields."""
    out = {}
    for name, value in point.items():
        *path, last = name.split(".")
        d = out
        for p in path:
            d = d.setdefault(p, {})
        d[last] = value
    return out


def objective(site):
    return (site["f1"] + site["content_f1"]) / 2


def mean(xs):
    xs = list(xs)
    return sum(xs) / len(xs) if xs else 0.0


def main():
    root = sys.argv[1]
    tex = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "tex")
    grid = [dict(zip(GRID, v)) for v in itertools.product(*GRID.values())]
    with tempfile.TemporaryDirectory() as tmp:
        args = [tex, "bench", root, "--preset", "default"]
        for i, c in enumerate(grid):
            path = os.path.join(tmp, f"g{i:03}.json")
            with open(path, "w") as f:
                json.dump(config(c), f)
            args += ["--config", path]
        out = os.path.join(tmp, "out.json")
        subprocess.run(args + ["--json", out], check=True, stdout=subprocess.DEVNULL)
        runs = json.load(open(out))["runs"]
    default, points = runs[0], runs[1:]
    sites = [s["site"] for s in default["sites"]]
    genre = {s["site"]: s["genre"] or s["site"] for s in default["sites"]}
    per = [{s["site"]: s for s in r["sites"]} for r in points]
    base = {s["site"]: s for s in default["sites"]}

    cv = {}
    print(f"{'held out':<14} {'sites':>5}  chosen on the other genres")
    for g in sorted(set(genre.values())):
        train = [s for s in sites if genre[s] != g]
        best = max(range(len(points)), key=lambda i: (mean(objective(per[i][s]) for s in train), -i))
        held = [s for s in sites if genre[s] == g]
        for s in held:
            cv[s] = per[best][s]
        print(f"{g:<14} {len(held):>5}  {grid[best]}")

    def figures(scores):
        scores = list(scores)
        return (100 * mean(s["f1"] for s in scores), 100 * mean(s["content_f1"] for s in scores))

    ins = figures(base[s] for s in sites)
    best = max(range(len(points)), key=lambda i: (mean(objective(per[i][s]) for s in sites), -i))
    print(f"\nbest grid point in-sample: {grid[best]}")
    out = figures(cv[s] for s in sites)
    print(f"\n{'':<34} {'template F1':>11} {'content F1':>11}")
    print(f"{'defaults, in-sample':<34} {ins[0]:>11.2f} {ins[1]:>11.2f}")
    print(f"{'leave-one-genre-out':<34} {out[0]:>11.2f} {out[1]:>11.2f}")
    print(f"{'difference':<34} {out[0] - ins[0]:>+11.2f} {out[1] - ins[1]:>+11.2f}")
    print(f"({len(sites)} sites, {len(set(genre.values()))} genres, {len(grid)} grid points)")


if __name__ == "__main__":
    main()
