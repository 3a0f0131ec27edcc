#!/usr/bin/env python3
"""Template removal over WARC and JSONL files on Spark: read each file's
pages (with the package's own readers, so a record is admitted as `tex
collect` admits it), group them by site and run the collection mode once
per site with `groupBy(...).applyInPandas`, write Parquet.

Usage: spark_collect.py OUT_DIR FILE [FILE ...]   (.warc, .warc.gz, .jsonl)
Local mode by default (SPARK_MASTER overrides, e.g. spark://host:7077);
every executor needs the `template-extractor` wheel installed.
"""
import os
import sys

import pandas as pd
from pyspark.sql import SparkSession

import template_extractor as tex

PAGE_SCHEMA = "site string, url string, body binary, content_type string, replaced_bytes long"
OUT_SCHEMA = (
    "url string, site string, cluster long, status string, template_share double, "
    "content_text string, content_html string, warning string, reason string, replaced_bytes long"
)
# `warning` and `reason` are null where `tex collect` leaves them out of a
# line, `replaced_bytes` 0.
OUT_COLUMNS = [
    "url", "site", "cluster", "status", "template_share", "content_text", "content_html",
    "warning", "reason", "replaced_bytes",
]


def file_pages(path):
    """The HTML pages of one WARC or JSONL file, as rows."""
    read = tex.read_jsonl if path.lower().endswith((".jsonl", ".ndjson")) else tex.read_warc
    pages, _rejected = read(path)
    return [(p["site"], p["url"], p["body"], p["content_type"], p["replaced_bytes"]) for p in pages]


def collect(site_pages: pd.DataFrame) -> pd.DataFrame:
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
    # None, not the NaN pandas fills in, where a site's rows have none (Arrow cannot read NaN as a string).
    for column in ("warning", "reason"):
        frame[column] = frame[column].astype(object).where(frame[column].notna(), None)
    return frame


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: spark_collect.py OUT_DIR FILE [FILE ...]")
    out, files = sys.argv[1], [os.path.abspath(p) for p in sys.argv[2:]]
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    spark = (
        SparkSession.builder.master(os.environ.get("SPARK_MASTER", "local[*]"))
        .appName("template-extractor-collect")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .getOrCreate()
    )
    pages = spark.sparkContext.parallelize(files, len(files)).flatMap(file_pages)
    frame = spark.createDataFrame(pages, schema=PAGE_SCHEMA)
    frame.groupBy("site").applyInPandas(collect, schema=OUT_SCHEMA).write.mode("overwrite").parquet(out)
    spark.stop()


if __name__ == "__main__":
    main()
