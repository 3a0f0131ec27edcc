#!/usr/bin/env python3
"""Template removal over WARC and JSONL files with Ray Data: read each
file's pages (with the package's own readers, so a record is admitted as
`tex collect` admits it), group them by site and run the collection mode
once per site with `groupby("site").map_groups`, write Parquet.

Usage: ray_collect.py OUT_DIR FILE [FILE ...]   (.warc, .warc.gz, .jsonl)
Local mode by default (RAY_ADDRESS joins a cluster, e.g. ray://host:10001);
every worker needs the `template-extractor` wheel installed.
"""
import os
import sys

import pandas as pd
import pyarrow as pa

import template_extractor as tex

# `warning` and `reason` are null where `tex collect` leaves them out of a
# line, `replaced_bytes` 0.
OUT_COLUMNS = [
    "url", "site", "cluster", "status", "template_share", "content_text", "content_html",
    "warning", "reason", "replaced_bytes",
]


OUT_SCHEMA = pa.schema(
    [
        ("url", pa.string()), ("site", pa.string()), ("cluster", pa.int64()), ("status", pa.string()),
        ("template_share", pa.float64()), ("content_text", pa.string()), ("content_html", pa.string()),
        ("warning", pa.string()), ("reason", pa.string()), ("replaced_bytes", pa.int64()),
    ]
)


def file_pages(row):
    """The HTML pages of one WARC or JSONL file, as rows."""
    path = row["path"]
    read = tex.read_jsonl if path.lower().endswith((".jsonl", ".ndjson")) else tex.read_warc
    pages, _rejected = read(path)
    keep = ("site", "url", "body", "content_type", "replaced_bytes")
    return [{k: p[k] for k in keep} for p in pages]


def collect(site_pages: pd.DataFrame) -> pa.Table:
    """One site's pages in, one row per page out."""
    site = site_pages["site"].iloc[0]
    pages = [
        (url, bytes(body), None if ct is None or pd.isna(ct) else ct, int(replaced))
        for url, body, ct, replaced in zip(
            site_pages["url"], site_pages["body"], site_pages["content_type"], site_pages["replaced_bytes"]
        )
    ]
    rows, _summary = tex.collect_site(site, pages)
    frame = pd.DataFrame(rows, columns=OUT_COLUMNS)
    frame["cluster"] = frame["cluster"].astype("Int64")
    frame["replaced_bytes"] = frame["replaced_bytes"].fillna(0).astype("int64")
    for column in ("warning", "reason"):
        frame[column] = frame[column].astype(object).where(frame[column].notna(), None)
    # One schema for every group, even one none of whose rows has a warning.
    return pa.Table.from_pandas(frame, schema=OUT_SCHEMA, preserve_index=False)


def run(out, paths):
    """Writes the pages of `paths` without their templates to `out` (a
    new folder) as Parquet, in the Ray session already started or a local
    one."""
    import ray

    if not ray.is_initialized():
        ray.init(include_dashboard=False)
    files = ray.data.from_items([{"path": os.path.abspath(p)} for p in paths])
    pages = files.flat_map(file_pages)
    pages.groupby("site").map_groups(collect, batch_format="pandas").write_parquet(out)


def local_session_env():
    """Before Ray is imported: no usage statistics (Ray would report them
    over the network) and, for a session of this machine alone, every Ray
    process on 127.0.0.1 (Ray otherwise listens on the machine's network
    address; the variable's name is Ray's, for its single-machine mode)."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if "RAY_ADDRESS" not in os.environ:
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: ray_collect.py OUT_DIR FILE [FILE ...]")
    local_session_env()
    run(sys.argv[1], sys.argv[2:])


if __name__ == "__main__":
    main()
