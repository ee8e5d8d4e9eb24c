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
import secrets
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
    anchor: int = -1  # a place in the main text (after words of the reference), -1: none


def load_corpus(root: Path = CORPUS) -> list[CorpusPage]:
    truth = json.loads((root / "ground-truth.json").read_text(encoding="utf-8"))
    pages = []
    for path in sorted((root / "html").glob("*.html.gz")):
        key = path.name.removesuffix(".html.gz")
        html = gzip.decompress(path.read_bytes())
        tag = hashlib.sha1(html).hexdigest()[:12]
        reference = truth[key]["articleBody"]
        pages.append(
            CorpusPage(
                html, reference, tag, html.lower().rfind(b"</body"), _anchor(html, reference)
            )
        )
    return pages


def _anchor(html: bytes, reference: str) -> int:
    """Where six words of the reference text stand in the page, one after another: a place
    in its main text."""
    words = reference.split()
    lowered = html.lower()
    body = max(lowered.find(b"<body"), 0)
    for start in range(0, max(0, len(words) - 6), 3):
        run = " ".join(words[start : start + 6]).encode()
        at = html.find(run, body)
        while at >= 0:
            in_script = lowered.rfind(b"<script", 0, at) > lowered.rfind(b"</script", 0, at)
            in_tag = html.rfind(b"<", 0, at) > html.rfind(b">", 0, at)
            if not in_script and not in_tag:
                return at + len(run)
            at = html.find(run, at + 1)
    return -1


def volatile_body(pages: list[CorpusPage], n: int, version: int, nonce: str) -> bytes:
    """URL n as a real site serves it: a fresh token in the head and in a footer on every
    response; each version past 0 adds a sentence to its main text."""
    page = pages[n % len(pages)]
    html = page.html
    if version and page.anchor >= 0:
        html = (
            html[: page.anchor]
            + f" Revision {version} of this page.".encode()
            + html[page.anchor :]
        )
    body_end = html.lower().rfind(b"</body")
    marker = f"<p>Source {n} of the benchmark.</p>".encode()
    if version and page.anchor < 0:
        marker = f"<p>Source {n} of the benchmark, version {version}.</p>".encode()
    footer = f"<footer>Rendered for request {nonce}</footer>".encode()
    tail = marker + footer
    html = html + tail if body_end < 0 else html[:body_end] + tail + html[body_end:]
    meta = f'<meta name="csrf-token" content="{nonce}">'.encode()
    head = html.lower().find(b"<head")
    head_end = html.find(b">", head) + 1 if head >= 0 else 0
    return html[:head_end] + meta + html[head_end:]


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

    def __init__(
        self, pages: list[CorpusPage], delay_s: float = 0.0, volatile: bool = False
    ) -> None:
        self.pages = pages
        self.delay_s = delay_s
        self.volatile = volatile  # no validators, a fresh token in every response
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
        if self.volatile:
            body = volatile_body(self.pages, n, version, secrets.token_hex(16))
            return (
                "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                f"Content-Length: {len(body)}\r\n\r\n"
            ).encode() + body
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
