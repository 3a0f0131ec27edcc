#!/usr/bin/env python3
"""The Spark and the Ray Data examples, each in local mode, give the same
rows as `tex collect` on the same files: the dev set packed into one WARC
file (each site under its own origin, http://<site>.test/) and one of its
sites as a JSONL file under another origin. Then `collect_site(markdown=True)`
gives the Markdown `tex collect --markdown` gives, and
`collect_site(serving=...)` the pages `tex collect --selective` and `--fast`
give.

Usage: test_engines_match_cli.py TEX_BINARY SET_DIR WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import template_extractor

from dev_set import assert_same_rows, cli_rows, pack, site_files

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
JSONL_SITE = "httpx"


def write_jsonl(set_dir: Path, jsonl: Path) -> int:
    """One dev site's pages as JSONL lines at http://<site>.jsonl.test/,
    written as a Python crawler writes bytes it decoded with
    errors="surrogateescape": the first page's first paragraph gets a byte
    that is not UTF-8, which json.dumps writes as a lone surrogate escape."""
    texts = [(rel, file.read_bytes()) for rel, file in site_files(set_dir, JSONL_SITE)]
    texts[0] = (texts[0][0], texts[0][1].replace(b"<p>", b"<p>caf\xe9 ", 1))
    lines = [
        json.dumps({"url": f"http://{JSONL_SITE}.jsonl.test/{rel}", "html": body.decode("utf-8", "surrogateescape")})
        for rel, body in texts
    ]
    jsonl.write_text("\n".join(lines) + "\n")
    return len(lines)


def spark_rows(files, work: Path) -> pd.DataFrame:
    out = work / "spark.parquet"
    subprocess.run([sys.executable, str(EXAMPLES / "spark_collect.py"), str(out), *map(str, files)], check=True)
    return pd.read_parquet(out)


def ray_rows(files, work: Path) -> pd.DataFrame:
    """The Ray example in one local session of two workers."""
    sys.path.insert(0, str(EXAMPLES))
    import ray_collect

    ray_collect.local_session_env()
    # The workers import the example's functions as the driver does.
    os.environ["PYTHONPATH"] = os.pathsep.join([str(EXAMPLES), os.environ.get("PYTHONPATH", "")])
    import ray

    out = work / "ray.parquet"
    shutil.rmtree(out, ignore_errors=True)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        ray_collect.run(str(out), [str(f) for f in files])
    finally:
        ray.shutdown()
    return pd.read_parquet(out)


def main():
    tex, set_dir, work = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    if not (set_dir / "index.json").is_file():
        print(f"skipped: {set_dir} is missing, so the Spark and Ray examples cannot run on the dev set")
        return
    work.mkdir(parents=True, exist_ok=True)
    files = [work / "dev.warc", work / "site.jsonl"]
    packed = pack(set_dir, files[0]) + write_jsonl(set_dir, files[1])
    cli = cli_rows(tex, files, work / "cli.jsonl")
    assert (cli["site"] == f"http://{JSONL_SITE}.jsonl.test").any(), "the JSONL file's site came out of the CLI"
    assert_same_rows("Spark", spark_rows(files, work), cli, packed)
    assert_same_rows("Ray", ray_rows(files, work), cli, packed)
    markdown_matches_cli(tex, set_dir / "httpx" / "site", work)
    serving_matches_cli(tex, set_dir / "archpwnwiki" / "site", work)


def folder_pages(folder: Path):
    """A site folder's pages as collect_site takes them, under the address `tex collect` mounts a folder at."""
    files = sorted(p for p in folder.rglob("*.html"))
    return [(f"http://site.local/{'/'.join(p.relative_to(folder).parts)}", p.read_bytes(), None) for p in files]


def serving_matches_cli(tex, folder: Path, work: Path):
    """collect_site(serving=...) gives each page the status and content `tex collect` gives it with the same flag."""
    pages = folder_pages(folder)
    statuses = {}
    for serving, flags in (("selective", ["--selective"]), ("fast", ["--fast"])):
        out = work / f"{serving}.jsonl"
        subprocess.run([tex, "collect", str(folder), *flags, "--out", str(out)], check=True)
        cli = {d["url"]: (d["status"], d["content_text"]) for d in map(json.loads, out.read_text().splitlines())}
        rows, _ = template_extractor.collect_site("site", pages, serving=serving)
        python = {r["url"]: (r["status"], r["content_text"]) for r in rows}
        assert python == cli, f"collect_site(serving={serving!r}) differs from tex collect {' '.join(flags)}"
        statuses[serving] = sorted({status for status, _ in cli.values()})
    assert "compared" in statuses["selective"] and "compared" not in statuses["fast"], statuses
    print(f"ok: selective and fast serving equal in Python and the CLI on {len(pages)} pages ({statuses})")


def markdown_matches_cli(tex, folder: Path, work: Path):
    """collect_site(markdown=True) gives each page the Markdown `tex collect --markdown` gives it."""
    out = work / "markdown.jsonl"
    subprocess.run([tex, "collect", str(folder), "--markdown", "--out", str(out)], check=True)
    cli = {d["url"]: d["content_markdown"] for d in map(json.loads, out.read_text().splitlines())}
    pages = folder_pages(folder)
    rows, _ = template_extractor.collect_site("site", pages, markdown=True)
    python = {r["url"]: r["content_markdown"] for r in rows}
    assert python == cli and any(md.startswith("# ") or "\n# " in md for md in cli.values()), "Markdown differs"
    print(f"ok: the Markdown of {len(cli)} pages equal in Python and the CLI")


if __name__ == "__main__":
    main()
