"""`render: browser` sources keep to max_bytes too: every answer a page gets is read in
pieces and refused once what it decodes to passes the limit, before the browser holds it;
an endless body ends at the limit."""

from __future__ import annotations

import gzip
import re
import threading
import time
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler

import pytest
from servers import Page, WebServer
from support import require_browser

from evidence_base.words import Render
from extractors.values import Outcome
from flows.catalog import FetchSettings
from flows.fetching import FetchRequest, fetch_batch
from security.peaks import run_probe

require_browser()

LIMITS = FetchSettings(
    timeout_s=10, retries=0, user_agent="t", max_bytes=1_000_000, browser_concurrency=1
)


def now() -> datetime:
    return datetime.now(UTC)


def render(url: str) -> list:
    request = FetchRequest(url, render=Render.BROWSER, obey_robots=False)
    return fetch_batch([request], LIMITS, now)[url]


class Endless:
    """An HTML body with no length that never ends; counts what it sent before the
    reader hung up."""

    def __init__(self) -> None:
        self.sent = 0
        self.done = threading.Event()

    def __call__(self, h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "text/html")
        h.send_header("Connection", "close")
        h.end_headers()
        h.close_connection = True
        piece = b"<p>" + b"endless " * 8000 + b"</p>\n"
        try:
            while self.sent < 2_000_000_000:
                h.wfile.write(piece)
                self.sent += len(piece)
        except OSError:
            pass
        finally:
            self.done.set()


@pytest.mark.slow
def test_an_endless_body_ends_at_the_limit(web: WebServer) -> None:
    endless = Endless()
    web.routes["/endless"] = endless
    t0 = time.monotonic()
    (got,) = render(web.url("/endless"))
    assert got.outcome is Outcome.TOO_LARGE, (got.outcome, got.error)
    assert time.monotonic() - t0 < LIMITS.timeout_s + 30  # and a browser's start
    assert endless.done.wait(10)
    assert endless.sent < 30_000_000


@pytest.mark.slow
def test_a_script_bomb_is_refused_and_the_page_still_renders(web: WebServer) -> None:
    web.routes["/page"] = Page(
        "<html><body><main><p id='t'>Loading</p></main><script>"
        "fetch('/data.json').then(r => r.text())"
        ".then(t => { document.getElementById('t').textContent = 'got ' + t.length; })"
        ".catch(() => { document.getElementById('t').textContent = 'refused, 9 seats'; });"
        "</script></body></html>"
    )
    web.routes["/data.json"] = Page(
        gzip.compress(b"0" * 64_000_000, 1),
        content_type="application/json",
        headers={"Content-Encoding": "gzip"},
        etag=False,
    )
    (got,) = render(web.url("/page"))
    assert got.outcome is Outcome.OK and "refused, 9 seats" in (got.text or ""), got.text


@pytest.mark.slow
def test_a_gzip_page_reaches_the_browser_decoded(web: WebServer) -> None:
    web.routes["/gz"] = Page(
        gzip.compress(b"<html><body><main><p>First page, 4 seats.</p></main></body></html>"),
        headers={"Content-Encoding": "gzip"},
    )
    (got,) = render(web.url("/gz"))
    assert got.outcome is Outcome.OK and "4 seats" in (got.text or "")


PROBE = """
import sys
from datetime import UTC, datetime
from evidence_base.words import Render
from flows.catalog import FetchSettings
from flows.fetching import FetchRequest, fetch_batch
limits = FetchSettings(timeout_s=30, retries=0, user_agent="t", browser_concurrency=1)
peaks = []
for url in sys.argv[1:]:
    request = FetchRequest(url, render=Render.BROWSER, obey_robots=False)
    (got,) = fetch_batch([request], limits, lambda: datetime.now(UTC))[url]
    peaks.append(tree_mb())
print(got.outcome.value, own_mb(), *peaks)
"""
GROWTH_BOUND_MB = 150  # over a small page's render: 5 MB of body, and the noise of a launch


@pytest.mark.slow
def test_a_gzip_bomb_page_is_too_large_with_bounded_memory(web: WebServer) -> None:
    """256 MiB behind gzip, rendered with the default limits in a fresh process after a
    small page: the process tree's peak (this process, Playwright's driver, Chromium's)
    grows by little more than the limit."""
    web.routes["/small"] = Page(
        "<html><body><main><p>A small page, 3 seats.</p></main></body></html>"
    )
    web.routes["/bomb"] = Page(
        gzip.compress(b"<p>" + b"0" * (256 << 20), 9),
        headers={"Content-Encoding": "gzip"},
        etag=False,
    )
    outcome, own, small, bomb = run_probe(PROBE, web.url("/small"), web.url("/bomb"))
    print(f"\nbrowser gzip bomb: {outcome}, peak {own} MB here; tree {small} MB, then {bomb} MB")
    assert outcome == "too_large"
    assert int(bomb) - int(small) < GROWTH_BOUND_MB


HOG = """<html><body><p>Loading</p><script>
const kept = [];
function grow() {
  for (let i = 0; i < 20; i++) { kept.push(new Float64Array(1 << 20).fill(Math.random())); }
  setTimeout(grow, 0);
}
grow();
</script></body></html>"""


@pytest.mark.slow
def test_a_page_whose_scripts_take_memory_without_end_is_too_large(web: WebServer) -> None:
    """Its renderer is killed past the limit (a few hundred MB a second, without end:
    once the tree passed 4 GB in 12.5 s); the attempt is the page's `too_large`, and the
    next page renders as usual."""
    web.routes["/hog"] = Page(HOG)
    web.routes["/fine"] = Page("<main><p>The lab offers 40 seats this year.</p></main>")
    hog, fine = web.url("/hog"), web.url("/fine")
    requests = [FetchRequest(u, render=Render.BROWSER, obey_robots=False) for u in (hog, fine)]
    started = time.monotonic()
    # time enough that only memory can stop it on a loaded machine
    got = fetch_batch(requests, LIMITS.model_copy(update={"timeout_s": 40}), now)
    assert got[hog][-1].outcome is Outcome.TOO_LARGE, got[hog][-1]
    assert "memory" in (got[hog][-1].error or "")
    assert got[fine][-1].outcome is Outcome.OK
    assert time.monotonic() - started < 90


# Opens windows and writes into them (their scripts would run on, outside any page of
# ours), then says in its own text how many of them are closed.
OPENER = """<html><body><main><p>The lab offers 40 seats this year.</p><p id="t"></p></main>
<script>
const opened = [];
for (let i = 0; i < 4; i++) {
  const w = window.open('about:blank', '_blank');
  if (w) { w.document.write('<script>const k = []; setInterval(() => k.push(new ' +
    'Float64Array(1 << 20).fill(1)), 50);<' + '/script>'); opened.push(w); }
}
setTimeout(() => {
  document.getElementById('t').textContent =
    'opened ' + opened.length + ', closed ' + opened.filter(w => w.closed).length;
}, 600);
</script></body></html>"""


@pytest.mark.slow
def test_windows_a_page_opens_are_closed_as_they_open(web: WebServer) -> None:
    """A pop-up gets a renderer of its own, outside the page being read: it is closed as
    it opens, and the page itself renders."""
    web.routes["/opener"] = Page(OPENER)
    got = render(web.url("/opener"))
    assert got[-1].outcome is Outcome.OK, got[-1]
    assert b"opened 4, closed 4" in (got[-1].body or b""), got[-1].body


TICKER = """<html><head><title>0</title></head><body><main><p>The lab offers 40 seats this
year.</p></main><script>
window.ticks = 0;
setInterval(() => { document.title = String(++window.ticks); }, 50);
</script></body></html>"""


@pytest.mark.slow
def test_a_tab_stops_its_page_s_scripts_once_the_page_is_read(web: WebServer) -> None:
    """A tab kept for the host's next page is frozen once its page is read: the page's
    timers stop until the tab is woken for the next one (an idle tab once kept growing
    past its renderer's limit, unwatched)."""
    import asyncio

    from flows.fetching.browser import _freeze, open_renderer

    web.routes["/ticker"] = Page(TICKER)
    url = web.url("/ticker")

    async def read() -> tuple[int, int]:
        async with open_renderer(LIMITS) as renderer:
            assert renderer is not None
            answer = await renderer.load(FetchRequest(url, render=Render.BROWSER))
            assert answer.outcome is Outcome.OK, answer
            read_at = int(re.search(rb"<title>(\d+)</title>", answer.body or b"")[1])
            engine = renderer.engine(url)
            (page,) = [p for held in engine._contexts.values() for p in held.idle]
            await asyncio.sleep(1.0)
            assert await _freeze(page, False)
            return read_at, await page.evaluate("window.ticks")

    read_at, woken = asyncio.run(read())
    assert woken - read_at < 5  # a second frozen: not the twenty ticks of a live page
