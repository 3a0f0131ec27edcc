#!/usr/bin/env python3
"""Speed of `tex collect` beside Resiliparse and trafilatura on the same
pages, in one run: pages/s per core and MB/s on the dev set and on a
generated 10,000-page site, each mode's ratio to Resiliparse as the median
of three alternated rounds (Resiliparse, then each tex mode, per round), the growth exponent in pages per site (generated sites of 1,000 to
10,000 pages), and peak memory with 1 and 20 copies of the dev set as a
host-sorted JSONL stream (`--sorted`).

Each tex run is measured as `tex collect` runs by default (every page
compared with its own neighbours too) and, where said, with `--fast` or
`--selective`.

Both sides process the same pages: a file `tex collect` leaves out (the
dev set's mailing-list archive has four multi-megabyte index pages whose
bytes are invalid in their charset) is left out of trafilatura's run too,
and pages/s counts the pages admitted. Counting trafilatura's time on them
(a fifth of its time on the dev set) would flatter every ratio.

Usage: collection_speed.py TEX_BINARY SET_DIR WORK_DIR
"""
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

from urllib.parse import unquote, urlsplit

import trafilatura
from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.encoding import bytes_to_str, detect_encoding

CORES = os.cpu_count() or 1


def run_tex(tex, args, out="/dev/null"):
    """Wall seconds, CPU seconds and peak RSS (MB, as tex reports its own
    VmHWM: a child's ru_maxrss would include the Python parent it forked from)."""
    start = time.perf_counter()
    # stderr goes to a file: a run over 20 copies lists 600 sites there,
    # more than a pipe holds, and tex would wait on it forever.
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([tex, "collect", "--out", str(out), *args], stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        err.seek(0)
        stderr = err.read().decode()
    if status != 0:
        sys.exit(f"tex collect failed: {stderr}")
    rss = re.search(r"peak RSS (\d+) MB", stderr)
    return wall, usage.ru_utime + usage.ru_stime, float(rss.group(1)) if rss else float("nan")


def trafilatura_cpu(files):
    """CPU seconds trafilatura takes to extract every file, one core."""
    start = time.process_time()
    for f in files:
        trafilatura.extract(f.read_bytes().decode("utf-8", "replace"))
    return time.process_time() - start


def resiliparse_cpu(files):
    """CPU seconds Resiliparse takes to read, decode and extract every file
    (`main_content=True`, as DCLM's pipeline calls it), one core."""
    start = time.process_time()
    for f in files:
        data = f.read_bytes()
        extract_plain_text(bytes_to_str(data, detect_encoding(data)), main_content=True)
    return time.process_time() - start


ROUNDS = 3
MODES = (("default", []), ("--fast", ["--fast"]), ("--selective", ["--selective"]))


def rounds(tex, label, args, files, size):
    """ROUNDS alternated rounds of Resiliparse and each tex mode (one job) on
    `files`; prints each mode's median pages per CPU-second and its median
    ratio to Resiliparse's, round by round. Returns the median CPU seconds
    of Resiliparse and of each mode."""
    cpu = {"resiliparse": []} | {name: [] for name, _ in MODES}
    wall, rss = {}, {}
    for _ in range(ROUNDS):
        cpu["resiliparse"].append(resiliparse_cpu(files))
        for name, flags in MODES:
            w, c, r = run_tex(tex, [*flags, "--jobs", "1", *args])
            cpu[name].append(c)
            wall.setdefault(name, []).append(w)
            rss[name] = max(rss.get(name, 0.0), r)
    median = lambda xs: sorted(xs)[len(xs) // 2]
    res = median(cpu["resiliparse"])
    print(f"{label}: Resiliparse {len(files) / res:7.1f} pages/s per core (median of {ROUNDS} rounds)", flush=True)
    for name, _ in MODES:
        ratios = [r / c for r, c in zip(cpu["resiliparse"], cpu[name])]
        report(f"{label}, {name}", len(files), size, median(wall[name]), median(cpu[name]), rss[name])
        print(f"{'':<34} ratio to Resiliparse {median(ratios):5.2f}x (rounds {', '.join(f'{r:.2f}' for r in ratios)})")
    return res, {name: median(cpu[name]) for name, _ in MODES}


def admitted(tex, folders, work):
    """The files of `folders` that `tex collect` admits as pages, and how many it left out."""
    out = work / "admitted.jsonl"
    run_tex(tex, ["--fast", "--jobs", str(CORES), *folders], out)
    pages = set()
    with out.open() as f:
        for line in f:
            page = json.loads(line)
            pages.add((Path(page["site"]) / unquote(urlsplit(page["url"]).path.lstrip("/"))).resolve())
    out.unlink()
    files = [f for folder in folders for f in html_files(folder)]
    return [f for f in files if f.resolve() in pages], len(files) - len(pages)


def html_files(root):
    return sorted(p for p in Path(root).rglob("*") if p.suffix.lower() in (".html", ".htm") and p.is_file())


WORDS = "site page layout template content crawl index archive member release news article section menu".split()


def generate(root, n, seed=7):
    """A site of `n` pages of one layout: a menu of ten pages that link to
    each other, eight related links per page, a footer, varied content."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    menu = "".join(f'<li><a href="/p{i}.html">Section {i}</a></li>' for i in range(10))
    for i in range(n):
        related = "".join(f'<li><a href="/p{rng.randrange(n)}.html">Related {j}</a></li>' for j in range(8))
        paragraphs = "".join(
            "<p>" + " ".join(rng.choice(WORDS) for _ in range(rng.randrange(20, 80))) + "</p>"
            for _ in range(rng.randrange(3, 9))
        )
        (root / f"p{i}.html").write_text(
            f"<!doctype html><html><head><title>Page {i}</title></head><body>"
            f'<header class="top"><a href="/p0.html">Home</a><nav><ul>{menu}</ul></nav></header>'
            f'<div class="wrap"><aside class="side"><ul>{related}</ul></aside>'
            f"<main><h1>Page {i}</h1>{paragraphs}</main></div>"
            f'<footer><p>Generated site footer</p><a href="/p1.html">About</a></footer></body></html>'
        )


def sorted_copies(set_dir, sites, files, copies, out):
    """The dev set's admitted `files` `copies` times as JSONL, each copy's
    sites under their own origins, host-sorted."""
    keep = {f.resolve() for f in files}
    with out.open("w") as f:
        for k in range(copies):
            for site in sites:
                root = set_dir / site / "site"
                for file in (x for x in html_files(root) if x.resolve() in keep):
                    rel = "/".join(file.relative_to(root).parts)
                    html = file.read_bytes().decode("utf-8", "replace")
                    f.write(json.dumps({"url": f"http://c{k}-{site}.test/{rel}", "html": html}) + "\n")


def report(name, pages, size, wall, cpu, rss):
    print(
        f"{name:<34} {pages:>6} pages {size / 1e6:8.1f} MB  wall {wall:7.2f} s  "
        f"{pages / cpu:7.1f} pages/s per core  {size / 1e6 / wall:6.1f} MB/s  peak RSS {rss:7.1f} MB",
        flush=True,
    )


def main():
    tex, set_dir, work = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    work.mkdir(parents=True, exist_ok=True)
    sites = json.loads((set_dir / "index.json").read_text())
    folders = [str(set_dir / s / "site") for s in sites]
    files, left_out = admitted(tex, folders, work)
    size = sum(f.stat().st_size for f in files)
    print(
        f"{CORES} cores; tex collect --jobs 1 unless said; Resiliparse {version('resiliparse')} "
        f"and trafilatura {trafilatura.__version__} on one core"
    )
    print(f"dev set: the {len(files)} pages tex admits, on all sides ({left_out} files it leaves out, on none)")

    _, dev = rounds(tex, "dev set, 1 job", folders, files, size)
    traf = trafilatura_cpu(files)
    print(f"dev set: trafilatura {len(files) / traf:6.1f} pages/s per core; " + ", ".join(
        f"{name} {traf / cpu:5.1f}x" for name, cpu in dev.items()))
    wall, cpu, rss = run_tex(tex, ["--jobs", str(CORES), *folders])
    report(f"dev set, {CORES} jobs", len(files), size, wall, cpu, rss)

    times = {}
    for n in (1000, 3000, 10000):
        root = work / f"generated-{n}"
        if not (root / f"p{n - 1}.html").is_file():
            generate(root, n)
        gen_files = html_files(root)
        gen_size = sum(f.stat().st_size for f in gen_files)
        if n == 10000:
            _, gen = rounds(tex, f"generated site, {n} pages", [str(root)], gen_files, gen_size)
            times[n] = gen["default"]
            traf = trafilatura_cpu(gen_files)
            print(f"generated site: trafilatura {len(gen_files) / traf:6.1f} pages/s per core; " + ", ".join(
                f"{name} {traf / cpu:5.1f}x" for name, cpu in gen.items()))
        else:
            wall, cpu, rss = run_tex(tex, ["--jobs", "1", str(root)])
            times[n] = cpu
            report(f"generated site, {n} pages", len(gen_files), gen_size, wall, cpu, rss)
    exponent = math.log(times[10000] / times[1000]) / math.log(10)
    print(f"growth exponent in pages per site (CPU time, 1,000 to 10,000 pages): {exponent:.2f}")

    for copies in (1, 20):
        stream = work / f"dev-x{copies}.jsonl"
        if not stream.is_file():
            sorted_copies(set_dir, sites, files, copies, stream)
        wall, cpu, rss = run_tex(tex, ["--sorted", "--jobs", str(CORES), str(stream)])
        report(f"dev set x{copies}, sorted stream, {CORES} jobs", len(files) * copies, size * copies, wall, cpu, rss)
        stream.unlink()


if __name__ == "__main__":
    main()
