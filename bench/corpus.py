"""The benchmark's pages: the 181 real pages of ../shared/corpus, each under many URLs.

Every URL gets a body of its own (a marker paragraph with its number), so N sources
are N distinct pages to extract, for the pipeline and for the extraction limit alike.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import json
import re
import socket
import threading
from dataclasses import dataclass
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
    """Serves /p/<n> from memory, with ETags (304s) and an optional per-request delay.

    A small asyncio HTTP/1.1 server (keep-alive, GET only) in a thread of its own: it
    stands in for thousands of remote sites, whose work is not this machine's, yet runs on
    the two cores it measures. http.server's thread per connection and header parsing
    took 0.3 to 0.4 ms of CPU a request; this takes a fraction of that.
    """

    def __init__(self, pages: list[CorpusPage], delay_s: float = 0.0) -> None:
        self.pages = pages
        self.delay_s = delay_s
        self.versions: dict[int, int] = {}
        self.requests = 0
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._server: asyncio.AbstractServer | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._connection, "127.0.0.1", 0, backlog=256)
        )
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._writers.add(writer)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                writer.write(await self._answer(head))
                await writer.drain()
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            pass
        finally:
            self._writers.discard(writer)
            writer.close()

    async def _answer(self, head: bytes) -> bytes:
        self.requests += 1
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        lines = head.split(b"\r\n")
        path = lines[0].split(b" ")[1] if len(lines[0].split(b" ")) > 1 else b""
        m = re.fullmatch(rb"/p/(\d+)", path)
        if m is None:
            return b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
        n = int(m[1])
        version = self.versions.get(n, 0)
        etag = page_etag(self.pages, n, version)
        sent = next(
            (
                v.strip()
                for k, _, v in (x.partition(b":") for x in lines[1:])
                if k.strip().lower() == b"if-none-match"
            ),
            None,
        )
        if sent == etag.encode():
            return f"HTTP/1.1 304 Not Modified\r\nETag: {etag}\r\nContent-Length: 0\r\n\r\n".encode(
                "ascii"
            )
        body = page_body(self.pages, n, version)
        return (
            "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
            f"ETag: {etag}\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode() + body

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> CorpusServer:
        self.thread.start()
        self._ready.wait(10)
        return self

    def stop(self) -> None:
        async def shutdown() -> None:
            if self._server is not None:
                self._server.close()
            for writer in list(self._writers):
                writer.close()  # its handler's read ends, and the handler with it
            await asyncio.sleep(0.05)
            self._loop.stop()

        asyncio.run_coroutine_threadsafe(shutdown(), self._loop)
        self.thread.join(10)
        self._loop.close()
