"""Bodies read within a bound: at most `max_bytes` of decoded content is ever held.

The fetcher asks only for the content encodings it decodes here (gzip and deflate),
decodes them a piece at a time and counts what they decode to, so that a small body
that expands without end (a gzip bomb) is cut at the limit. A body in stacked or unasked
encodings is refused: nothing in it can be bounded before it is decoded.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import AsyncIterator, Iterator

import httpx

from extractors.values import Outcome
from flows.fetching.attempts import FetchFailed

ACCEPT_ENCODING = "gzip, deflate"
PIECE = 64 * 1024  # decoded at a time, between two looks at the limit
IDENTITY = frozenset({"", "identity"})


class Decoder:
    """One content encoding, decoded a piece at a time (concatenated gzip members too)."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        self._inner = self._fresh()
        self._started = False

    def _fresh(self) -> zlib._Decompress | None:
        if self.encoding in ("gzip", "x-gzip"):
            return zlib.decompressobj(zlib.MAX_WBITS | 16)
        if self.encoding == "deflate":
            return zlib.decompressobj()
        return None

    def feed(self, data: bytes) -> Iterator[bytes]:
        """What `data` decodes to, at most PIECE bytes at a time."""
        while data:
            inner = self._inner
            if inner is None:  # identity
                yield data
                return
            try:
                piece = inner.decompress(data, PIECE)
            except zlib.error as e:
                if self.encoding == "deflate" and not self._started:
                    # servers that send raw deflate without its zlib header
                    self._inner = zlib.decompressobj(-zlib.MAX_WBITS)
                    self._started = True
                    continue
                raise FetchFailed(
                    Outcome.BAD_CONTENT, f"undecodable {self.encoding}: {e}"
                ) from None
            self._started = True
            data = inner.unconsumed_tail
            if inner.eof:
                data = inner.unused_data + data
                self._inner = self._fresh()  # another gzip member follows
            if piece:
                yield piece


def decoder_for(response: httpx.Response, status: int | None = None) -> Decoder:
    """The decoder of the response's Content-Encoding; FetchFailed (bad_content) for one
    that was not asked for, or several stacked."""
    header = response.headers.get("content-encoding", "")
    codings = [c.strip().lower() for c in header.split(",")]
    codings = [c for c in codings if c not in IDENTITY]
    if len(codings) > 1:
        raise FetchFailed(
            Outcome.BAD_CONTENT, f"stacked content encodings refused: {header[:100]}", status
        )
    coding = codings[0] if codings else "identity"
    if coding not in ("identity", "gzip", "x-gzip", "deflate"):
        raise FetchFailed(
            Outcome.BAD_CONTENT, f"content encoding not asked for: {coding[:50]}", status
        )
    return Decoder(coding)


async def decoded_pieces(
    response: httpx.Response, max_bytes: int, status: int | None = None, cut: bool = False
) -> AsyncIterator[bytes]:
    """The body's decoded pieces, `max_bytes` in all: past them FetchFailed (too_large),
    or with `cut` the pieces simply end there. What comes over the wire counts too, so
    that a stream that decodes to nothing still ends."""
    decoder = decoder_for(response, status)
    wire = 0
    size = 0
    async for chunk in response.aiter_raw():
        wire += len(chunk)
        for piece in decoder.feed(chunk):
            if size + len(piece) > max_bytes:
                if cut:
                    yield piece[: max_bytes - size]
                    return
                raise FetchFailed(Outcome.TOO_LARGE, f"body larger than {max_bytes} bytes", status)
            size += len(piece)
            yield piece
            await asyncio.sleep(0)  # a deadline around the read can fire between pieces
        if wire > max_bytes and not cut:
            raise FetchFailed(Outcome.TOO_LARGE, f"body larger than {max_bytes} bytes", status)
        if wire > max_bytes:
            return


async def read_body(
    response: httpx.Response, max_bytes: int, status: int | None = None, cut: bool = False
) -> bytes:
    """The decoded body, bounded as `decoded_pieces` says."""
    return b"".join([p async for p in decoded_pieces(response, max_bytes, status, cut)])
