"""From a public page, only globally routable addresses: shared address space, IETF
special ranges, addresses wrapped in 6to4, IPv4-mapped or NAT64 forms, and multicast are
refused before any connection. The page's server on 127.0.0.1 stands for a public host
(AddressGuard's test hook); a URL the user wrote on this machine may still lead here."""

from __future__ import annotations

import json
import socket
from datetime import UTC, datetime

import pytest
from servers import Page, WebServer

from extractors.values import Outcome
from flows.catalog import FetchSettings
from flows.fetching import AddressGuard, FetchRequest, fetch_batch

LIMITS = FetchSettings(timeout_s=2, retries=0, user_agent="t")


def now() -> datetime:
    return datetime.now(UTC)


def public(web: WebServer) -> AddressGuard:
    return AddressGuard(public_origins={web.base.removeprefix("http://")})


@pytest.fixture
def listener() -> socket.socket:
    """A TCP port on this machine that counts each connection it is offered."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(16)
        s.settimeout(0.2)
        yield s


def connections(s: socket.socket) -> int:
    count = 0
    while True:
        try:
            conn, _ = s.accept()
        except (TimeoutError, OSError):
            return count
        conn.close()
        count += 1


@pytest.mark.parametrize(
    "target",
    [
        "http://100.100.100.200/latest/meta-data/",  # shared address space: cloud metadata
        "http://100.64.0.1/",
        "http://192.0.0.8/",  # IETF protocol assignments
        "http://224.0.0.1/",  # multicast
        "http://[ff02::1]/",
        "http://[2002:7f00:1::]:{port}/",  # 6to4 wrapping 127.0.0.1
        "http://[::ffff:127.0.0.1]:{port}/",  # IPv4-mapped 127.0.0.1
        "http://[64:ff9b::7f00:1]:{port}/",  # NAT64 wrapping 127.0.0.1
    ],
)
def test_a_public_page_cannot_redirect_to_an_address_that_is_not_global(
    web: WebServer, listener: socket.socket, target: str
) -> None:
    target = target.format(port=listener.getsockname()[1])
    web.routes["/hop"] = Page(b"", status=302, headers={"Location": target}, etag=False)
    url = web.url("/hop")
    (got,) = fetch_batch([FetchRequest(url, obey_robots=False)], LIMITS, now, public(web))[url]
    assert got.outcome is Outcome.BAD_CONTENT, (got.outcome, got.error)
    assert "private address refused" in (got.error or "")
    assert connections(listener) == 0


def test_a_public_page_may_still_redirect_to_a_public_address(web: WebServer) -> None:
    """The same guard lets a public page lead to another public host (here: another port
    that also counts as public)."""
    other = WebServer().start()
    try:
        other.routes["/there"] = Page("<p>8 seats</p>")
        web.routes["/hop"] = Page(b"", status=302, headers={"Location": other.url("/there")})
        guard = AddressGuard(public_origins={s.base.removeprefix("http://") for s in (web, other)})
        url = web.url("/hop")
        (got,) = fetch_batch([FetchRequest(url, obey_robots=False)], LIMITS, now, guard)[url]
        assert got.outcome is Outcome.OK and other.hits["/there"] == 1
    finally:
        other.stop()


def test_the_users_own_local_source_still_reaches_this_machine(
    web: WebServer, listener: socket.socket
) -> None:
    """A URL the user wrote on 127.0.0.1 may redirect to another port here, wrapped or not."""
    port = listener.getsockname()[1]
    web.routes["/hop"] = Page(
        b"", status=302, headers={"Location": f"http://127.0.0.1:{port}/"}, etag=False
    )
    url = web.url("/hop")
    limits = LIMITS.model_copy(update={"timeout_s": 0.5})
    fetch_batch([FetchRequest(url, obey_robots=False)], limits, now)
    assert connections(listener) == 1


def test_the_archive_fallback_never_fetches_a_copy_where_it_may_not_lead(
    web: WebServer,
) -> None:
    """An archive on a public host that names a copy on this machine: the copy is not
    fetched (the live failure stands), as a redirect there would not be followed."""
    inside = WebServer().start()
    try:
        inside.routes["/copy"] = Page("<p>secret 40 seats</p>")
        web.routes["/gone"] = Page("no", status=404)
        web.routes["/available"] = Page(
            json.dumps(
                {
                    "archived_snapshots": {
                        "closest": {
                            "available": True,
                            "url": inside.url("/copy"),
                            "timestamp": "20261101000000",
                            "status": "200",
                        }
                    }
                }
            ),
            content_type="application/json",
        )
        limits = FetchSettings(
            timeout_s=3, retries=0, user_agent="t", archive_fallback=web.url("/available")
        )
        url = web.url("/gone")
        got = fetch_batch([FetchRequest(url, obey_robots=False)], limits, now, public(web))[url]
        assert [a.outcome for a in got] == [Outcome.HTTP_ERROR]
        assert web.hits["/available"] == 1 and inside.hits["/copy"] == 0
    finally:
        inside.stop()
