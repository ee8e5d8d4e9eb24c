"""A small static web server on 127.0.0.1 for the demo (and the tests' whole-cycle runs).

Serves the files of a directory with ETag and Last-Modified, answers
conditional requests with 304, and 404 for anything missing. An overlay directory's
files, when set, are served instead of the root's (the demo's second day), and paths
set as failing answer 503. Port 0 picks a free port; `start()` returns once the socket
listens (no sleeps).
"""

from __future__ import annotations

import hashlib
import threading
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

LAST_MODIFIED = formatdate(1_767_225_600, usegmt=True)  # 2026-01-01, fixed for repeatable runs
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
}


class SampleSite:
    def __init__(self, root: Path, host: str = "127.0.0.1", port: int = 0) -> None:
        self.root = root
        self.host = host
        self.overlay: Path | None = None  # its files win over the root's
        self.failing: set[str] = set()  # paths that answer 503
        handler = type("Handler", (_Handler,), {"site": self})
        self.server = ThreadingHTTPServer((host, port), handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.server.server_port}"

    def start(self) -> SampleSite:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> SampleSite:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _Handler(BaseHTTPRequestHandler):
    site: SampleSite
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass  # quiet

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path == "/robots.txt":
            return self._send(200, b"User-agent: *\nDisallow: /private/\n", "text/plain")
        if path in self.site.failing:
            return self._send(503, b"<html><title>Unavailable</title></html>", "text/html")
        root = self.site.root
        overlay = self.site.overlay
        if overlay is not None and (overlay / path.lstrip("/")).resolve().is_file():
            root = overlay
        file = (root / path.lstrip("/")).resolve()
        if file.is_dir():
            file = file / "index.html"
        if not file.is_relative_to(root.resolve()) or not file.is_file():
            return self._send(
                404, b"<html><title>Not found</title><h1>Not found</h1></html>", "text/html"
            )
        body = file.read_bytes()
        etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        if self.headers.get("If-None-Match") == etag:
            return self._send(304, b"", None, etag)
        self._send(200, body, TYPES.get(file.suffix, "application/octet-stream"), etag)

    def _send(self, status: int, body: bytes, ctype: str | None, etag: str | None = None) -> None:
        self.send_response(status)
        if ctype:
            self.send_header("Content-Type", ctype)
        if etag:
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", LAST_MODIFIED)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if status != 304:
            self.wfile.write(body)
