"""A real HTTP server on 127.0.0.1 for tests: routes set per test, hits counted."""

from __future__ import annotations

import hashlib
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# How often a serving loop looks for its stop: a test's teardown waits up to this long.
POLL_S = 0.02


class QuietServer(ThreadingHTTPServer):
    """A test server that says nothing of the clients that go away mid-request (a
    refresh killed, a timeout tested): any other error is still printed."""

    def handle_error(self, request: object, client_address: object) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


@dataclass
class Page:
    body: bytes | str = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str | None = "text/html; charset=utf-8"
    delay_s: float = 0.0
    etag: bool = True  # send an ETag and honour If-None-Match

    def raw(self) -> bytes:
        return self.body.encode("utf-8") if isinstance(self.body, str) else self.body


Handler = Callable[[BaseHTTPRequestHandler], None]


class WebServer:
    def __init__(self) -> None:
        self.routes: dict[str, Page | Handler] = {}
        self.hits: Counter[str] = Counter()
        self.requests: list[tuple[str, dict[str, str]]] = []
        self.times: list[tuple[str, float]] = []  # (path, monotonic time) of each GET
        self.posts: list[tuple[str, bytes]] = []
        self.post_status = 200  # what POST answers (a failing webhook: 500)
        self.post_delay_s = 0.0  # a slow webhook
        self.in_flight = 0
        self.max_in_flight = 0
        self.connections = 0  # TCP connections accepted (keep-alive reuse shows here)
        self._lock = threading.Lock()
        server = self

        class _H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def setup(self) -> None:
                super().setup()
                with server._lock:
                    server.connections += 1

            def do_GET(self) -> None:
                server._serve(self)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                if server.post_delay_s:
                    time.sleep(server.post_delay_s)
                if server.post_status == 200:
                    server.posts.append((self.path, body))
                send(self, server.post_status, b"{}", "application/json")

        self.httpd = QuietServer(("127.0.0.1", 0), _H)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(POLL_S,), daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def url(self, path: str) -> str:
        return self.base + path

    def start(self) -> WebServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def _serve(self, h: BaseHTTPRequestHandler) -> None:
        path = h.path.split("?", 1)[0]
        with self._lock:
            self.hits[path] += 1
            self.requests.append((h.path, dict(h.headers.items())))
            self.times.append((path, time.monotonic()))
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        answered = threading.Event()

        def answering() -> None:
            # A request counts as in flight until its answer is written: once the client
            # has the answer it may send the next, while this thread still winds down.
            if not answered.is_set():
                answered.set()
                with self._lock:
                    self.in_flight -= 1

        try:
            route = self.routes.get(path)
            if route is None:
                answering()
                send(h, 404, b"<html><title>404</title><h1>Not found</h1></html>")
            elif callable(route):
                answering()
                route(h)
            else:
                self._page(h, route, answering)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test): nothing to answer
        finally:
            answering()

    def _page(self, h: BaseHTTPRequestHandler, page: Page, answering: Callable[[], None]) -> None:
        if page.delay_s:
            time.sleep(page.delay_s)
        body = page.raw()
        headers = dict(page.headers)
        answering()
        if page.etag and page.status == 200:
            tag = '"' + hashlib.sha256(body).hexdigest()[:12] + '"'
            headers["ETag"] = tag
            if h.headers.get("If-None-Match") == tag:
                send(h, 304, b"", None, headers)
                return
        send(h, page.status, body, page.content_type, headers)


def send(
    h: BaseHTTPRequestHandler,
    status: int,
    body: bytes,
    content_type: str | None = "text/html; charset=utf-8",
    headers: dict[str, str] | None = None,
) -> None:
    h.send_response(status)
    if content_type:
        h.send_header("Content-Type", content_type)
    for k, v in (headers or {}).items():
        h.send_header(k, v)
    h.send_header("Content-Length", str(len(body) if status != 304 else 0))
    h.end_headers()
    if status != 304:
        h.wfile.write(body)
