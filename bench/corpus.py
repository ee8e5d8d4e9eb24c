"""The benchmark's pages: the 181 real pages of ../shared/corpus, each under many URLs.

Every URL gets a body of its own (a marker paragraph with its number), so N sources
are N distinct pages to extract, for the pipeline and for the extraction limit alike.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "article-extraction-benchmark"


@dataclass(frozen=True)
class CorpusPage:
    html: bytes
    reference: str  # the ground-truth article text


def load_corpus(root: Path = CORPUS) -> list[CorpusPage]:
    truth = json.loads((root / "ground-truth.json").read_text(encoding="utf-8"))
    pages = []
    for path in sorted((root / "html").glob("*.html.gz")):
        key = path.name.removesuffix(".html.gz")
        pages.append(CorpusPage(gzip.decompress(path.read_bytes()), truth[key]["articleBody"]))
    return pages


def page_body(pages: list[CorpusPage], n: int, version: int = 0) -> bytes:
    """The body served for URL n: its corpus page plus a marker paragraph of its own."""
    html = pages[n % len(pages)].html
    marker = f"<p>Source {n} of the benchmark, version {version}.</p>".encode()
    end = html.lower().rfind(b"</body")
    if end < 0:
        return html + marker
    return html[:end] + marker + html[end:]


class CorpusServer:
    """Serves /p/<n> from memory, with ETags (304s) and an optional per-request delay."""

    def __init__(self, pages: list[CorpusPage], delay_s: float = 0.0) -> None:
        self.pages = pages
        self.delay_s = delay_s
        self.versions: dict[int, int] = {}
        self.requests = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # else a body's last segment waits for an ACK

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                server.requests += 1
                if server.delay_s:
                    time.sleep(server.delay_s)
                m = re.fullmatch(r"/p/(\d+)", self.path)
                if m is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body, etag = server.body(int(m[1]))
                if self.headers.get("If-None-Match") == etag:
                    self.send_response(304)
                    self.send_header("ETag", etag)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("ETag", etag)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        class Server(ThreadingHTTPServer):
            # the default backlog of 5 drops SYNs under 16 concurrent connects: 1 s stalls
            request_queue_size = 256

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def body(self, n: int) -> tuple[bytes, str]:
        """Built per request (cheap), never cached: 10,000 bodies would be a gigabyte."""
        body = page_body(self.pages, n, self.versions.get(n, 0))
        return body, '"' + hashlib.sha1(body).hexdigest()[:16] + '"'

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def start(self) -> CorpusServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
