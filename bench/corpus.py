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
    tag: str = ""  # a digest of html, for ETags
    body_end: int = -1  # where the marker paragraph goes (before </body>), -1: at the end


def load_corpus(root: Path = CORPUS) -> list[CorpusPage]:
    truth = json.loads((root / "ground-truth.json").read_text(encoding="utf-8"))
    pages = []
    for path in sorted((root / "html").glob("*.html.gz")):
        key = path.name.removesuffix(".html.gz")
        html = gzip.decompress(path.read_bytes())
        tag = hashlib.sha1(html).hexdigest()[:12]
        pages.append(
            CorpusPage(html, truth[key]["articleBody"], tag, html.lower().rfind(b"</body"))
        )
    return pages


def page_body(pages: list[CorpusPage], n: int, version: int = 0) -> bytes:
    """The body served for URL n: its corpus page plus a marker paragraph of its own."""
    page = pages[n % len(pages)]
    html, end = page.html, page.body_end
    marker = f"<p>Source {n} of the benchmark, version {version}.</p>".encode()
    if end < 0:
        return html + marker
    return html[:end] + marker + html[end:]


def page_etag(pages: list[CorpusPage], n: int, version: int = 0) -> str:
    """The ETag of URL n's body, without building it (a 304 costs the server next to nothing:
    the server shares this machine's two cores with the pipeline it measures)."""
    return f'"{pages[n % len(pages)].tag}-{n}-{version}"'


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
                n = int(m[1])
                etag = page_etag(server.pages, n, server.versions.get(n, 0))
                if self.headers.get("If-None-Match") == etag:
                    self.send_response(304)
                    self.send_header("ETag", etag)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = page_body(server.pages, n, server.versions.get(n, 0))
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

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def start(self) -> CorpusServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
