"""A site folder served over HTTP/1.1 on 127.0.0.1, as a static server
serves it, so real crawlers can capture it: `/a/` is `a/index.html`, `/a`
is `a.html` or `a/index.html`, and every other HTML page is sent with
`Transfer-Encoding: chunked` in a few chunks (the others with a
Content-Length), as servers send generated pages."""
import hashlib
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

TYPES = {".html": "text/html", ".htm": "text/html", ".css": "text/css", ".js": "text/javascript"}


def chunked(body: bytes) -> bool:
    """Whether a page goes chunked: every other page, by its bytes."""
    return hashlib.sha1(body).digest()[0] % 2 == 0


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root: Path

    def log_message(self, *args):
        pass

    def file(self):
        path = unquote(urlsplit(self.path).path, errors="strict")
        target = (self.root / path.lstrip("/")).resolve()
        if self.root not in target.parents and target != self.root:
            return None
        tries = [target / "index.html"] if path.endswith("/") else [target, Path(f"{target}.html"), target / "index.html"]
        return next((t for t in tries if t.is_file()), None)

    def do_GET(self):
        try:
            file = self.file()
        except UnicodeDecodeError:
            file = None
        if file is None:
            body = b"<!doctype html><title>Not found</title><p>Not found"
            self.send_response(404)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        body = file.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", TYPES.get(file.suffix.lower(), "application/octet-stream"))
        if file.suffix.lower() in (".html", ".htm") and chunked(body):
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            third = len(body) // 3 + 1
            for i in range(0, len(body), third):
                part = body[i : i + third]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)


class SiteServer:
    """Serves `root` on a free port of 127.0.0.1 until closed."""

    def __init__(self, root: Path):
        handler = type("SiteHandler", (Handler,), {"root": root.resolve()})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.origin = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()
