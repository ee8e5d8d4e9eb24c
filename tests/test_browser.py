"""Pages built by JavaScript, rendered in a real headless Chromium against real servers on
127.0.0.1: text that arrives from a JSON endpoint, after a timer, under a selector."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from servers import Page, WebServer
from support import require_browser, write_config

from evidence_base.words import Render
from extractors.values import Outcome
from flows.catalog import FetchSettings
from flows.fetching import AddressGuard, FetchRequest, fetch_batch

require_browser()

LIMITS = FetchSettings(timeout_s=8.0, retries=0, user_agent="evidence-test", browser_concurrency=2)
FROM_JSON = """<html><head><title>Credits</title></head><body><div id="root">Loading…</div>
<script>
setTimeout(async () => {
  const r = await fetch('/api/credits');
  const j = await r.json();
  document.getElementById('root').innerHTML = '<main><p>' + j.text + '</p></main>';
}, 200);
</script><img src="/pixel.png"></body></html>"""
LATE = """<html><head><title>Late</title></head><body><div id="app"></div><script>
setTimeout(() => {
  document.getElementById('app').innerHTML =
    '<main><p class="late">Applications are open until 15 December 2026.</p></main>';
}, 1500);
</script></body></html>"""
RESTLESS = """<html><body><div id="root"></div><script>
setInterval(() => fetch('/api/tick?' + Math.random()), 100);
</script></body></html>"""


def now() -> datetime:
    return datetime.now(UTC)


@pytest.fixture
def site(web: WebServer) -> Iterator[WebServer]:
    web.routes["/app"] = Page(FROM_JSON)
    web.routes["/api/credits"] = Page(
        '{"text": "Each team gets $4,000 in GPU credits for the best runs."}',
        content_type="application/json",
    )
    web.routes["/pixel.png"] = Page(b"\x89PNG", content_type="image/png")
    web.routes["/late"] = Page(LATE)
    web.routes["/restless"] = Page(RESTLESS)
    web.routes["/api/tick"] = Page("{}", content_type="application/json", etag=False)
    yield web


def render(url: str, guard: AddressGuard | None = None, wait_for: str | None = None) -> list:
    out = fetch_batch(
        [FetchRequest(url, render=Render.BROWSER, wait_for=wait_for)], LIMITS, now, guard
    )
    return out[url]


@pytest.mark.slow
def test_text_from_a_json_endpoint_is_in_the_rendered_page(site: WebServer) -> None:
    (a,) = render(site.url("/app"))
    assert a.outcome is Outcome.OK and a.render is Render.BROWSER and a.http_status == 200
    assert "$4,000 in GPU credits" in a.text and "Loading" not in a.text
    assert site.hits["/api/credits"] == 1
    assert site.hits["/pixel.png"] == 0  # images are never loaded


def test_http_sees_only_the_shell(site: WebServer) -> None:
    (a,) = fetch_batch([FetchRequest(site.url("/app"))], LIMITS, now)[site.url("/app")]
    assert a.outcome is Outcome.OK and a.render is Render.HTTP
    assert "$4,000" not in a.text and site.hits["/api/credits"] == 0


@pytest.mark.slow
def test_wait_for_waits_for_its_element(site: WebServer) -> None:
    (a,) = render(site.url("/late"), wait_for=".late")
    assert a.outcome is Outcome.OK
    assert "open until 15 December 2026" in a.text


@pytest.mark.slow
def test_a_page_that_never_settles_times_out(site: WebServer) -> None:
    limits = FetchSettings(timeout_s=3.0, retries=0, user_agent="t", browser_concurrency=1)
    url = site.url("/restless")
    (a,) = fetch_batch([FetchRequest(url, render=Render.BROWSER)], limits, now)[url]
    assert a.outcome is Outcome.TIMEOUT and a.render is Render.BROWSER


@pytest.mark.slow
def test_the_main_document_status_decides(site: WebServer) -> None:
    site.routes["/gone"] = Page("<html><title>Gone</title><p>gone</p></html>", status=410)
    site.routes["/missing"] = Page(
        "<html><head><title>Page not found</title></head><body><h1>Page not found</h1>"
        "</body></html>"
    )
    gone, missing = render(site.url("/gone")), render(site.url("/missing"))
    assert gone[-1].outcome is Outcome.HTTP_ERROR and gone[-1].http_status == 410
    assert missing[-1].outcome is Outcome.SOFT_404


@pytest.mark.slow
def test_a_public_page_cannot_reach_a_private_address(site: WebServer) -> None:
    """The page's server stands for a public host; its script and its redirect try
    another server on this machine, which never sees a request."""
    private = WebServer().start()
    try:
        private.routes["/secret"] = Page('{"text": "secret"}', content_type="application/json")
        site.routes["/leaky"] = Page(
            "<html><body><main><p>Public page with 300 seats.</p></main><script>"
            f"fetch('{private.url('/secret')}').catch(() => {{}});</script></body></html>"
        )
        site.routes["/hop"] = Page("", status=302, headers={"Location": private.url("/secret")})
        public = AddressGuard(public_origins={site.base.removeprefix("http://")})
        (leaky,) = render(site.url("/leaky"), guard=public)
        (hop,) = render(site.url("/hop"), guard=public)
        assert leaky.outcome is Outcome.OK and "300 seats" in leaky.text
        assert hop.outcome is Outcome.BAD_CONTENT and "private address refused" in hop.error
        assert private.hits["/secret"] == 0
        # the same pages, where the user wrote a local URL, may reach this machine
        (local,) = render(site.url("/leaky"))
        assert local.outcome is Outcome.OK and private.hits["/secret"] == 1
    finally:
        private.stop()


def test_no_browser_is_an_outcome_not_a_crash(
    site: WebServer, capfd: pytest.CaptureFixture[str]
) -> None:
    limits = FetchSettings(timeout_s=5.0, retries=0, browser_path="/nonexistent/chromium")
    urls = [site.url("/app"), site.url("/late")]
    out = fetch_batch(
        [FetchRequest(urls[0], render=Render.BROWSER), FetchRequest(urls[1])], limits, now
    )
    assert out[urls[0]][-1].outcome is Outcome.BROWSER_UNAVAILABLE
    assert out[urls[1]][-1].outcome is Outcome.OK  # the HTTP source as usual
    err = capfd.readouterr().err
    assert err.count("no browser could be started") == 1 and "playwright install" in err


@pytest.mark.slow
def test_a_refresh_renders_browser_sources_and_stores_how(
    prefect_harness: None, site: WebServer, tmp_path: Path
) -> None:
    from evidence_cli.card import render_card
    from flows.refresh import refresh_flow
    from warehouse import queries
    from warehouse.db import connect

    config = write_config(
        tmp_path,
        f"""\
        - id: rendered
          title: Credits, rendered
          sources: [{{id: app, url: "{site.url("/app")}", role: primary, render: browser}}]
          claims: [{{id: pool, quote: "$4,000 in GPU credits for the best runs"}}]
        - id: plain
          title: Credits, over HTTP
          sources: [{{id: app, url: "{site.url("/app")}?plain", role: primary}}]
          claims: [{{id: pool, quote: "$4,000 in GPU credits for the best runs"}}]
        """,
    )
    port = site.base.rsplit(":", 1)[1]
    (config / "settings.yaml").write_text(
        f'fetch: {{retries: 0}}\nalerts: {{notify: ["json://127.0.0.1:{port}/hook"]}}\n'
    )
    db = tmp_path / "w.duckdb"
    rows = {r.record_id: r for r in refresh_flow(str(config), str(db), None).records}
    assert rows["rendered"].grade == "documented"
    assert rows["plain"].grade == "unverified"
    refresh_flow(str(config), str(db), None)  # the shell is flagged once, not every run
    reviews = [b for _, b in site.posts if b"review: plain app needs render: browser" in b]
    assert len(reviews) == 1
    con = connect(db, read_only=True)
    try:
        flagged = con.execute(
            "SELECT record_id, needs_review FROM source_health WHERE needs_browser"
        ).fetchall()
        card = render_card(queries.card(con, "plain"))
        renders = dict(
            con.execute("SELECT record_id, render FROM fetches ORDER BY record_id").fetchall()
        )
        snapshots = dict(con.execute("SELECT record_id, render FROM snapshots").fetchall())
        outcomes = dict(con.execute("SELECT record_id, outcome FROM claim_checks").fetchall())
    finally:
        con.close()
    assert renders == {"plain": "http", "rendered": "browser"}
    assert snapshots == {"plain": "http", "rendered": "browser"}
    assert outcomes == {"plain": "absent", "rendered": "confirmed"}
    assert [r for r, _ in flagged] == ["plain"] and "render: browser" in flagged[0][1]
    assert "app: needs `render: browser`" in card and "add `render: browser`" in card


# The held-out shapes of issue 16, and pages that never get their text.
NAV = "<nav><a href='/'>Home</a> <a href='/docs'>Docs</a></nav>"
TIMER_700 = f"""<html><head><title>Timer</title></head><body>{NAV}<div id="root"></div>
<script>
window.addEventListener('load', () => setTimeout(() => {{
  document.getElementById('root').innerHTML =
    '<main><p>Each team gets 500 GPU hours per month on shared nodes.</p></main>';
}}, 700));
</script></body></html>"""
SLOW_API = """<html><head><title>Slow</title></head><body><div id="root">Loading…</div>
<script>
setTimeout(async () => {
  const r = await fetch('/api/slow');
  const j = await r.json();
  document.getElementById('root').innerHTML = '<main><p>' + j.text + '</p></main>';
}, 700);
</script></body></html>"""
FOREVER = f"""<html><head><title>Forever</title></head><body>{NAV}
<div id="root">Loading…</div></body></html>"""
SPINNER = """<html><head><title>Spinner</title></head><body><div id="root">Loading</div>
<script>
let n = 0;
setInterval(() => {
  document.getElementById('root').textContent = 'Loading' + '.'.repeat(++n % 4);
}, 150);
</script></body></html>"""
TICKER = """<html><head><title>Ticker</title></head><body><main>
<p>Applications are open until 15 December 2026 for every team.</p>
<p id="clock">0</p></main>
<script>let n = 0; setInterval(() => { document.getElementById('clock').textContent = ++n; },
150);</script></body></html>"""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("/timer", "500 GPU hours per month"),  # written 700 ms after load, no placeholder
        ("/slow", "$4,000 in GPU credits"),  # a fetch that starts late and answers slowly
        ("/app", "$4,000 in GPU credits"),  # after a fetch
        ("/ticker", "open until 15 December 2026"),  # text there, a clock that never stops
    ],
)
def test_a_page_is_read_once_its_text_is_there(site: WebServer, path: str, text: str) -> None:
    site.routes["/timer"] = Page(TIMER_700)
    site.routes["/slow"] = Page(SLOW_API)
    site.routes["/api/slow"] = Page(
        '{"text": "Each team gets $4,000 in GPU credits for the best runs."}',
        content_type="application/json",
        delay_s=0.8,
    )
    site.routes["/ticker"] = Page(TICKER)
    (a,) = render(site.url(path))
    assert a.outcome is Outcome.OK, (a.outcome, a.error)
    assert text in a.text and "Loading" not in a.text


@pytest.mark.slow
@pytest.mark.parametrize("path", ["/forever", "/spinner"])
def test_a_page_left_on_its_placeholder_is_a_soft_failure(site: WebServer, path: str) -> None:
    site.routes["/forever"] = Page(FOREVER)
    site.routes["/spinner"] = Page(SPINNER)
    site.routes["/first"] = Page("<html><main><p>A page with 12 seats.</p></main></html>")
    limits = FetchSettings(timeout_s=10.0, retries=0, user_agent="t", browser_concurrency=1)
    # a page first, one at a time: the browser's start is not in the placeholder's time
    first, url = site.url("/first"), site.url(path)
    out = fetch_batch([FetchRequest(u, render=Render.BROWSER) for u in (first, url)], limits, now)
    assert out[first][-1].outcome is Outcome.OK
    (a,) = out[url]
    assert a.outcome is Outcome.SOFT_404, (a.outcome, a.error)
    assert "placeholder" in (a.error or "") and a.body is None  # nothing to snapshot
