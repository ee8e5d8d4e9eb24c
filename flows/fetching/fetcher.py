"""The Fetcher: polite, bounded, every attempt recorded, whichever loader loads a page.

Concurrency is bounded for the run and per host; robots.txt is read once per host per
run; connect errors, timeouts, 429 and 5xx are retried with exponential backoff and
jitter (Retry-After honoured up to a cap); a failed live fetch may be answered by the
archive fallback. Each page is loaded by a `Loader`: over HTTP (flows/fetching/http.py),
or in a browser (flows/fetching/browser.py), both inside the same limits.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlsplit

import httpx
from protego import Protego

from evidence_base.words import Render
from extractors.values import Outcome, Via
from flows.catalog import url_problem
from flows.fetching.attempts import Answer, Attempt, FetchFailed, FetchRequest
from flows.fetching.bodies import ACCEPT_ENCODING, decoded_pieces, read_body
from flows.fetching.guard import AddressGuard
from flows.fetching.http import NOT_HTTP_ERRORS, HttpLoader, open_clients, send
from flows.fetching.redirects import REDIRECT_STATUSES, WEB_SCHEMES, Redirects

if TYPE_CHECKING:
    from flows.catalog import FetchSettings

RETRY_AFTER_CAP_S = 30.0
BACKOFF_BASE_S = 0.5
ROBOTS_MAX_BYTES = 500_000
ROBOTS_TIMEOUT_S = 5.0  # a robots.txt is read within this (and fetch.timeout_s)
RETRYABLE = frozenset({Outcome.TIMEOUT, Outcome.CONNECT_ERROR, Outcome.DNS_ERROR})
NO_BROWSER = "no browser could be started for a `render: browser` source"


class Loader(Protocol):
    """Loads one request: the page's Answer, or FetchFailed with the outcome."""

    def admit(self, request: FetchRequest) -> AbstractAsyncContextManager[object]:
        """Waits for the loader's own capacity (a browser's rendering slots); the
        attempt's time limit starts once in."""
        ...

    async def load(self, request: FetchRequest) -> Answer: ...


def fetch_batch(
    requests: Sequence[FetchRequest],
    limits: FetchSettings,
    clock: Callable[[], datetime],
    guard: AddressGuard | None = None,
    unavailable: Mapping[str, str] | None = None,
) -> dict[str, list[Attempt]]:
    """Fetch every request (async inside); every attempt per URL. A browser is started
    (or an engine reached) only when some request is to be rendered in one; `unavailable`
    names browser endpoints already known not to answer."""

    async def run() -> dict[str, list[Attempt]]:
        async with contextlib.AsyncExitStack() as stack:
            clients = await stack.enter_async_context(open_clients(limits))
            renderer = None
            if any(r.render is Render.BROWSER for r in requests):
                from flows.fetching.browser import open_renderer

                renderer = await stack.enter_async_context(
                    open_renderer(limits, guard, unavailable)
                )
            fetcher = Fetcher(clients, limits, clock, renderer=renderer, guard=guard)
            return await fetcher.fetch_all(requests)

    return asyncio.run(run())


class Fetcher:
    """Fetches many URLs over a few HTTP clients taken in turn (see `client_count`), and
    in the browser when it is given one; use `fetch_all` from a coroutine."""

    def __init__(
        self,
        client: httpx.AsyncClient | Sequence[httpx.AsyncClient],
        limits: FetchSettings,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        renderer: Loader | None = None,
        guard: AddressGuard | None = None,
    ) -> None:
        clients = [client] if isinstance(client, httpx.AsyncClient) else list(client)
        self.client = clients[0]  # robots.txt and archive lookups
        self.limits = limits
        self.clock = clock
        self.sleep = sleep
        self.guard = guard or AddressGuard()  # where a redirect may lead
        self.http = HttpLoader(clients, limits, self.guard, clock)
        self.renderer = renderer  # loads `render: browser` requests; None: no browser
        self._all = asyncio.Semaphore(limits.concurrency)
        self._hosts: defaultdict[str, asyncio.Semaphore] = defaultdict(
            lambda: asyncio.Semaphore(limits.per_host)
        )
        self._robots: dict[str, Protego | None] = {}
        self._robots_locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)

    async def fetch_all(self, requests: Iterable[FetchRequest]) -> dict[str, list[Attempt]]:
        """Every attempt per URL (the last one is the result)."""
        reqs = list(requests)
        results = await asyncio.gather(*(self.fetch(r) for r in reqs))
        return {r.url: attempts for r, attempts in zip(reqs, results, strict=True)}

    async def fetch(self, request: FetchRequest) -> list[Attempt]:
        attempts: list[Attempt] = []
        for number in range(self.limits.retries + 1):
            attempt = await self._attempt(request)
            attempts.append(attempt)
            if not _retryable(attempt) or number == self.limits.retries:
                break
            backoff = BACKOFF_BASE_S * 2**number * (0.5 + random.random())
            delay = attempt.retry_after_s if attempt.retry_after_s is not None else backoff
            await self.sleep(min(delay, RETRY_AFTER_CAP_S))
        if self.limits.archive_fallback and not attempts[-1].outcome.success:
            archived = await self._from_archive(request.url, self.limits.archive_fallback)
            if archived is not None:
                attempts.append(archived)
        return attempts

    async def _from_archive(self, url: str, api: str) -> Attempt | None:
        """The archive's closest copy of url, fetched and timed at its capture time."""
        try:
            headers = {"User-Agent": self.limits.user_agent, "Accept-Encoding": ACCEPT_ENCODING}
            async with asyncio.timeout(self.limits.timeout_s):
                request = self.client.build_request(
                    "GET", api, params={"url": url}, headers=headers
                )
                response = await send(self.client, request)
                try:
                    body = await read_body(response, self.limits.max_bytes)
                finally:
                    await response.aclose()
            closest = json.loads(body)["archived_snapshots"].get("closest") or {}
        except Exception:  # no copy the archive can give: the live failure stands
            return None
        copy_url = str(closest.get("url") or "")
        captured = _capture_time(str(closest.get("timestamp") or ""))
        if not closest.get("available") or str(closest.get("status", "200")) != "200":
            return None
        if captured is None or urlsplit(copy_url).scheme not in WEB_SCHEMES:
            return None
        if url_problem(copy_url) is not None or not await self.guard.allows(api, copy_url):
            return None  # the archive named a copy where no page of it may lead
        attempt = await self._attempt(FetchRequest(copy_url, obey_robots=False))
        return replace(attempt, url=url, via=Via.ARCHIVED, captured_at=captured)

    async def _attempt(self, request: FetchRequest) -> Attempt:
        started_at = self.clock()
        t0 = time.monotonic()
        host = urlsplit(request.url).netloc.lower()
        try:
            async with self._all, self._hosts[host]:
                if request.obey_robots and not await self._robots_allow(request.url):
                    raise FetchFailed(Outcome.ROBOTS_DISALLOWED, "disallowed by robots.txt")
                loader = self._loader(request)
                async with loader.admit(request), asyncio.timeout(self.limits.timeout_s):
                    answer = await loader.load(request)
        except FetchFailed as e:
            answer = Answer.failure(e)
        except (TimeoutError, httpx.TimeoutException):
            answer = Answer(
                outcome=Outcome.TIMEOUT, error=f"no answer within {self.limits.timeout_s:g}s"
            )
        except (httpx.HTTPError, *NOT_HTTP_ERRORS) as e:
            answer = self.http.failure(e)
        except Exception as e:  # whatever a source does, it costs that source, not the run
            answer = self.http.failure(e)
        elapsed_ms = int((time.monotonic() - t0) * 1000)
        return Attempt.of(request, started_at, elapsed_ms, answer)

    def _loader(self, request: FetchRequest) -> Loader:
        if request.render is not Render.BROWSER:
            return self.http
        if self.renderer is None:
            raise FetchFailed(Outcome.BROWSER_UNAVAILABLE, NO_BROWSER)
        return self.renderer

    async def _robots_allow(self, url: str) -> bool:
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        async with self._robots_locks[origin]:
            if origin not in self._robots:
                self._robots[origin] = await self._read_robots(origin)
        rules = self._robots[origin]
        return rules is None or rules.can_fetch(url, self.limits.user_agent)

    async def _read_robots(self, origin: str) -> Protego | None:
        """The host's rules, or None for none: robots.txt streamed and cut at
        ROBOTS_MAX_BYTES or at its own time (the rules read by then are kept, as at the
        size cut: they come first), its redirects followed here under the same guard as a
        page's."""
        url = origin + "/robots.txt"
        redirects = Redirects(url, self.guard)
        headers = {"User-Agent": self.limits.user_agent, "Accept-Encoding": ACCEPT_ENCODING}
        pieces: list[bytes] = []
        charset: str | None = None  # set once a 200 answer's body is being read
        try:
            async with asyncio.timeout(min(ROBOTS_TIMEOUT_S, self.limits.timeout_s)):
                while True:
                    request = self.client.build_request("GET", url, headers=headers)
                    response = await send(self.client, request)
                    try:
                        location = response.headers.get("location")
                        if response.status_code in REDIRECT_STATUSES and location is not None:
                            url = await redirects.follow(url, location)
                            continue
                        if response.status_code != 200:
                            # read (the connection is kept for the page), cut past the limit
                            await read_body(response, ROBOTS_MAX_BYTES, cut=True)
                            return None  # 4xx: no rules; 5xx: the page fetch decides
                        charset = response.charset_encoding or "utf-8"
                        async for piece in decoded_pieces(response, ROBOTS_MAX_BYTES, cut=True):
                            pieces.append(piece)
                    finally:
                        await response.aclose()
                    break
        except TimeoutError:
            if charset is None:
                return None  # no answer in time: the fetch itself will say what it gets
        except Exception:
            return None  # unreachable or refused robots.txt: the fetch itself will say why
        body = b"".join(pieces)
        try:
            text = body.decode(charset or "utf-8", errors="replace")
        except LookupError:
            text = body.decode("utf-8", errors="replace")
        return Protego.parse(text)


def _capture_time(stamp: str) -> datetime | None:
    """A Wayback timestamp (YYYYMMDDhhmmss, UTC) as a datetime."""
    try:
        return datetime.strptime(stamp[:14], "%Y%m%d%H%M%S").replace(tzinfo=UTC)
    except ValueError:
        return None


def _retryable(attempt: Attempt) -> bool:
    if attempt.outcome in RETRYABLE:
        return True
    status = attempt.http_status
    return (
        attempt.outcome is Outcome.HTTP_ERROR
        and status is not None
        and (status == 429 or status >= 500)
    )
