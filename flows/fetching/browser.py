"""The browser fetcher: pages built by JavaScript, rendered in headless Chromium.

Playwright drives one browser per refresh, started only when a source needs it. Each
page loads in a fresh context, `browser_concurrency` at a time; images, fonts and media
are never loaded. Every request a page makes is fetched through Playwright one hop at a
time (redirects followed here, not by the browser), so that the address guard sees each
one: a page on a public host cannot make the browser reach this machine or a private
network; redirects follow the one policy both fetchers use (flows/fetching/redirects.py).
The rendered document is the body, and goes through the same soft-failure check as an
HTTP body; robots.txt and per-host limits hold for the page's URL (the Fetcher's own,
around each load).
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from extractors.soft import classify_response
from extractors.values import Outcome
from flows.fetching.attempts import Answer, FetchFailed, FetchRequest
from flows.fetching.guard import AddressGuard
from flows.fetching.redirects import WEB_SCHEMES, Redirects
from flows.runtime import progress

if TYPE_CHECKING:
    from playwright.async_api import Browser, Route

    from flows.catalog import FetchSettings

NOT_LOADED = frozenset({"image", "font", "media"})
SYSTEM_BROWSERS = ("chromium", "chromium-browser", "google-chrome")
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
    limits: FetchSettings, guard: AddressGuard | None = None
) -> AsyncIterator[BrowserRenderer | None]:
    """A started browser for the block, or None (said once on stderr) when none starts."""
    try:
        from playwright.async_api import Error, async_playwright
    except ImportError:
        progress(INSTALL_HINT.format(why="Playwright is not installed"))
        yield None
        return
    try:
        executable = find_browser(limits.browser_path)
    except LookupError as e:
        progress(INSTALL_HINT.format(why=e))
        yield None
        return
    async with async_playwright() as playwright:
        try:
            browser = await playwright.chromium.launch(
                executable_path=executable,
                headless=True,
                args=["--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
            )
        except Error as e:
            progress(INSTALL_HINT.format(why=str(e).strip().splitlines()[0]))
            yield None
            return
        try:
            yield BrowserRenderer(browser, limits, guard or AddressGuard())
        finally:
            await browser.close()


class BrowserRenderer:
    """Loads requests in the one browser, a fresh context each."""

    def __init__(self, browser: Browser, limits: FetchSettings, guard: AddressGuard) -> None:
        self.browser = browser
        self.limits = limits
        self.guard = guard
        self._slots = asyncio.Semaphore(limits.browser_concurrency)

    async def load(self, request: FetchRequest) -> Answer:
        from playwright.async_api import Error
        from playwright.async_api import TimeoutError as PageTimeout

        async with self._slots:
            context = await self.browser.new_context(
                user_agent=self.limits.user_agent, service_workers="block"
            )
            document = _Document()
            try:

                async def route(route: Route) -> None:
                    try:
                        await self._route(route, request.url, document)
                    except Error:
                        pass  # the context closed under a request still in flight

                await context.route("**/*", route)
                page = await context.new_page()
                timeout_ms = self.limits.timeout_s * 1000
                try:
                    if request.wait_for:
                        await page.goto(
                            request.url, wait_until="domcontentloaded", timeout=timeout_ms
                        )
                        await page.wait_for_selector(
                            request.wait_for, state="attached", timeout=timeout_ms
                        )
                    else:
                        await page.goto(request.url, wait_until="networkidle", timeout=timeout_ms)
                    html = await page.content()
                except PageTimeout:
                    what = (
                        f"no {request.wait_for!r} on the page" if request.wait_for else "not loaded"
                    )
                    raise FetchFailed(
                        Outcome.TIMEOUT, f"{what} within {self.limits.timeout_s:g}s (browser)"
                    ) from None
                except Error as e:
                    if document.failure is not None:
                        raise document.failure from None
                    raise FetchFailed(_classify(str(e)), _describe(e)) from None
            finally:
                await context.close()
        if document.failure is not None:
            raise document.failure
        return self._result(request, document, html)

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
        from playwright.async_api import Error

        request = route.request
        main = request.is_navigation_request() and request.frame.parent_frame is None
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
        redirects = Redirects(url, self.guard, origin)
        while True:
            try:
                response = await route.fetch(url=url, max_redirects=0)
            except Error as e:
                if main:
                    document.failure = FetchFailed(_classify(str(e)), _describe(e))
                await route.abort("failed")
                return
            location = response.headers.get("location")
            if 300 <= response.status < 400 and location:
                try:
                    url = await redirects.follow(url, location)
                except FetchFailed as e:
                    if main:
                        document.failure = e
                    await route.abort("failed")
                    return
                continue
            body = await response.body()
            if len(body) > self.limits.max_bytes:
                if main:
                    document.failure = FetchFailed(
                        Outcome.TOO_LARGE, f"body larger than {self.limits.max_bytes} bytes"
                    )
                await route.abort("failed")
                return
            if main:
                document.status, document.final_url = response.status, url
            await route.fulfill(response=response, body=body)
            return


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
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0][:500]
