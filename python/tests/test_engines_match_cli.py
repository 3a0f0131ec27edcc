#!/usr/bin/env python3
"""The PySpark example in local mode on the dev set gives the same rows as
`tex collect` on the same WARC file, `collect_site(markdown=True)` the
same Markdown as `tex collect --markdown`, and `collect_site(serving=...)`
the same pages as `tex collect --selective` and `--fast`.

Usage: test_spark_matches_cli.py TEX_BINARY SET_DIR WORK_DIR
The dev set's site folders are packed into one WARC file first, each site
under its own origin (http://<site>.test/).
"""
import json
import subprocess
import sys
import uuid
from pathlib import Path

import pandas as pd
import template_extractor

HERE = Path(__file__).resolve().parent


def warc_record(uri: str, body: bytes) -> bytes:
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(body) + body
    head = (
        "WARC/1.0\r\nWARC-Type: response\r\n"
        f"WARC-Record-ID: <urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, uri)}>\r\n"
        "WARC-Date: 2024-05-01T00:00:00Z\r\n"
        f"WARC-Target-URI: {uri}\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http)}\r\n\r\n"
    ).encode()
    return head + http + b"\r\n\r\n"


def pack(set_dir: Path, warc: Path) -> int:
    pages = 0
    with warc.open("wb") as out:
        for site in json.loads((set_dir / "index.json").read_text()):
            root = set_dir / site / "site"
            for file in sorted(root.rglob("*")):
                if file.suffix.lower() in (".html", ".htm") and file.is_file():
                    rel = "/".join(file.relative_to(root).parts)
                    out.write(warc_record(f"http://{site}.test/{rel}", file.read_bytes()))
                    pages += 1
    return pages


def main():
    tex, set_dir, work = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    if not (set_dir / "index.json").is_file():
        print(f"skipped: {set_dir} is missing, so the Spark example cannot run on the dev set")
        return
    work.mkdir(parents=True, exist_ok=True)
    warc = work / "dev.warc"
    packed = pack(set_dir, warc)
    cli_out = work / "cli.jsonl"
    subprocess.run([tex, "collect", str(warc), "--out", str(cli_out)], check=True)
    spark_out = work / "spark.parquet"
    subprocess.run([sys.executable, str(HERE.parent / "examples" / "spark_collect.py"), str(spark_out), str(warc)], check=True)

    cli = pd.DataFrame([json.loads(l) for l in cli_out.read_text().splitlines()])
    spark = pd.read_parquet(spark_out)
    columns = ["url", "site", "cluster", "status", "template_share", "content_text", "content_html"]
    cli = cli[columns].sort_values("url").reset_index(drop=True)
    spark = spark[columns].sort_values("url").reset_index(drop=True)
    cli["cluster"] = cli["cluster"].astype("Int64")
    spark["cluster"] = spark["cluster"].astype("Int64")
    assert len(cli) > 0.95 * packed, f"{len(cli)} of {packed} pages came out of the CLI"
    assert len(spark) == len(cli), f"Spark wrote {len(spark)} rows, the CLI {len(cli)}"
    pd.testing.assert_frame_equal(spark, cli, check_exact=True)
    served = (cli["status"] == "served").sum()
    print(f"ok: {len(cli)} pages of {cli['site'].nunique()} sites equal in Spark and the CLI ({served} served by a cluster)")
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
