"""Memory follows max_bytes whatever the encoding: only encodings decoded here in pieces
are asked for, stacked or unasked ones are refused unread, and a gzip body is cut once
what it decodes to passes the limit."""

from __future__ import annotations

import gzip
import time
import zlib
from datetime import UTC, datetime

import pytest
import zstandard
from servers import Page, WebServer

from extractors.values import Outcome
from flows.catalog import FetchSettings
from flows.fetching import FetchRequest, fetch_batch
from security.peaks import run_probe

LIMITS = FetchSettings(timeout_s=5, retries=0, user_agent="t", max_bytes=1_000_000)
BOUNDED = {"gzip", "deflate", "identity"}


def now() -> datetime:
    return datetime.now(UTC)


def gzip_of_zeros(size: int) -> bytes:
    """A gzip member of `size` bytes of '0', compressed as it goes (never held whole)."""
    out = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    block = b"0" * (1 << 20)
    parts = [out.compress(block) for _ in range(size >> 20)]
    return b"".join([*parts, out.flush()])


def fetch_one(web: WebServer, path: str) -> object:
    url = web.url(path)
    (got,) = fetch_batch([FetchRequest(url, obey_robots=False)], LIMITS, now)[url]
    return got


def test_only_encodings_decoded_in_pieces_are_asked_for(web: WebServer) -> None:
    web.routes["/p"] = Page("<p>3 seats</p>")
    assert fetch_one(web, "/p").outcome is Outcome.OK
    asked = dict(web.requests[-1][1])["Accept-Encoding"]
    assert {c.split(";")[0].strip() for c in asked.split(",")} <= BOUNDED, asked


@pytest.mark.slow
def test_stacked_gzip_is_refused_unread(web: WebServer) -> None:
    """1 GiB behind two layers of gzip, under 2 KB on the wire."""
    bomb = gzip.compress(gzip_of_zeros(1 << 30))
    web.routes["/bomb"] = Page(bomb, headers={"Content-Encoding": "gzip, gzip"}, etag=False)
    t0 = time.monotonic()
    got = fetch_one(web, "/bomb")
    assert got.outcome is Outcome.BAD_CONTENT and "stacked" in (got.error or "")
    assert time.monotonic() - t0 < 3


def test_an_unasked_zstd_body_is_refused_unread(web: WebServer) -> None:
    bomb = zstandard.ZstdCompressor(level=19).compress(b"0" * (256 << 20))
    web.routes["/zstd"] = Page(bomb, headers={"Content-Encoding": "zstd"}, etag=False)
    got = fetch_one(web, "/zstd")
    assert got.outcome is Outcome.BAD_CONTENT and "not asked for" in (got.error or "")


def test_a_gzip_bomb_is_too_large_and_a_small_gzip_page_reads(web: WebServer) -> None:
    web.routes["/bomb"] = Page(
        gzip_of_zeros(64 << 20), headers={"Content-Encoding": "gzip"}, etag=False
    )
    web.routes["/small"] = Page(
        gzip.compress(b"<p>12 seats</p>" * 1000), headers={"Content-Encoding": "gzip"}
    )
    web.routes["/two"] = Page(
        gzip.compress(b"<p>first member</p>") + gzip.compress(b"<p>second member</p>"),
        headers={"Content-Encoding": "gzip"},
    )
    web.routes["/deflate"] = Page(
        zlib.compress(b"<p>4 seats</p>"), headers={"Content-Encoding": "deflate"}
    )
    assert fetch_one(web, "/bomb").outcome is Outcome.TOO_LARGE
    small = fetch_one(web, "/small")
    assert small.outcome is Outcome.OK and small.body == b"<p>12 seats</p>" * 1000
    assert fetch_one(web, "/two").body == b"<p>first member</p><p>second member</p>"
    assert fetch_one(web, "/deflate").body == b"<p>4 seats</p>"


def test_a_broken_gzip_body_is_bad_content(web: WebServer) -> None:
    web.routes["/broken"] = Page(b"not gzip at all", headers={"Content-Encoding": "gzip"})
    assert fetch_one(web, "/broken").outcome is Outcome.BAD_CONTENT


PROBE = """
import sys
from datetime import UTC, datetime
from flows.catalog import FetchSettings
from flows.fetching import FetchRequest, fetch_batch
limits = FetchSettings(timeout_s=20, retries=0, user_agent="t", max_bytes=5_000_000)
fetch_batch([FetchRequest("http://127.0.0.1:1/warm-up")], limits, lambda: datetime.now(UTC))
before = own_mb()
url = sys.argv[1]
(got,) = fetch_batch([FetchRequest(url, obey_robots=False)], limits, lambda: datetime.now(UTC))[url]
print(got.outcome.value, own_mb() - before, own_mb())
"""
GROWTH_BOUND_MB = 40  # the default max_bytes is 5 MB: a body, a piece and their join


@pytest.mark.slow
@pytest.mark.parametrize("encoding", ["gzip", "gzip, gzip", "zstd"])
def test_a_bomb_grows_memory_by_little_more_than_max_bytes(web: WebServer, encoding: str) -> None:
    """In a fresh process, fetched with the default limit: its peak resident memory grows
    by a few times max_bytes at most, whatever the body decodes to (256 MiB here)."""
    size = 256 << 20
    bodies = {
        "gzip": lambda: gzip_of_zeros(size),
        "gzip, gzip": lambda: gzip.compress(gzip_of_zeros(size)),
        "zstd": lambda: zstandard.ZstdCompressor(level=19).compress(b"0" * size),
    }
    web.routes["/bomb"] = Page(
        bodies[encoding](), headers={"Content-Encoding": encoding}, etag=False
    )
    outcome, growth, peak = run_probe(PROBE, web.url("/bomb"))
    print(f"\n{encoding}: {outcome}, peak {peak} MB, grew {growth} MB")
    assert outcome in ("too_large", "bad_content")
    assert int(growth) < GROWTH_BOUND_MB


@pytest.mark.slow
def test_an_archive_api_answering_a_bomb_gives_no_copy(web: WebServer) -> None:
    """The archive fallback's answer is read within the same bound as a page."""
    web.routes["/gone"] = Page("<p>gone</p>", status=410)
    web.routes["/available"] = Page(
        gzip.compress(gzip_of_zeros(1 << 30)),
        content_type="application/json",
        headers={"Content-Encoding": "gzip, gzip"},
        etag=False,
    )
    limits = LIMITS.model_copy(update={"archive_fallback": web.url("/available")})
    url = web.url("/gone")
    t0 = time.monotonic()
    attempts = fetch_batch([FetchRequest(url, obey_robots=False)], limits, now)[url]
    assert [a.outcome for a in attempts] == [Outcome.HTTP_ERROR]
    assert web.hits["/available"] == 1 and time.monotonic() - t0 < 3
