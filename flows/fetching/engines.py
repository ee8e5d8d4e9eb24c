"""Where pages are rendered: a Chromium launched here, or browser engines elsewhere.

An `Engine` is one browser for the refresh: launched on this machine (`fetch.browser_path`
or one found), or reached at a `fetch.browser_endpoint`: a Playwright server (`ws://`,
`wss://`: Playwright's `connect`) or a Chrome DevTools endpoint (`cdp+http://`,
`cdp+ws://`: `connect_over_cdp`). A browser that crashes, or a connection that is lost,
is opened again once for the pages still to come; after that, or when it never opened,
each of its pages is `browser_unavailable` with the reason. Every step that waits on the
browser has a deadline, so that a dead or wedged engine never holds a refresh.
"""

from __future__ import annotations

import asyncio
import contextlib
import zlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urldefrag, urlsplit

from extractors.values import Outcome
from flows.fetching.attempts import FetchFailed
from flows.fetching.renderers import HEAP_ARGS

if TYPE_CHECKING:
    from playwright.async_api import Browser, BrowserContext, Page, Playwright

    from flows.catalog import FetchSettings

CONNECT_TIMEOUT_S = 15.0  # to reach an endpoint
# to launch a browser here: Playwright's own default, for a machine busy with other work
LAUNCH_TIMEOUT_S = 30.0
DISCONNECT_WAIT_S = 1.0  # for Playwright to learn that a browser is gone
CLOSE_TIMEOUT_S = 5.0  # to close a context or a browser; past it, it is let go
REOPENS = 1  # a lost browser is opened again this many times in one refresh
# What Playwright says when the browser under a page is gone (before `is_connected` knows).
GONE = (
    "Target page, context or browser has been closed",
    "Browser has been closed",
    "Connection closed",
    "browser has disconnected",
)
# WebRTC opens UDP and TCP to any address a page names, past the route handler that
# guards its requests: a browser launched here keeps it to proxied UDP, of which there is
# none (the init script of flows/fetching/browser.py takes the API away everywhere).
NO_WEBRTC_ARGS = [
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
]
LAUNCH_ARGS = [
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--no-first-run",
    *NO_WEBRTC_ARGS,
    *HEAP_ARGS,
]


@dataclass
class _Held:
    """A host's context, in the browser it was opened in, and the pages using it."""

    browser: Browser
    context: BrowserContext
    users: int = 0
    idle: list[Page] = field(default_factory=list)  # pages free to render the next


@dataclass(frozen=True)
class Endpoint:
    """Where one engine is: a URL as the settings write it, or None for a local launch."""

    url: str | None = None

    @property
    def remote(self) -> bool:
        return self.url is not None

    @property
    def cdp(self) -> bool:
        return self.url is not None and self.url.startswith("cdp+")

    @property
    def address(self) -> str:
        """The URL Playwright is given (without the `cdp+` that says which protocol)."""
        return (self.url or "").removeprefix("cdp+")

    def __str__(self) -> str:
        return self.url or "the local browser"


def endpoints(limits: FetchSettings) -> list[Endpoint]:
    """The engines the settings name; one local launch when they name none."""
    return [Endpoint(u) for u in limits.browser_endpoint or ()] or [Endpoint()]


def endpoint_for(url: str, among: list[Endpoint]) -> Endpoint:
    """The engine a page goes to: the same for every page of a host, spread by a stable
    hash (the same host goes to the same engine run after run)."""
    host = (urlsplit(url).hostname or "").encode()
    return among[zlib.crc32(host) % len(among)]


class Engine:
    """One browser, opened when first needed and opened again once when it is lost."""

    def __init__(
        self,
        playwright: Playwright,
        endpoint: Endpoint,
        limits: FetchSettings,
        executable: str | None = None,
    ) -> None:
        self.playwright = playwright
        self.endpoint = endpoint
        self.executable = executable
        self.slots = asyncio.Semaphore(limits.browser_concurrency)
        self.unavailable: str | None = None  # why no page can be rendered here any more
        self._browser: Browser | None = None
        self._opened = 0
        self._lock = asyncio.Lock()
        self._making = asyncio.Lock()
        self.later = Background()  # what is closed off the pages' path
        self._contexts: OrderedDict[str, _Held] = OrderedDict()  # by host, oldest first
        self._keep = 2 * limits.browser_concurrency + 2  # contexts kept open
        self._idle = limits.browser_concurrency  # tabs kept per context
        self._opening: asyncio.Task[None] | None = None

    async def open(self) -> None:
        """Launch or connect; on failure, `unavailable` says why (nothing raised)."""
        async with self._lock:
            await self._open()

    async def browser(self) -> Browser:
        """The live browser; opened again (once) when it was lost. FetchFailed
        (`browser_unavailable`) when there is none to be had. The opening is the engine's
        own task: a page whose time runs out while it waits does not cut it short."""
        async with self._lock:
            if self._browser is not None and self._browser.is_connected():
                return self._browser
            if self.unavailable is None and self._opening is None:
                if self._opened > REOPENS:
                    self.unavailable = f"{self.endpoint} was lost again; not reopened"
                else:
                    self._opening = asyncio.create_task(self._open())
            opening = self._opening
        if opening is not None:
            await asyncio.shield(opening)
            self._opening = None if self._opening is opening else self._opening
        if self._browser is None:
            raise FetchFailed(Outcome.BROWSER_UNAVAILABLE, self.unavailable or "no browser")
        return self._browser

    async def context(
        self,
        browser: Browser,
        host: str,
        user_agent: str,
        setup: Callable[[BrowserContext], Awaitable[None]],
    ) -> _Held:
        """The host's context in this browser, held for one page until `release`: a
        host's pages share cookies and storage with each other, never with another
        host's. Contexts no page holds are closed, the least recently used first, past a
        few more than the pages rendered at once."""
        async with self._making:
            held = self._contexts.get(host)
            if held is None or held.browser is not browser:
                context = await browser.new_context(user_agent=user_agent, service_workers="block")
                await setup(context)  # before any page of it is opened
                held = self._contexts[host] = _Held(browser, context)
            held.users += 1
            self._contexts.move_to_end(host)
            while len(self._contexts) > self._keep:
                idle = next((h for h, c in self._contexts.items() if c.users == 0), None)
                if idle is None:
                    break
                gone = self._contexts.pop(idle)
                await close_quietly(gone.context)
        return held

    def idle_page(self, held: _Held, url: str) -> Page | None:
        """A tab of the host's context that rendered before and is free, if there is one
        (a tab navigated on costs the browser less than a new one); not one showing the
        same document, which a link to another of its #fragments would not reload."""
        while held.idle:
            page = held.idle.pop()
            if urldefrag(page.url)[0] != urldefrag(url)[0]:
                return page
            self.later.spawn(close_quietly(page))
        return None

    def forget(self, page: Page) -> bool:
        """No longer keep an idle tab (whether it was kept)."""
        for held in self._contexts.values():
            if page in held.idle:
                held.idle.remove(page)
                return True
        return False

    def release(self, held: _Held, page: Page | None = None) -> None:
        """The page is done with its context; `page`, when given, is kept for the
        host's next page."""
        held.users -= 1
        if page is None:
            return
        current = any(c is held for c in self._contexts.values())
        if current and len(held.idle) < self._idle:
            held.idle.append(page)
        else:
            self.later.spawn(close_quietly(page))

    async def lost(self, browser: Browser, error: BaseException) -> bool:
        """Whether a page's failure was the browser's (it crashed, or the link to it is
        gone); if so, the next page opens it again. Playwright says the same words when a
        page alone was closed: then the browser is still connected once its events are in."""
        if browser.is_connected():
            if not any(m in str(error) for m in GONE):
                return False
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(DISCONNECT_WAIT_S):
                    while browser.is_connected():
                        await asyncio.sleep(0.05)
            if browser.is_connected():
                return False
        if self._browser is browser:
            self._browser = None
            self._contexts.clear()
            self.later.spawn(close_quietly(browser))
        return True

    async def close(self) -> None:
        if self._opening is not None:
            await asyncio.shield(self._opening)
        await self._drop()
        await self.later.drain()

    async def _drop(self) -> None:
        """Let the browser go, and every context in it."""
        browser, self._browser = self._browser, None
        for held in self._contexts.values():
            await close_quietly(held.context)
        self._contexts.clear()
        if browser is not None:
            await close_quietly(browser)

    async def _open(self) -> None:
        from playwright.async_api import Error

        await self._drop()
        self._opened += 1
        try:
            limit = CONNECT_TIMEOUT_S if self.endpoint.remote else LAUNCH_TIMEOUT_S
            async with asyncio.timeout(limit):
                self._browser = await self._start()
        except (Error, TimeoutError, OSError) as e:
            self.unavailable = f"{self.endpoint} does not answer ({_playwright_reason(e)})"

    async def _start(self) -> Browser:
        chromium = self.playwright.chromium
        timeout_ms = CONNECT_TIMEOUT_S * 1000
        if not self.endpoint.remote:
            return await chromium.launch(
                executable_path=self.executable, headless=True, args=LAUNCH_ARGS
            )
        if self.endpoint.cdp:
            return await chromium.connect_over_cdp(self.endpoint.address, timeout=timeout_ms)
        return await chromium.connect(self.endpoint.address, timeout=timeout_ms)


class Background:
    """Work done off a page's path (closing a tab, freeing a body), awaited before the
    browser under it goes."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def spawn(self, work: Coroutine[object, object, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self) -> None:
        for task in list(self._tasks):
            await task


async def close_quietly(closable: object) -> None:
    """Close a context or a browser, within a deadline, whatever state it is in."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(CLOSE_TIMEOUT_S):
            await closable.close()  # type: ignore[attr-defined]


def _playwright_reason(error: BaseException) -> str:
    """The reason in a Playwright error, without its call log or its boxed advice."""
    lines = [ln.strip() for ln in str(error).splitlines() if ln.strip()]
    if not lines:
        return "no answer in time" if isinstance(error, TimeoutError) else type(error).__name__
    first = lines[0].split(": ", 1)[-1] if lines[0].startswith("BrowserType.") else lines[0]
    mismatch = next((ln for ln in lines if "version mismatch" in ln), None)
    if mismatch is not None:
        versions = [ln.strip("║ ").strip() for ln in lines if "version: v" in ln]
        return "a Playwright server of another version: " + "; ".join(versions)
    return first[:300]
