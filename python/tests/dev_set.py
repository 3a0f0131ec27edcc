"""The dev set as the engines' tests read it: packed into one WARC file
(each site under its own origin, http://<site>.test/), `tex collect`'s rows
on the same files, and the check that an engine's rows equal them."""
import json
import subprocess
import uuid
from pathlib import Path

import pandas as pd

COLUMNS = ["url", "site", "cluster", "status", "template_share", "content_text", "content_html"]
# Fields a line carries only when they apply: null (missing) elsewhere, or
# 0 for `replaced_bytes`.
OPTIONAL = ["warning", "reason", "replaced_bytes"]


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


def site_files(set_dir: Path, site: str):
    """A site's HTML files, with their paths relative to its root."""
    root = set_dir / site / "site"
    for file in sorted(root.rglob("*")):
        if file.suffix.lower() in (".html", ".htm") and file.is_file():
            yield "/".join(file.relative_to(root).parts), file


def pack(set_dir: Path, warc: Path) -> int:
    """Writes every site of the set into `warc`; the number of pages."""
    pages = 0
    with warc.open("wb") as out:
        for site in json.loads((set_dir / "index.json").read_text()):
            for rel, file in site_files(set_dir, site):
                out.write(warc_record(f"http://{site}.test/{rel}", file.read_bytes()))
                pages += 1
    return pages


def cli_rows(tex, inputs, out: Path, *flags) -> pd.DataFrame:
    """`tex collect` on `inputs`: its rows."""
    subprocess.run([tex, "collect", *map(str, inputs), *flags, "--out", str(out)], check=True)
    return pd.DataFrame([json.loads(line) for line in out.read_text().splitlines()])


def assert_same_rows(engine: str, rows: pd.DataFrame, cli: pd.DataFrame, packed: int) -> None:
    """The engine's rows are the CLI's, field for field, in URL order, the
    optional fields included (a page's `warning`, `reason`, `replaced_bytes`)."""
    cli = cli.reindex(columns=COLUMNS + OPTIONAL).sort_values("url").reset_index(drop=True)
    rows = rows.reindex(columns=COLUMNS + OPTIONAL).sort_values("url").reset_index(drop=True)
    for frame in (cli, rows):
        frame["cluster"] = frame["cluster"].astype("Int64")
        frame["replaced_bytes"] = frame["replaced_bytes"].fillna(0).astype("int64")
        for column in ("warning", "reason"):
            frame[column] = frame[column].astype(object).where(frame[column].notna(), None)
    assert len(cli) > 0.95 * packed, f"{len(cli)} of {packed} pages came out of the CLI"
    assert len(rows) == len(cli), f"{engine} wrote {len(rows)} rows, the CLI {len(cli)}"
    pd.testing.assert_frame_equal(rows, cli, check_exact=True)
    served = (cli["status"] == "served").sum()
    flagged = {c: int(cli[c].notna().sum()) for c in ("warning", "reason")}
    flagged["replaced_bytes"] = int((cli["replaced_bytes"] > 0).sum())
    # The dev set has weak pages, whole pages and pages with invalid bytes: the check reads each field.
    assert all(flagged.values()), f"no line of the CLI carries one of {OPTIONAL}: {flagged}"
    print(
        f"ok: {len(cli)} pages of {cli['site'].nunique()} sites equal in {engine} and the CLI "
        f"({served} served by a cluster; lines with {flagged})"
    )
