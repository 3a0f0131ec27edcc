#!/usr/bin/env python3
"""WARC files written by real tools come out of `tex collect` whole. A few
dev sites are served on 127.0.0.1 (site_server.py: every other page
chunked), then

* `wget --recursive --warc-file` crawls each from its key page: every HTML
  page of its WARC (status 200, read back with warcio) is a row of `tex
  collect`, unless the summary counts it left out for what its body is
  (its charset, its size);
* warcio's `capture_http` records every page fetched with urllib: each
  page's row from that WARC equals its row from the site's folder (status,
  template share, content), so nothing of the capture (chunks, headers,
  escaped addresses) changes a page.

Usage: test_real_warcs.py TEX_BINARY SET_DIR WORK_DIR
"""
import json
import subprocess
import sys
import urllib.request
from pathlib import Path
from urllib.parse import quote, unquote

from warcio.archiveiterator import ArchiveIterator
from warcio.capture_http import capture_http

from site_server import SiteServer

# Small dev sites; choewy-blog's paths are Korean.
SITES = ["httpx", "pyconhk", "apex-trigger-jp", "choewy-blog"]
# Why a page of a real capture may be left out: what its body is.
BODY_REASONS = {"broken_charset", "too_many_bytes", "too_many_elements", "too_deep", "binary", "no_elements"}
FIELDS = ["status", "template_share", "content_text"]


def page_files(root: Path):
    """A site's HTML files, as URL paths (escaped) and files."""
    for file in sorted(root.rglob("*")):
        if file.is_file() and file.suffix.lower() in (".html", ".htm"):
            yield "/" + quote("/".join(file.relative_to(root).parts)), file


def collect(tex, inputs, out: Path):
    """`tex collect`'s rows and summary."""
    summary = out.with_suffix(".summary.json")
    subprocess.run([tex, "collect", *map(str, inputs), "--out", str(out), "--summary", str(summary)], check=True)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    return rows, json.loads(summary.read_text())


def html_pages(warc: Path):
    """The addresses (decoded) of a WARC's HTML responses with status 200, read with warcio."""
    pages = set()
    with warc.open("rb") as stream:
        for record in ArchiveIterator(stream):
            if record.rec_type != "response" or record.http_headers is None:
                continue
            kind = record.http_headers.get_header("Content-Type", "")
            if record.http_headers.get_statuscode() == "200" and kind.startswith("text/html"):
                pages.add(unquote(record.rec_headers.get_header("WARC-Target-URI")))
    return pages


def wget_crawls(tex, roots, work: Path):
    """Every HTML page wget captured, crawling from the key page, is a row
    or counted as left out for its body."""
    warcs = []
    for site, root in roots.items():
        key = json.loads((root.parent / "bench.json").read_text())["key"]
        with SiteServer(root) as server:
            warc = work / f"wget-{site}"
            subprocess.run(
                ["wget", "--recursive", "--level=inf", "--no-verbose", "--tries=1", "--timeout=10", "-e", "robots=off",
                 "--delete-after", "--no-host-directories", "--directory-prefix", str(work / "wget-files"),
                 f"--warc-file={warc}", f"{server.origin}/{quote(key)}"],
                check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
            warcs.append(warc.with_name(warc.name + ".warc.gz"))
    rows, summary = collect(tex, warcs, work / "wget.jsonl")
    captured = set().union(*(html_pages(w) for w in warcs))
    came_out = {unquote(r["url"]) for r in rows}
    assert came_out <= captured, f"rows for pages wget did not capture: {sorted(came_out - captured)[:5]}"
    left_for_body = sum(n for reason, n in summary["rejected"].items() if reason in BODY_REASONS)
    missing = sorted(captured - came_out)
    assert len(missing) == left_for_body, f"{len(missing)} HTML pages did not come out ({missing[:5]}), {left_for_body} were left out for their body: {summary['rejected']}"
    assert not summary["unreadable"] and not summary["damaged"], summary
    print(f"ok: {len(came_out)} of the {len(captured)} HTML pages wget captured came out ({left_for_body} left out for their body)")


def warcio_capture(tex, roots, work: Path):
    """Each page captured by warcio has the row its folder gives it."""
    warc = work / "warcio.warc.gz"
    warc.unlink(missing_ok=True)
    origins = {}
    with capture_http(str(warc)):
        for site, root in roots.items():
            with SiteServer(root) as server:
                origins[server.origin] = site
                for path, _ in page_files(root):
                    with urllib.request.urlopen(f"{server.origin}{path}", timeout=10) as response:
                        response.read()
    from_warc, _ = collect(tex, [warc], work / "warcio.jsonl")
    from_folders, _ = collect(tex, roots.values(), work / "folders.jsonl")
    folder_site = {str(root.resolve()): site for site, root in roots.items()}

    def by_page(rows, site_of, prefix_of):
        return {(site_of(r), unquote(r["url"][len(prefix_of(r)) :])): [r[f] for f in FIELDS] for r in rows}

    warc_pages = by_page(from_warc, lambda r: origins[r["site"]], lambda r: r["site"])
    folder_pages = by_page(from_folders, lambda r: folder_site[r["site"]], lambda r: "http://site.local")
    assert warc_pages.keys() == folder_pages.keys(), sorted(warc_pages.keys() ^ folder_pages.keys())[:5]
    differ = [page for page in folder_pages if warc_pages[page] != folder_pages[page]]
    assert not differ, f"{len(differ)} pages differ between warcio's WARC and their folders, first {differ[0]}"
    print(f"ok: {len(warc_pages)} pages captured by warcio equal their folders' rows")


def main():
    tex, set_dir, work = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    roots = {site: set_dir / site / "site" for site in SITES if (set_dir / site / "site").is_dir()}
    if not roots:
        print(f"skipped: {set_dir} lacks the dev sites {', '.join(SITES)}, so no WARC could be captured from them")
        return
    work.mkdir(parents=True, exist_ok=True)
    wget_crawls(tex, roots, work)
    warcio_capture(tex, roots, work)


if __name__ == "__main__":
    main()
