"""The browser fetcher: pages built by JavaScript, rendered in headless Chromium.

Playwright drives one browser per engine (flows/fetching/engines.py: launched here only
when a source needs it, or reached at a `fetch.browser_endpoint`), `browser_concurrency`
pages at a time on each. A host's pages share one context, so that cookies and storage
never pass between hosts while a host's pages reuse what they can; images, fonts and
media are never loaded. Every request a page makes is fetched here, over HTTP, one hop at a
time (redirects followed here, not by the browser), so that the address guard sees each
one: a page on a public host cannot make the browser reach this machine or a private
network; redirects follow the one policy both fetchers use (flows/fetching/redirects.py).
Each answer is read in pieces and refused past `max_bytes` of decoded content
(flows/fetching/bodies.py) before the page gets it, with the context's cookies sent and
kept as the browser would. WebRTC, which never passes through here, is taken away.
The rendered document is the body, and goes through the same soft-failure check as an
HTTP body; robots.txt and per-host limits hold for the page's URL (the Fetcher's own,
around each load).

A page counts as loaded (docs/design.md, "Pages built by JavaScript") when its network has
been quiet for a moment and then its document has not changed for about half a second:
text a timer or a late script writes after the network went quiet is waited for. A page
still showing a placeholder ("Loading…", a spinner) waits for a change until its time
runs out, and is then a soft failure, not a snapshot.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.cookiejar
import os
import shutil
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx

from evidence_base import environment
from evidence_base.errors import first_line
from evidence_base.pause import pause_point
from evidence_base.words import Render
from extractors.soft import classify_response, is_placeholder
from extractors.values import Outcome
from flows.fetching.attempts import Answer, FetchFailed, FetchRequest
from flows.fetching.bodies import ACCEPT_ENCODING, read_body
from flows.fetching.engines import (
    Background,
    Endpoint,
    Engine,
    close_quietly,
    endpoint_for,
    endpoints,
)
from flows.fetching.guard import AddressGuard
from flows.fetching.http import NOT_HTTP_ERRORS, failed, send, tls_context
from flows.fetching.redirects import WEB_SCHEMES, Redirects
from flows.fetching.renderers import RENDERER_MAX_MB, MemoryWatch
from flows.runtime import progress

if TYPE_CHECKING:
    from playwright.async_api import (
        Browser,
        BrowserContext,
        CDPSession,
        Page,
        Request,
        Route,
        WebSocketRoute,
    )

    from flows.catalog import FetchSettings

PAUSE = bool(environment.get("EVIDENCE_PAUSE_DIR"))
NOT_LOADED = frozenset({"image", "font", "media"})
# Headers of a request the browser made that are not passed on (the connection's own, and
# what this fetch decides itself), and of an answer that no longer hold once it is decoded.
NOT_SENT = frozenset(
    {"host", "connection", "keep-alive", "content-length", "accept-encoding", "cookie"}
)
NOT_KEPT = frozenset(
    {"content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"}
)
# Run in every document before the page's own scripts: no peer connection can be made,
# so no STUN, TURN or ICE reaches an address the guard never saw.
NO_WEBRTC = """(() => {
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    if (/^(webkit)?RTC/.test(name)) {
      try { delete globalThis[name]; } catch (e) {}
    }
  }
})();"""
SYSTEM_BROWSERS = ("chromium", "chromium-browser", "google-chrome")
QUIET_S = 0.5  # how long the network, then the document, stay still for a page to be loaded
POLL_S = 0.05  # how often the network's quiet is looked at while requests are in flight
# Time kept back from fetch.timeout_s (at most a fifth of it) to read a page that never
# stopped changing, or say why it was not loaded, before the Fetcher's own limit cuts the
# attempt short.
RESERVE_S = 2.0
# Resolves once the document has gone `quiet` ms without a change to its nodes or text
# (attributes aside: a spinner turning changes only those).
DOM_QUIET = """quiet => new Promise(resolve => {
  let timer = setTimeout(done, quiet);
  const seen = new MutationObserver(() => {
    clearTimeout(timer);
    timer = setTimeout(done, quiet);
  });
  function done() { seen.disconnect(); resolve(true); }
  seen.observe(document, {childList: true, subtree: true, characterData: true});
})"""
# Resolves at the document's next change.
DOM_CHANGE = """() => new Promise(resolve => {
  const seen = new MutationObserver(() => { seen.disconnect(); resolve(true); });
  seen.observe(document, {childList: true, subtree: true, characterData: true});
})"""
VISIBLE_TEXT = "() => document.body ? document.body.innerText : ''"
INSTALL_HINT = (
    "no browser could be started for `render: browser` sources ({why}); from the project's "
    "root `make browser` installs one (or `playwright install chromium`, or a system "
    "chromium: `apt-get install chromium`), or set fetch.browser_path"
)


@dataclass
class _Document:
    """What the page's main document request came to."""

    status: int | None = None
    final_url: str | None = None
    failure: FetchFailed | None = None
    crashed: bool = False  # the page's renderer process went away
    in_flight: int = 0  # the page's requests being fetched now
    last_request_at: float = 0.0  # when the last of them ended (the event loop's clock)


def _too_much_memory() -> FetchFailed:
    return FetchFailed(
        Outcome.TOO_LARGE,
        f"the page's scripts took more than {RENDERER_MAX_MB} MB of memory (browser)",
    )


def find_browser(configured: str | None) -> str | None:
    """The Chromium to start: fetch.browser_path; else None for Playwright's own, when it
    is installed; else a chromium on PATH. LookupError, with the reason, when there is
    none (nothing is started then, so nothing is left behind)."""
    if configured:
        if not (os.path.isfile(configured) and os.access(configured, os.X_OK)):
            raise LookupError(f"fetch.browser_path {configured!r} is not an executable")
        return configured
    own = os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or os.path.expanduser("~/.cache/ms-playwright")
    if os.path.isdir(own) and any(n.startswith("chromium") for n in os.listdir(own)):
        return None
    for name in SYSTEM_BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    raise LookupError("no Playwright Chromium and no chromium on PATH")


@asynccontextmanager
async def open_renderer(
    limits: FetchSettings,
    guard: AddressGuard | None = None,
    unavailable: Mapping[str, str] | None = None,
) -> AsyncIterator[BrowserRenderer | None]:
    """The block's browser engines, each opened before its first page, or None (said once
    on stderr) when Playwright or a local browser is missing. `unavailable`: endpoints
    already found not to answer, with why (their pages are `browser_unavailable`)."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        progress(INSTALL_HINT.format(why="Playwright is not installed"))
        yield None
        return
    where = endpoints(limits)
    executable = None
    if not where[0].remote:
        try:
            executable = find_browser(limits.browser_path)
        except LookupError as e:
            progress(INSTALL_HINT.format(why=e))
            yield None
            return
    client = httpx.AsyncClient(
        timeout=httpx.Timeout(limits.timeout_s),
        limits=httpx.Limits(max_connections=max(4, 4 * limits.browser_concurrency)),
        trust_env=False,
        verify=tls_context(),
        # The client is every context's: it keeps no cookie of its own, so a cookie one
        # host set is sent only from that host's context (see _fetch), never to another.
        cookies=http.cookiejar.CookieJar(_KeepsNone()),
    )
    async with client, async_playwright() as playwright:
        engines = {e: Engine(playwright, e, limits, executable) for e in where}
        for engine in engines.values():
            engine.unavailable = (unavailable or {}).get(engine.endpoint.url or "")
        try:
            if not where[0].remote:  # a local launch that fails is said as before
                local = engines[where[0]]
                await local.open()
                if local.unavailable is not None:
                    progress(INSTALL_HINT.format(why=local.unavailable))
                    yield None
                    return
            renderer = BrowserRenderer(engines, limits, guard or AddressGuard(), client)
            try:
                yield renderer
                await renderer.later.drain()
            finally:
                await renderer.memory.close()
        finally:
            for engine in engines.values():
                await engine.close()


async def probe_endpoints(limits: FetchSettings, urls: Sequence[str]) -> dict[str, str]:
    """Each browser endpoint the pages at `urls` go to that does not answer, with why
    (reached and let go: the refresh opens its own connection)."""
    where = endpoints(limits)
    if not urls or not where[0].remote:
        return {}
    from playwright.async_api import async_playwright

    needed = {endpoint_for(u, where) for u in urls}
    down: dict[str, str] = {}
    async with async_playwright() as playwright:
        for endpoint in sorted(needed, key=str):
            engine = Engine(playwright, endpoint, limits)
            await engine.open()
            await engine.close()
            if engine.unavailable is not None and endpoint.url is not None:
                down[endpoint.url] = engine.unavailable
    return down


def check_engines(limits: FetchSettings, requests: Sequence[FetchRequest]) -> dict[str, str]:
    """Before anything is fetched: each browser endpoint the refresh's pages need that
    does not answer, said in one line with how many pages it costs; the endpoints and why
    (their pages are `browser_unavailable`, the other sources are refreshed as usual)."""
    urls = [r.url for r in requests if r.render is Render.BROWSER]
    if not urls or not limits.browser_endpoint:
        return {}
    where = endpoints(limits)
    try:
        down = asyncio.run(probe_endpoints(limits, urls))
    except ImportError:
        return {}  # the render task says how to install Playwright
    except Exception as e:  # Playwright's own driver did not start: no endpoint is reached
        why = f"could not be reached: Playwright failed ({_describe(e)})"
        needed = {endpoint_for(u, where).url for u in urls}
        down = {url: f"{url} {why}" for url in sorted(u for u in needed if u)}
    for url, why in down.items():
        pages = sum(1 for u in urls if endpoint_for(u, where).url == url)
        progress(f"browser endpoint {why}: its {pages} page(s) get browser_unavailable")
    return down


class BrowserRenderer:
    """Loads requests on the engine of their host, in that host's context."""

    def __init__(
        self,
        engines: Mapping[Endpoint, Engine],
        limits: FetchSettings,
        guard: AddressGuard,
        client: httpx.AsyncClient,
    ) -> None:
        self.client = client  # what every request of every page is fetched with
        self.engines = dict(engines)
        self.limits = limits
        self.guard = guard
        self._where = list(self.engines)
        self._loading: dict[Page, tuple[str, _Document]] = {}  # each page's current load
        self._tabs: weakref.WeakSet[Page] = weakref.WeakSet()  # the pages opened here
        self.later = Background()  # tabs let go, off the pages' path
        self.memory = MemoryWatch()  # the renderers of a browser launched here

    async def _let_go(self, page: Page) -> None:
        """Close a tab that is not rendering a page: one of ours that still asks for
        something while it waits, or one the page opened itself (a pop-up)."""
        kept = any(engine.forget(page) for engine in self.engines.values())
        if kept or page not in self._tabs:
            await close_quietly(page)

    def _guarded(self, origin: str) -> Callable[[BrowserContext], Awaitable[None]]:
        """Sets up a host's new context: every request of every page in it (pop-ups too)
        goes through the guard for the load it belongs to; a public page's WebSockets open
        to its own host only."""

        async def route(route: Route) -> None:
            from playwright.async_api import Error

            try:
                page = route.request.frame.page
            except Error:
                page = None  # (a worker's request: no page to answer for it)
            loading = self._loading.get(page) if page is not None else None
            try:
                if loading is None:
                    await route.abort("blockedbyclient")
                    if page is not None:
                        await self._let_go(page)
                else:
                    await self._route(route, *loading)
            except Error:
                pass  # the page closed under a request still in flight

        host = urlsplit(origin).netloc.lower()

        def elsewhere(url: str) -> bool:
            """A WebSocket that may not open: to another host, from a public page."""
            return urlsplit(url).netloc.lower() != host and not self.guard.local_origin(origin)

        async def refuse(ws: WebSocketRoute) -> None:
            await ws.close(code=1008, reason="refused by the address guard")

        async def setup(context: BrowserContext) -> None:
            await context.add_init_script(NO_WEBRTC)
            await context.route("**/*", route)
            await context.route_web_socket(elsewhere, refuse)

        return setup

    async def _new_page(self, context: BrowserContext) -> Page:
        """A tab of ours: a crash while it waits between pages closes it."""
        page = await context.new_page()
        self._tabs.add(page)

        def crashed(_: Page) -> None:
            loading = self._loading.get(page)
            if loading is not None:
                loading[1].crashed = True
            else:
                self.later.spawn(self._let_go(page))

        page.on("crash", crashed)
        # a window the page opens is no page of ours: its scripts would run unwatched
        page.on("popup", lambda popup: self.later.spawn(close_quietly(popup)))
        return page

    def engine(self, url: str) -> Engine:
        return self.engines[endpoint_for(url, self._where)]

    def admit(self, request: FetchRequest) -> AbstractAsyncContextManager[object]:
        """A rendering slot on the page's engine (the attempt's time runs once it has one)."""
        return self.engine(request.url).slots

    async def load(self, request: FetchRequest) -> Answer:
        # The attempt's time (the Fetcher's limit) runs from here, a browser's start included.
        reserve = min(RESERVE_S, self.limits.timeout_s / 5)
        deadline = asyncio.get_running_loop().time() + self.limits.timeout_s - reserve
        engine = self.engine(request.url)
        browser = await engine.browser()
        document = _Document()
        started = time.monotonic()
        if not engine.endpoint.remote:
            self.memory.start()  # this machine's renderers, watched until the fetcher closes
        html = await self._render(request, engine, browser, document, deadline, reserve)
        if document.crashed and self.memory.killed_since(started):
            raise _too_much_memory()
        if document.failure is not None:
            raise document.failure
        return self._result(request, document, html)

    async def _render(
        self,
        request: FetchRequest,
        engine: Engine,
        browser: Browser,
        document: _Document,
        deadline: float,
        reserve: float,
    ) -> str:
        from playwright.async_api import Error
        from playwright.async_api import TimeoutError as PageTimeout

        started = time.monotonic()
        host = urlsplit(request.url).netloc.lower()
        page: Page | None = None
        held = None
        healthy = False
        try:
            try:
                held = await engine.context(
                    browser, host, self.limits.user_agent, self._guarded(request.url)
                )
                page = engine.idle_page(held, request.url)
                if page is not None:
                    await _freeze(page, False)
                else:
                    page = await self._new_page(held.context)
            except Error as e:
                raise await self._broken(engine, browser, document, e) from None
            self._loading[page] = (request.url, document)
            timeout_ms = self.limits.timeout_s * 1000
            try:
                if request.wait_for:
                    await page.goto(request.url, wait_until="domcontentloaded", timeout=timeout_ms)
                    await page.wait_for_selector(
                        request.wait_for, state="attached", timeout=timeout_ms
                    )
                else:
                    await page.goto(request.url, wait_until="load", timeout=timeout_ms)
                    await _settle(page, document, deadline, reserve, self.limits.timeout_s)
                html = await page.content()
            except PageTimeout:
                what = f"no {request.wait_for!r} on the page" if request.wait_for else "not loaded"
                raise FetchFailed(
                    Outcome.TIMEOUT, f"{what} within {self.limits.timeout_s:g}s (browser)"
                ) from None
            except Error as e:
                if self.memory.killed_since(started):
                    raise _too_much_memory() from None
                raise await self._broken(engine, browser, document, e) from None
            healthy = not document.crashed
            if healthy:  # its document read: its scripts stop while it waits as a spare tab
                healthy = await _freeze(page, True)
        finally:
            if page is not None:
                self._loading.pop(page, None)
                if not healthy:
                    await close_quietly(page)
            if held is not None:
                engine.release(held, page if healthy else None)
        return html

    async def _broken(
        self, engine: Engine, browser: Browser, document: _Document, error: Exception
    ) -> FetchFailed:
        """What a Playwright error during a render comes to: the page's own failure when
        the guard or the network gave one; else the browser's, when it crashed or its
        connection was lost (the pages after this one get it opened again)."""
        if document.failure is not None:
            return document.failure
        if await engine.lost(browser, error):
            where = "the connection to " if engine.endpoint.remote else ""
            return FetchFailed(
                Outcome.BROWSER_UNAVAILABLE,
                f"{where}{engine.endpoint} was lost while the page rendered ({_describe(error)})",
            )
        if document.crashed or "crash" in str(error).lower():
            return FetchFailed(
                Outcome.BROWSER_UNAVAILABLE, "the page's renderer crashed while it rendered"
            )
        return FetchFailed(_classify(str(error)), _describe(error))

    def _result(self, request: FetchRequest, document: _Document, html: str) -> Answer:
        status = document.status or 200
        final_url = document.final_url or request.url
        body = html.encode("utf-8")
        if status >= 400:
            soft = classify_response(request.url, final_url, status, html)
            if soft is not None and soft.outcome is Outcome.BLOCKED:
                raise FetchFailed(Outcome.BLOCKED, soft.reason, status)
            raise FetchFailed(Outcome.HTTP_ERROR, f"HTTP {status} (browser)", status)
        if len(body) > self.limits.max_bytes:
            raise FetchFailed(
                Outcome.TOO_LARGE, f"rendered page larger than {self.limits.max_bytes} bytes"
            )
        soft = classify_response(
            request.url, final_url, status, html, request.expect_redirect, body
        )
        if soft is not None:
            raise FetchFailed(soft.outcome, soft.reason, status)
        return Answer.page(body, status, final_url, "text/html", "utf-8")

    async def _route(self, route: Route, origin: str, document: _Document) -> None:
        """Every request of the page: not loaded, refused by the guard, or fetched here,
        redirects one hop at a time."""
        request = route.request
        main = request.is_navigation_request() and request.frame.parent_frame is None
        if not main and PAUSE:
            await asyncio.to_thread(pause_point, "render")  # (the crash tests: a page rendering)
        if request.resource_type in NOT_LOADED:
            await route.abort("blockedbyclient")
            return
        url = request.url
        if urlsplit(url).scheme not in WEB_SCHEMES:
            await route.continue_()  # data: and blob: URLs never reach the network
            return
        if not await self.guard.allows(origin, url):
            if main:
                document.failure = FetchFailed(
                    Outcome.BAD_CONTENT,
                    f"a request from a public host to a private address refused: {url}",
                )
            await route.abort("blockedbyclient")
            return
        document.in_flight += 1
        try:
            await self._answer(route, url, origin, document, main)
        finally:
            document.in_flight -= 1
            document.last_request_at = asyncio.get_running_loop().time()

    async def _answer(
        self, route: Route, url: str, origin: str, document: _Document, main: bool
    ) -> None:
        """Fetches one of the page's requests here and answers it, or aborts it."""
        try:
            async with asyncio.timeout(self.limits.timeout_s):
                status, headers, body, url = await self._fetch(route.request, url, origin)
        except FetchFailed as e:
            if main:
                document.failure = e
            await route.abort("failed")
            return
        except TimeoutError:
            if main:
                document.failure = FetchFailed(
                    Outcome.TIMEOUT, f"no answer within {self.limits.timeout_s:g}s"
                )
            await route.abort("timedout")
            return
        if main:
            document.status, document.final_url = status, url
        await route.fulfill(status=status, headers=headers, body=body)

    async def _fetch(
        self, request: Request, url: str, origin: str
    ) -> tuple[int, dict[str, str], bytes, str]:
        """The answer to one of a page's requests: status, headers, body and the URL it
        came from, redirects followed one hop at a time; FetchFailed with the outcome (a
        body past `max_bytes` decoded is too_large, read no further)."""
        redirects = Redirects(url, self.guard, origin)
        context = request.frame.page.context
        method, payload = request.method, request.post_data_buffer
        sent = {k: v for k, v in (request.headers or {}).items() if k.lower() not in NOT_SENT}
        sent["Accept-Encoding"] = ACCEPT_ENCODING
        while True:
            cookies = await context.cookies(url)
            headers = dict(sent)
            if cookies:
                headers["Cookie"] = "; ".join(f"{c['name']}={c['value']}" for c in cookies)
            try:
                req = self.client.build_request(method, url, headers=headers, content=payload)
                response = await send(self.client, req)
                try:
                    await _keep_cookies(context, response)
                    location = response.headers.get("location")
                    if 300 <= response.status_code < 400 and location:
                        url = await redirects.follow(url, location)
                        if response.status_code in (301, 302, 303) and method != "HEAD":
                            method, payload = "GET", None
                        continue
                    body = await read_body(response, self.limits.max_bytes, response.status_code)
                finally:
                    await response.aclose()
            except (httpx.HTTPError, *NOT_HTTP_ERRORS) as e:
                raise failed(e) from None
            return response.status_code, _answer_headers(response.headers), body, url


# Each tab's DevTools session, made once: what stops its scripts between its pages.
_SESSIONS: weakref.WeakKeyDictionary[Page, CDPSession] = weakref.WeakKeyDictionary()


async def _freeze(page: Page, frozen: bool) -> bool:
    """Stop the page's scripts (its timers and tasks run no more) while its tab waits as
    a spare, or let scripts run again for the tab's next page; whether it could."""
    from playwright.async_api import Error

    try:
        session = _SESSIONS.get(page)
        if session is None:
            session = _SESSIONS[page] = await page.context.new_cdp_session(page)
        await session.send("Emulation.setScriptExecutionDisabled", {"value": frozen})
    except Error:
        return False
    return True


async def _settle(
    page: Page, document: _Document, deadline: float, reserve: float, limit_s: float
) -> None:
    """Waits until the page is loaded: its network quiet, then its document unchanged, and
    its text no placeholder. FetchFailed by the deadline: soft_404 when the page settled
    on a placeholder (or keeps changing one), timeout when it never stopped loading."""
    loop = asyncio.get_running_loop()
    while (left := deadline - loop.time()) > 0:
        idle = loop.time() - document.last_request_at
        if document.in_flight or idle < QUIET_S:
            await asyncio.sleep(min(left, POLL_S if document.in_flight else QUIET_S - idle))
            continue
        mark = document.last_request_at
        try:
            await asyncio.wait_for(page.evaluate(DOM_QUIET, QUIET_S * 1000), left)
        except TimeoutError:
            break
        if document.in_flight or document.last_request_at != mark:
            continue  # the page asked for more while its document was still
        try:
            text = await asyncio.wait_for(page.evaluate(VISIBLE_TEXT), deadline - loop.time())
        except TimeoutError:
            break
        if not is_placeholder(text):
            return
        with contextlib.suppress(TimeoutError):  # a change: maybe its text, settle again
            await asyncio.wait_for(page.evaluate(DOM_CHANGE), deadline - loop.time())
    # Out of time: a page whose network went quiet is judged by what it shows.
    if document.in_flight or loop.time() - document.last_request_at < QUIET_S:
        raise FetchFailed(Outcome.TIMEOUT, f"not loaded within {limit_s:g}s (browser)")
    try:
        text = await asyncio.wait_for(page.evaluate(VISIBLE_TEXT), reserve / 2)
    except TimeoutError:
        raise FetchFailed(
            Outcome.TIMEOUT, f"its scripts did not stop within {limit_s:g}s (browser)"
        ) from None
    if is_placeholder(text):
        shown = " ".join(text.split())[:60] or "no text"
        raise FetchFailed(
            Outcome.SOFT_404,
            f"still a placeholder after {limit_s:g}s ({shown!r}): its text never arrived",
        )


class _KeepsNone(http.cookiejar.DefaultCookiePolicy):
    """The shared client's cookie policy: no cookie is kept, none is sent. The page's
    context holds its host's cookies; the client is shared by every host's contexts."""

    def set_ok(self, cookie: http.cookiejar.Cookie, request: Any) -> bool:
        return False

    def return_ok(self, cookie: http.cookiejar.Cookie, request: Any) -> bool:
        return False


async def _keep_cookies(context: BrowserContext, response: httpx.Response) -> None:
    """The cookies an answer sets, kept in the page's context as the browser would."""
    if "set-cookie" not in response.headers:
        return
    jar = httpx.Cookies()
    jar.extract_cookies(response)
    found: list[Any] = []  # Playwright's SetCookieParam
    for c in jar.jar:
        cookie: dict[str, Any] = {
            "name": c.name,
            "value": c.value or "",
            "domain": c.domain,
            "path": c.path or "/",
            "secure": bool(c.secure),
            "httpOnly": c.has_nonstandard_attr("HttpOnly"),
        }
        if c.expires is not None:
            cookie["expires"] = float(c.expires)
        found.append(cookie)
    if found:
        with contextlib.suppress(Exception):
            await context.add_cookies(found)


def _answer_headers(headers: httpx.Headers) -> dict[str, str]:
    """An answer's headers as the page gets them (its body decoded): several Set-Cookie
    lines joined by newlines, as Playwright reads them."""
    out: dict[str, str] = {}
    for name, value in headers.multi_items():
        key = name.lower()
        if key in NOT_KEPT or key == "set-cookie":
            continue
        out[key] = f"{out[key]}, {value}" if key in out else value
    return out


def _classify(message: str) -> Outcome:
    text = message.lower()
    if "err_name_not_resolved" in text or "getaddrinfo" in text or "enotfound" in text:
        return Outcome.DNS_ERROR
    if "err_cert" in text or "ssl" in text or "certificate" in text:
        return Outcome.TLS_ERROR
    if "timeout" in text or "timed out" in text:
        return Outcome.TIMEOUT
    return Outcome.CONNECT_ERROR


def _describe(error: BaseException) -> str:
    return first_line(error)[:500]
