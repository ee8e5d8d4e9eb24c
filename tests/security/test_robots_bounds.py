"""robots.txt is read in pieces and cut at its limit, never whole; its redirects follow
the page's guard, so a public host's robots.txt cannot send the fetcher to this machine."""

from __future__ import annotations

import gzip
import threading
import time
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler

from servers import Page, WebServer

from extractors.values import Outcome
from flows.catalog import FetchSettings
from flows.fetching import AddressGuard, FetchRequest, fetch_batch

LIMITS = FetchSettings(timeout_s=5, retries=0, user_agent="t")
RULES = b"User-agent: *\nDisallow: /private/\n"


def now() -> datetime:
    return datetime.now(UTC)


class Endless:
    """A robots.txt whose rules come first and whose comments never end; it counts what
    it managed to send before the reader hung up."""

    def __init__(self) -> None:
        self.sent = 0
        self.done = threading.Event()

    def __call__(self, h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "text/plain")
        h.send_header("Content-Length", str(1_500_000_000))
        h.end_headers()
        line = b"# " + b"x" * 1020 + b"\n"
        try:
            h.wfile.write(RULES)
            while self.sent < 1_500_000_000:
                h.wfile.write(line * 64)
                self.sent += len(line) * 64
        except OSError:
            pass
        finally:
            self.done.set()


def test_an_endless_robots_txt_is_cut_and_its_rules_kept(web: WebServer) -> None:
    endless = Endless()
    web.routes["/robots.txt"] = endless
    web.routes["/private/p"] = Page("<p>secret</p>")
    url = web.url("/private/p")
    (got,) = fetch_batch([FetchRequest(url)], LIMITS, now)[url]
    assert got.outcome is Outcome.ROBOTS_DISALLOWED and web.hits["/private/p"] == 0
    assert endless.done.wait(10)
    assert endless.sent < 20_000_000  # 500 KB read, the rest stopped in socket buffers


def test_a_gzip_bomb_robots_txt_is_cut_too(web: WebServer) -> None:
    body = gzip.compress(RULES + b"# " + b"0" * 200_000_000)
    web.routes["/robots.txt"] = Page(
        body, content_type="text/plain", headers={"Content-Encoding": "gzip"}, etag=False
    )
    web.routes["/private/p"] = Page("<p>secret</p>")
    url = web.url("/private/p")
    (got,) = fetch_batch([FetchRequest(url)], LIMITS, now)[url]
    assert got.outcome is Outcome.ROBOTS_DISALLOWED


def test_a_public_robots_txt_cannot_redirect_to_a_private_address(web: WebServer) -> None:
    private = WebServer().start()
    try:
        private.routes["/robots.txt"] = Page(RULES, content_type="text/plain")
        web.routes["/robots.txt"] = Page(
            b"", status=302, headers={"Location": private.url("/robots.txt")}, etag=False
        )
        web.routes["/p"] = Page("<p>7 seats</p>")
        url = web.url("/p")
        public = AddressGuard(public_origins={web.base.removeprefix("http://")})
        (got,) = fetch_batch([FetchRequest(url)], LIMITS, now, public)[url]
        assert got.outcome is Outcome.OK  # no rules read: the page itself decides
        assert private.hits["/robots.txt"] == 0
    finally:
        private.stop()


def test_a_robots_txt_redirected_within_its_host_is_followed(web: WebServer) -> None:
    web.routes["/robots.txt"] = Page(
        b"", status=301, headers={"Location": "/real-robots.txt"}, etag=False
    )
    web.routes["/real-robots.txt"] = Page(RULES, content_type="text/plain")
    web.routes["/private/p"] = Page("<p>secret</p>")
    url = web.url("/private/p")
    (got,) = fetch_batch([FetchRequest(url)], LIMITS, now)[url]
    assert got.outcome is Outcome.ROBOTS_DISALLOWED and web.hits["/private/p"] == 0


class Slow:
    """A robots.txt whose rules come first, then a comment dripping a byte at a time
    for ever."""

    def __init__(self) -> None:
        self.stop = threading.Event()

    def __call__(self, h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "text/plain")
        h.send_header("Content-Length", "1000000")
        h.end_headers()
        try:
            h.wfile.write(RULES + b"# ")
            h.wfile.flush()
            while not self.stop.wait(0.3):
                h.wfile.write(b"x")
                h.wfile.flush()
        except OSError:
            pass


def test_a_slow_robots_txt_is_cut_at_its_time_and_its_rules_kept(web: WebServer) -> None:
    """Time cuts it as size does: the rules read by then hold (the private page is
    disallowed, the public one fetched), and the pages do not wait out the fetch's whole
    time limit for it."""
    slow = Slow()
    web.routes["/robots.txt"] = slow
    web.routes["/private/p"] = Page("<p>secret</p>")
    web.routes["/public"] = Page("<p>12 seats left</p>")
    limits = FetchSettings(timeout_s=20, retries=0, user_agent="t")
    urls = [web.url("/private/p"), web.url("/public")]
    started = time.monotonic()
    try:
        got = fetch_batch([FetchRequest(u) for u in urls], limits, now)
    finally:
        slow.stop.set()
    assert got[urls[0]][-1].outcome is Outcome.ROBOTS_DISALLOWED
    assert got[urls[1]][-1].outcome is Outcome.OK
    assert web.hits["/private/p"] == 0
    assert time.monotonic() - started < 15  # not the fetch's 20 s
