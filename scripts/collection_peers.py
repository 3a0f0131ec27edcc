#!/usr/bin/env python3
"""Page-level peers of the collection mode: the text trafilatura and
Readability (readability-lxml) extract from each benchmark site's key page,
written as JSON {site: {extractor: text}} for `tex collect-bench --peers`,
which maps the text back onto the key page's elements and scores it on the
gold. Usage: collection_peers.py SET_DIR OUT.json
"""
import json
import sys
from pathlib import Path

import lxml.html
import trafilatura
from readability import Document


def readability_text(html: str) -> str:
    summary = Document(html).summary(html_partial=True)
    return lxml.html.fromstring(summary).text_content() if summary.strip() else ""


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: collection_peers.py SET_DIR OUT.json")
    root, out = Path(sys.argv[1]), Path(sys.argv[2])
    index = root / "index.json"
    if not index.is_file():
        sys.exit(f"{root} is not a benchmark set: it has no index.json.")
    texts = {}
    for site in json.loads(index.read_text()):
        bench = json.loads((root / site / "bench.json").read_text())
        html = (root / site / "site" / bench["key"]).read_bytes().decode("utf-8", "replace")
        texts[site] = {
            "trafilatura": trafilatura.extract(html, include_comments=False, include_tables=True) or "",
            "readability": readability_text(html),
        }
    out.write_text(json.dumps(texts, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
