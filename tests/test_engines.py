"""Browser engines elsewhere, and browsers that fail: a real `playwright run-server` and a
real Chromium with `--remote-debugging-port` on 127.0.0.1, each started here; endpoints
that do not answer or speak another version; an engine that goes away mid-refresh; pages
whose scripts never stop."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from engines import devtools_chromium, marked_browsers, playwright_server
from servers import Page, WebServer, send
from support import require_browser, write_config

from evidence_base.words import Render
from extractors.values import Outcome
from flows.catalog import FetchSettings
from flows.fetching import AddressGuard, FetchRequest, check_engines, fetch_batch
from flows.fetching.engines import LAUNCH_TIMEOUT_S

require_browser()

SHELL = """<html><head><title>Credits</title></head><body><div id="root">Loading…</div>
<script>
fetch('/api/credits').then(r => r.json()).then(j => {
  document.getElementById('root').innerHTML = '<main><p>' + j.text + '</p></main>';
});
</script></body></html>"""
CREDITS = '{"text": "Each team gets $4,000 in GPU credits for the best runs."}'


def now() -> datetime:
    return datetime.now(UTC)


def limits(endpoint: str | list[str] | None = None, **more: object) -> FetchSettings:
    settings: dict[str, object] = {
        "timeout_s": 20.0,  # engines start here, beside the other tests
        "retries": 0,
        "user_agent": "evidence-test",
        "browser_concurrency": 1,
        "browser_endpoint": endpoint,
    }
    return FetchSettings.model_validate({**settings, **more})


@pytest.fixture
def site(web: WebServer) -> Iterator[WebServer]:
    web.routes["/app"] = Page(SHELL)
    web.routes["/api/credits"] = Page(CREDITS, content_type="application/json")
    yield web


@pytest.fixture
def marker(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    """An environment mark that a browser launched by this process would carry."""
    mark = f"PIPELINE_ENGINE_MARK={tmp_path.name}"
    monkeypatch.setenv("PIPELINE_ENGINE_MARK", tmp_path.name)
    return mark


def seen_while_rendering(site: WebServer, marker: str) -> list[list[int]]:
    """The JSON endpoint notes, each time a page asks it, the browsers this process
    launched: what runs here while a page renders."""
    seen: list[list[int]] = []

    def credits(h: BaseHTTPRequestHandler) -> None:
        seen.append(marked_browsers(marker))
        send(h, 200, CREDITS.encode(), "application/json")

    site.routes["/api/credits"] = credits
    return seen


def render(urls: list[str], settings: FetchSettings, **kw: object) -> dict[str, list]:
    return fetch_batch([FetchRequest(u, render=Render.BROWSER) for u in urls], settings, now, **kw)  # type: ignore[arg-type]


@pytest.mark.slow
def test_pages_render_on_a_playwright_server_and_nothing_here(
    site: WebServer, tmp_path: Path, marker: str
) -> None:
    seen = seen_while_rendering(site, marker)
    (local,) = render([site.url("/app")], limits())[site.url("/app")]
    assert local.outcome is Outcome.OK and seen[-1], "a local launch is seen"
    with playwright_server(tmp_path) as server:
        (remote,) = render([site.url("/app?r")], limits(server.url))[site.url("/app?r")]
        assert server.running
    assert remote.outcome is Outcome.OK and remote.render is Render.BROWSER
    assert "$4,000 in GPU credits" in remote.text
    assert seen[-1] == [], f"browsers launched here: {seen[-1]}"


@pytest.mark.slow
def test_pages_render_on_a_devtools_endpoint_which_keeps_running(
    site: WebServer, tmp_path: Path, marker: str
) -> None:
    seen = seen_while_rendering(site, marker)
    with devtools_chromium(tmp_path) as chromium:
        urls = [site.url("/app"), site.url("/app?2")]
        out = render(urls, limits(chromium.url))
        assert chromium.running  # the engine is someone else's: let go, not closed
    assert [out[u][-1].outcome for u in urls] == [Outcome.OK, Outcome.OK]
    assert "$4,000 in GPU credits" in out[urls[1]][-1].text
    assert len(seen) == 2 and seen == [[], []]


@pytest.mark.slow
def test_the_guard_holds_on_a_remote_engine(site: WebServer, tmp_path: Path) -> None:
    """The page's server stands for a public host: its script tries another port of this
    machine, which it was not given; through the engine as through a local launch, that
    server never sees a request."""
    private = WebServer().start()
    try:
        private.routes["/secret"] = Page('{"text": "secret"}', content_type="application/json")
        site.routes["/leaky"] = Page(
            "<html><body><main><p>Public page with 300 seats.</p></main><script>"
            f"fetch('{private.url('/secret')}').catch(() => {{}});</script></body></html>"
        )
        public = AddressGuard(public_origins={site.base.removeprefix("http://")})
        with playwright_server(tmp_path) as server:
            out = render([site.url("/leaky")], limits(server.url), guard=public)
        (leaky,) = out[site.url("/leaky")]
        assert leaky.outcome is Outcome.OK and "300 seats" in leaky.text
        assert private.hits["/secret"] == 0
    finally:
        private.stop()


@pytest.mark.slow
def test_an_endpoint_that_does_not_answer_is_one_line_and_an_outcome(
    site: WebServer, capfd: pytest.CaptureFixture[str]
) -> None:
    """A closed port, and a Playwright server of another version (what one answers)."""
    old = WebServer().start()
    try:
        old.routes["/"] = Page(
            "Playwright version mismatch:\n  - server version: v1.40\n  - client version: v1.65\n",
            status=428,
            content_type="text/plain",
        )
        dead = "ws://127.0.0.1:9/"
        for endpoint, why in ((dead, "ECONNREFUSED"), (old.base.replace("http", "ws"), "v1.40")):
            settings = limits(endpoint)
            requests = [
                FetchRequest(site.url("/app"), render=Render.BROWSER),
                FetchRequest(site.url("/app?plain")),
            ]
            down = check_engines(settings, requests)
            err = capfd.readouterr().err
            assert list(down) == [endpoint] and why in down[endpoint]
            lines = [ln for ln in err.splitlines() if "browser endpoint" in ln]
            assert len(lines) == 1 and endpoint in lines[0] and "1 page(s)" in lines[0], err
            out = fetch_batch(requests, settings, now, unavailable=down)
            assert out[site.url("/app")][-1].outcome is Outcome.BROWSER_UNAVAILABLE
            assert why in out[site.url("/app")][-1].error
            assert out[site.url("/app?plain")][-1].outcome is Outcome.OK
            assert "browser endpoint" not in capfd.readouterr().err  # said once, before
    finally:
        old.stop()


@pytest.mark.slow
def test_a_list_of_endpoints_keeps_each_host_on_one(site: WebServer, tmp_path: Path) -> None:
    other = WebServer().start()  # a second host: localhost, where the first is 127.0.0.1
    try:
        other.routes["/app"] = Page(SHELL)
        other.routes["/api/credits"] = Page(CREDITS, content_type="application/json")
        with playwright_server(tmp_path) as a, devtools_chromium(tmp_path) as b:
            settings = limits([a.url, b.url])
            here = [site.url(f"/app?{n}") for n in range(3)]
            there = [other.url(f"/app?{n}").replace("127.0.0.1", "localhost") for n in range(3)]
            out = render(here + there, settings)
        assert all(out[u][-1].outcome is Outcome.OK for u in here + there)
        from flows.fetching.engines import endpoint_for, endpoints

        where = endpoints(settings)
        assert len({endpoint_for(u, where) for u in here}) == 1
        assert len({endpoint_for(u, where) for u in there}) == 1
    finally:
        other.stop()


@pytest.mark.slow
def test_an_engine_lost_mid_refresh_costs_its_page_in_flight(
    site: WebServer, tmp_path: Path
) -> None:
    """The server is stopped while the first page renders: that page fails, the engine is
    reached for once more (it is gone), the pages after it are `browser_unavailable`, and
    the HTTP page is fetched as usual."""
    server = playwright_server(tmp_path)
    try:

        def credits(h: BaseHTTPRequestHandler) -> None:
            server.stop()  # the whole engine, while its page waits for this answer
            send(h, 200, CREDITS.encode(), "application/json")

        site.routes["/api/credits"] = credits
        site.routes["/plain"] = Page("<html><main><p>Plain page, 12 seats.</p></main></html>")
        urls = [site.url(f"/app?{n}") for n in range(3)]
        requests = [FetchRequest(u, render=Render.BROWSER) for u in urls]
        started = time.monotonic()
        out = fetch_batch([*requests, FetchRequest(site.url("/plain"))], limits(server.url), now)
        took = time.monotonic() - started
    finally:
        server.stop()
    first, *rest = (out[u][-1] for u in urls)
    assert first.outcome is Outcome.BROWSER_UNAVAILABLE and "was lost" in first.error
    assert [a.outcome for a in rest] == [Outcome.BROWSER_UNAVAILABLE] * 2
    assert all("does not answer" in a.error for a in rest), [a.error for a in rest]
    assert out[site.url("/plain")][-1].outcome is Outcome.OK
    assert took < 30


BUSY = "<html><body><main><p>Busy page.</p></main><script>while (true) {}</script></body></html>"
BUSY_LATER = (
    "<html><body><main><p>Busy later.</p></main>"
    "<script>setTimeout(() => { while (true) {} }, 50);</script></body></html>"
)
ENDLESS = (
    "<html><body><main><p>Endless.</p></main><script>"
    "setInterval(() => fetch('/tick?' + Math.random()), 50);</script></body></html>"
)


@pytest.mark.slow
@pytest.mark.parametrize("path", ["/busy", "/busy-later", "/endless"])
def test_a_page_whose_scripts_never_stop_times_out(site: WebServer, path: str) -> None:
    site.routes["/busy"] = Page(BUSY)
    site.routes["/busy-later"] = Page(BUSY_LATER)
    site.routes["/endless"] = Page(ENDLESS)
    site.routes["/tick"] = Page("{}", content_type="application/json", etag=False)
    settings = limits(timeout_s=3.0)
    started = time.monotonic()
    (a,) = render([site.url(path)], settings)[site.url(path)]
    took = time.monotonic() - started
    assert a.outcome is Outcome.TIMEOUT, (a.outcome, a.error)
    assert a.elapsed_ms < (3.0 + 2.0) * 1000, a.elapsed_ms  # the page's limit held
    # and the whole call ends: a browser's start and close are bounded on their own
    assert took < 3.0 + LAUNCH_TIMEOUT_S, took


def test_browser_endpoint_must_be_an_engine_url() -> None:
    from pydantic import ValidationError

    for bad in ("http://127.0.0.1:9222", "ws:///nohost", [], "file:///x"):
        with pytest.raises(ValidationError, match="browser_endpoint"):
            limits(bad)  # type: ignore[arg-type]
    assert limits("cdp+ws://h:1/x").browser_endpoint == ("cdp+ws://h:1/x",)


@pytest.mark.slow
def test_a_refresh_with_an_endpoint_down_says_so_once_and_goes_on(
    prefect_harness: None, site: WebServer, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from flows.refresh import refresh_flow
    from warehouse.db import connect

    config = write_config(
        tmp_path,
        f"""\
        - id: rendered
          title: Credits, rendered
          sources: [{{id: app, url: "{site.url("/app")}", role: primary, render: browser}}]
          claims: [{{id: pool, quote: "$4,000 in GPU credits for the best runs"}}]
        - id: plain
          title: Credits, plain
          sources: [{{id: page, url: "{site.url("/plain")}", role: primary}}]
          claims: [{{id: pool, quote: "$4,000 in GPU credits for the best runs"}}]
        """,
    )
    site.routes["/plain"] = Page(f"<html><main><p>{CREDITS[10:-2]}</p></main></html>")
    (config / "settings.yaml").write_text(
        'fetch: {retries: 0, browser_endpoint: "cdp+http://127.0.0.1:9"}\n'
    )
    db = tmp_path / "w.duckdb"
    rows = {r.record_id: r for r in refresh_flow(str(config), str(db), None).records}
    err = capfd.readouterr().err
    said = [ln for ln in err.splitlines() if "browser endpoint" in ln]
    assert len(said) == 1 and "cdp+http://127.0.0.1:9 does not answer" in said[0], err
    assert err.index("browser endpoint") < err.index("fetched ")  # before any page is in
    con = connect(db, read_only=True)
    try:
        outcomes = dict(con.execute("SELECT record_id, outcome FROM fetches").fetchall())
    finally:
        con.close()
    assert outcomes == {"rendered": "browser_unavailable", "plain": "ok"}
    assert rows["plain"].grade == "documented"


@pytest.mark.slow
def test_a_hosts_pages_share_a_context_and_no_other_host_does(site: WebServer) -> None:
    """The first page's answer sets a cookie (cookies do not tell ports apart): the same
    host's next page sends it back; a page of another server on this machine, rendered
    in the same browser after it, does not."""
    other = WebServer().start()
    try:
        plain = "<html><main><p>Page with {} seats.</p></main></html>"
        site.routes["/first"] = Page(plain.format(1), headers={"Set-Cookie": "seen=1; Path=/"})
        site.routes["/second"] = Page(plain.format(2))
        other.routes["/third"] = Page(plain.format(3))
        urls = [site.url("/first"), site.url("/second"), other.url("/third")]
        out = fetch_batch(
            [FetchRequest(u, render=Render.BROWSER) for u in urls],
            limits(browser_concurrency=1, concurrency=1),
            now,
        )
        assert all(out[u][-1].outcome is Outcome.OK for u in urls)
        # a tab that rendered one page and then the next gives each its own text
        assert [f"with {n} seats" in out[u][-1].text for n, u in enumerate(urls, 1)] == [True] * 3
        sent = {
            path: {k.lower(): v for k, v in h.items()}.get("cookie")
            for path, h in site.requests + other.requests
        }
        assert sent["/second"] == "seen=1" and sent["/third"] is None, sent
    finally:
        other.stop()


@pytest.mark.slow
def test_pop_ups_and_web_sockets_go_through_the_guard(site: WebServer) -> None:
    """A public page opens a pop-up and a WebSocket to another server on this machine:
    that server never sees either (its hits count every request, upgrades included)."""
    private = WebServer().start()
    try:
        private.routes["/popup"] = Page("<html><main><p>private</p></main></html>")
        private.routes["/ws"] = Page("no", status=400)
        ws = private.base.replace("http://", "ws://") + "/ws"
        site.routes["/opener"] = Page(
            "<html><body><main><p>Public page with 300 seats.</p></main><script>"
            f"window.open('{private.url('/popup')}');"
            f"try {{ new WebSocket('{ws}'); }} catch (e) {{}}"
            "</script></body></html>"
        )
        public = AddressGuard(public_origins={site.base.removeprefix("http://")})
        (a,) = render([site.url("/opener")], limits(), guard=public)[site.url("/opener")]
        time.sleep(0.5)  # whatever the pop-up or the socket would have sent has arrived
        assert a.outcome is Outcome.OK and "300 seats" in a.text
        assert private.hits["/popup"] == 0 and private.hits["/ws"] == 0, private.hits
    finally:
        private.stop()


@pytest.mark.slow
def test_a_reused_tab_renders_another_fragment_of_the_same_page(site: WebServer) -> None:
    """Hash-routed apps: /spa#pricing then /spa#docs, one tab at a time; each gets its
    own text (the tab is not left on the document a #fragment would not reload)."""
    site.routes["/spa"] = Page(
        "<html><body><div id='root'>Loading…</div><script>"
        "fetch('/api/' + location.hash.slice(1)).then(r => r.json()).then(j => {"
        "document.getElementById('root').innerHTML = '<main><p>' + j.text + '</p></main>'; });"
        "</script></body></html>"
    )
    for part, n in (("pricing", 40), ("docs", 12)):
        site.routes[f"/api/{part}"] = Page(
            f'{{"text": "The {part} page lists {n} plans for teams."}}',
            content_type="application/json",
        )
    urls = [site.url("/spa#pricing"), site.url("/spa#docs")]
    out = fetch_batch(
        [FetchRequest(u, render=Render.BROWSER) for u in urls], limits(concurrency=1), now
    )
    assert "lists 40 plans" in out[urls[0]][-1].text
    assert "lists 12 plans" in out[urls[1]][-1].text
