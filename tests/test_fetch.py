"""The fetcher against a real HTTP server on 127.0.0.1: every outcome is recorded."""

from __future__ import annotations

import gzip
import json
import socket
import time
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler

import pytest
from servers import Page, WebServer, send

from extractors.encoding import decode_body
from extractors.values import Outcome
from flows.catalog import FetchSettings
from flows.fetching import FetchRequest, fetch_batch
from flows.fetching.http import _retry_after, client_count

LIMITS = FetchSettings(
    timeout_s=2.0,
    concurrency=8,
    per_host=2,
    retries=2,
    max_bytes=200_000,
    user_agent="evidence-pipeline-test/1.0",
)


def fetch(web: WebServer, path: str, limits: FetchSettings = LIMITS, **request: object) -> list:
    url = web.url(path)
    return fetch_batch([FetchRequest(url, **request)], limits, lambda: datetime.now(UTC))[url]


def test_ok_page_with_validators(web: WebServer) -> None:
    web.routes["/p"] = Page(
        "<html><title>T</title><p>Hello</p></html>",
        headers={"Last-Modified": "Wed, 01 Jan 2026 00:00:00 GMT"},
    )
    (a,) = fetch(web, "/p")
    assert (a.outcome, a.http_status, a.encoding) == (Outcome.OK, 200, "utf-8")
    assert a.text is not None and "Hello" in a.text
    assert a.etag and a.last_modified == "Wed, 01 Jan 2026 00:00:00 GMT"
    ua = web.requests[-1][1]["User-Agent"]
    assert ua == LIMITS.user_agent


def test_conditional_request_gets_304(web: WebServer) -> None:
    web.routes["/p"] = Page("<p>same</p>")
    (first,) = fetch(web, "/p")
    (second,) = fetch(web, "/p", etag=first.etag)
    assert second.outcome is Outcome.NOT_MODIFIED and second.body is None
    assert web.requests[-1][1]["If-None-Match"] == first.etag


def test_304s_keep_the_connection_open(web: WebServer) -> None:
    paths = [f"/p{i}" for i in range(6)]
    for path in paths:
        web.routes[path] = Page(f"<p>{path}</p>")
    etags = {p: fetch(web, p)[0].etag for p in paths}
    before = web.connections
    one_at_a_time = LIMITS.model_copy(update={"concurrency": 1, "per_host": 1, "retries": 0})
    requests = [FetchRequest(web.url(p), etag=etags[p]) for p in paths]
    results = fetch_batch(requests, one_at_a_time, lambda: datetime.now(UTC))
    assert {r[-1].outcome for r in results.values()} == {Outcome.NOT_MODIFIED}
    assert web.connections - before == 1


def test_connections_are_shared_among_small_client_pools(web: WebServer) -> None:
    paths = [f"/q{i}" for i in range(40)]
    for path in paths:
        web.routes[path] = Page(f"<p>{path}</p>")
    before = web.connections
    eight = LIMITS.model_copy(
        update={"timeout_s": 5.0, "concurrency": 8, "per_host": 8, "retries": 0}
    )
    assert client_count(eight.concurrency) == 2
    results = fetch_batch(
        [FetchRequest(web.url(p)) for p in paths], eight, lambda: datetime.now(UTC)
    )
    assert [results[web.url(p)][-1].text for p in paths] == [f"<p>{p}</p>" for p in paths]
    assert web.max_in_flight <= 8
    assert web.connections - before <= 8  # kept alive and reused, in every pool


def test_404_is_not_retried(web: WebServer) -> None:
    attempts = fetch(web, "/missing")
    assert [(a.outcome, a.http_status) for a in attempts] == [(Outcome.HTTP_ERROR, 404)]
    assert attempts[0].error == "HTTP 404 Not Found"


def test_503_with_retry_after_is_retried_after_the_wait(web: WebServer) -> None:
    calls = {"n": 0}

    def flaky(h: BaseHTTPRequestHandler) -> None:
        calls["n"] += 1
        if calls["n"] == 1:
            send(h, 503, b"busy", headers={"Retry-After": "1"})
        else:
            send(h, 200, b"<p>back</p>")

    web.routes["/flaky"] = flaky
    t0 = time.monotonic()
    attempts = fetch(web, "/flaky")
    assert [a.outcome for a in attempts] == [Outcome.HTTP_ERROR, Outcome.OK]
    assert attempts[0].http_status == 503
    assert time.monotonic() - t0 >= 0.95


def test_5xx_gives_up_after_the_retries(web: WebServer) -> None:
    web.routes["/down"] = Page("down", status=500, headers={"Retry-After": "0"})
    attempts = fetch(web, "/down")
    assert len(attempts) == LIMITS.retries + 1
    assert all(a.outcome is Outcome.HTTP_ERROR and a.http_status == 500 for a in attempts)


def test_slow_page_times_out(web: WebServer) -> None:
    web.routes["/slow"] = Page("<p>late</p>", delay_s=10)
    limits = FetchSettings(timeout_s=0.3, retries=0, user_agent="t")
    (a,) = fetch(web, "/slow", limits)
    # cut at its limit, long before the page would answer (a wide margin for a busy machine)
    assert a.outcome is Outcome.TIMEOUT and a.elapsed_ms < 5000


def test_huge_body_is_too_large(web: WebServer) -> None:
    web.routes["/huge"] = Page("<p>" + "x" * 500_000 + "</p>")
    (a,) = fetch(web, "/huge")
    assert a.outcome is Outcome.TOO_LARGE and a.body is None


def test_gzip_bomb_is_too_large_not_out_of_memory(web: WebServer) -> None:
    bomb = gzip.compress(b"<p>" + b"0" * 50_000_000, compresslevel=9)
    assert len(bomb) < 100_000
    web.routes["/bomb"] = Page(bomb, headers={"Content-Encoding": "gzip"}, etag=False)
    (a,) = fetch(web, "/bomb")
    assert a.outcome is Outcome.TOO_LARGE


@pytest.mark.parametrize(
    ("ctype", "body"),
    [("image/png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 100), (None, b"\x00\x01\x02" * 1000)],
)
def test_binary_is_bad_content(web: WebServer, ctype: str | None, body: bytes) -> None:
    web.routes["/bin"] = Page(body, content_type=ctype)
    (a,) = fetch(web, "/bin")
    assert a.outcome is Outcome.BAD_CONTENT


def test_redirect_loop(web: WebServer) -> None:
    web.routes["/a"] = Page(b"", status=302, headers={"Location": "/b"}, etag=False)
    web.routes["/b"] = Page(b"", status=302, headers={"Location": "/a"}, etag=False)
    (a,) = fetch(web, "/a")
    assert a.outcome is Outcome.REDIRECT_LOOP


def test_redirect_is_followed_and_the_final_url_kept(web: WebServer) -> None:
    web.routes["/old"] = Page(b"", status=301, headers={"Location": "/new"}, etag=False)
    web.routes["/new"] = Page("<p>moved here</p>")
    (a,) = fetch(web, "/old")
    assert a.outcome is Outcome.OK and a.final_url == web.url("/new")


def test_a_public_page_cannot_redirect_the_fetcher_to_a_private_address(web: WebServer) -> None:
    """The fetcher itself refuses, not only the rule: web stands for a public host, its
    redirect points at another server on this machine, which never sees a request."""
    from flows.fetching import AddressGuard

    private = WebServer().start()
    try:
        private.routes["/admin"] = Page("<p>internal</p>")
        web.routes["/hop"] = Page(
            b"", status=302, headers={"Location": private.url("/admin")}, etag=False
        )
        url = web.url("/hop")
        public = AddressGuard(public_origins={web.base.removeprefix("http://")})
        (refused,) = fetch_batch([FetchRequest(url)], LIMITS, lambda: datetime.now(UTC), public)[
            url
        ]
        assert refused.outcome is Outcome.BAD_CONTENT and "private address" in (refused.error or "")
        assert private.hits["/admin"] == 0
        (local,) = fetch(web, "/hop")  # a URL the user wrote on this machine may lead here
        assert local.outcome is Outcome.OK and private.hits["/admin"] == 1
    finally:
        private.stop()


@pytest.mark.parametrize("target", ["file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://x/"])
def test_the_fetcher_refuses_a_redirect_out_of_http(web: WebServer, target: str) -> None:
    web.routes["/out"] = Page(b"", status=302, headers={"Location": target}, etag=False)
    (a,) = fetch(web, "/out")
    assert a.outcome is Outcome.BAD_CONTENT and "non-http" in (a.error or "")


def test_windows_1252_page_without_charset_reads_right(web: WebServer) -> None:
    text = "<p>Caf\u00e9 prices \u2013 \u20ac5 per month, \u201cfully claimed\u201d soon.</p>"
    web.routes["/cp"] = Page(text.encode("cp1252"), content_type="text/html")
    (a,) = fetch(web, "/cp")
    assert a.outcome is Outcome.OK
    assert "Caf\u00e9 prices \u2013 \u20ac5" in a.text


def test_robots_txt_is_honoured_unless_overridden(web: WebServer) -> None:
    web.routes["/robots.txt"] = Page(
        "User-agent: *\nDisallow: /private/\n", content_type="text/plain"
    )
    web.routes["/private/p"] = Page("<p>secret</p>")
    (a,) = fetch(web, "/private/p")
    assert a.outcome is Outcome.ROBOTS_DISALLOWED and web.hits["/private/p"] == 0
    (b,) = fetch(web, "/private/p", obey_robots=False)
    assert b.outcome is Outcome.OK


def test_connection_refused_is_connect_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/x"
    limits = FetchSettings(timeout_s=1, retries=1, user_agent="t")
    attempts = fetch_batch([FetchRequest(url)], limits, lambda: datetime.now(UTC))[url]
    assert [a.outcome for a in attempts] == [Outcome.CONNECT_ERROR, Outcome.CONNECT_ERROR]


def test_at_most_per_host_requests_in_flight(web: WebServer) -> None:
    for i in range(8):
        web.routes[f"/p{i}"] = Page(f"<p>{i}</p>", delay_s=0.2)
    urls = [web.url(f"/p{i}") for i in range(8)]
    results = fetch_batch([FetchRequest(u) for u in urls], LIMITS, lambda: datetime.now(UTC))
    assert all(r[-1].outcome is Outcome.OK for r in results.values())
    assert web.max_in_flight == LIMITS.per_host


def test_retry_after_as_an_http_date() -> None:
    now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    assert _retry_after("Mon, 30 Nov 2026 12:00:30 GMT", now) == 30
    assert _retry_after("7", now) == 7
    assert _retry_after("soon", now) is None


def test_decode_prefers_header_then_bom_then_meta() -> None:
    body = '<meta charset="iso-8859-1"><p>\u00e9</p>'.encode("latin-1")
    assert decode_body(body, None)[1] == "iso8859-1"
    assert decode_body(b"\xef\xbb\xbf<p>\xc3\xa9</p>", None) == ("<p>\u00e9</p>", "utf-8-sig")


def test_tls_error_on_a_plain_http_port(web: WebServer) -> None:
    url = web.url("/p").replace("http://", "https://")
    limits = FetchSettings(timeout_s=2, retries=0, user_agent="t")
    (a,) = fetch_batch([FetchRequest(url)], limits, lambda: datetime.now(UTC))[url]
    assert a.outcome is Outcome.TLS_ERROR, a.error


def test_unknown_host_is_dns_error() -> None:
    url = "http://no-such-host.invalid/page"
    limits = FetchSettings(timeout_s=3, retries=0, user_agent="t")
    (a,) = fetch_batch([FetchRequest(url, obey_robots=False)], limits, lambda: datetime.now(UTC))[
        url
    ]
    assert a.outcome is Outcome.DNS_ERROR, a.error


def wayback(web: WebServer, copies: dict[str, str]) -> None:
    """A Wayback-style availability API on the test server."""

    def available(h: BaseHTTPRequestHandler) -> None:
        from urllib.parse import parse_qs, urlsplit

        wanted = parse_qs(urlsplit(h.path).query)["url"][0]
        path = copies.get(wanted)
        body: dict = {"archived_snapshots": {}}
        if path:
            body["archived_snapshots"]["closest"] = {
                "available": True,
                "url": web.url(path),
                "timestamp": "20260101120000",
                "status": "200",
            }
        send(h, 200, json.dumps(body).encode(), "application/json")

    web.routes["/wayback/available"] = available


def test_archive_fallback_keeps_the_live_failure_and_adds_the_copy(web: WebServer) -> None:
    wayback(web, {web.url("/dead"): "/web/20260101120000/dead"})
    web.routes["/web/20260101120000/dead"] = Page("<p>archived copy</p>")
    limits = FetchSettings(
        timeout_s=2, retries=0, user_agent="t", archive_fallback=web.url("/wayback/available")
    )
    live, copy = fetch(web, "/dead", limits)
    assert (live.outcome, live.http_status, live.via) == (Outcome.HTTP_ERROR, 404, "live")
    assert (copy.outcome, copy.via, copy.url) == (Outcome.OK, "archived", web.url("/dead"))
    assert copy.captured_at == datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
    assert copy.fetched_at == copy.captured_at and "archived copy" in copy.text


def test_archive_with_no_copy_adds_nothing(web: WebServer) -> None:
    wayback(web, {})
    limits = FetchSettings(
        timeout_s=2, retries=0, user_agent="t", archive_fallback=web.url("/wayback/available")
    )
    assert [a.outcome for a in fetch(web, "/dead", limits)] == [Outcome.HTTP_ERROR]


def test_slow_drip_is_cut_by_the_total_time_limit(web: WebServer) -> None:
    def drip(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "text/html")
        h.end_headers()
        for _ in range(200):  # a byte every 0.1 s: each read is quick, the whole never ends
            h.wfile.write(b"x")
            h.wfile.flush()
            time.sleep(0.1)

    web.routes["/drip"] = drip
    limits = FetchSettings(timeout_s=0.6, retries=0, user_agent="t")
    (a,) = fetch(web, "/drip", limits)
    assert a.outcome is Outcome.TIMEOUT and a.elapsed_ms < 10_000  # the drip lasts 20 s


def test_one_tls_context_per_process_and_it_verifies() -> None:
    import ssl

    from flows.fetching.http import tls_context

    ctx = tls_context()
    assert ctx is tls_context()  # built once, not per batch
    assert ctx.verify_mode == ssl.CERT_REQUIRED and ctx.check_hostname
