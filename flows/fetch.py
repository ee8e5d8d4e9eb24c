"""The HTTP fetcher: httpx's async client, polite and bounded, every attempt recorded.

Concurrency is bounded for the run and per host; connect errors, timeouts,
429 and 5xx are retried with exponential backoff and jitter (Retry-After
honoured up to a cap); redirects are followed by hand (at most 10, loops
detected, http and https only, never from a public host to a private address);
bodies are streamed and cut at max_bytes of *decoded* content (a gzip bomb is
too_large); robots.txt is read once per host per run. httpx's exceptions become
the contract's fetch outcomes here.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import random
import ssl
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Protocol
from urllib.parse import urljoin, urlsplit

import httpx
from protego import Protego

from extractors.encoding import decode_body
from extractors.soft import classify_response
from flows.attempts import (
    Attempt,
    FetchFailed,
    FetchLimits,
    FetchRequest,
    Outcome,
    page_fetched,
)
from flows.guard import AddressGuard

MAX_REDIRECTS = 10
RETRY_AFTER_CAP_S = 30.0
BACKOFF_BASE_S = 0.5
ROBOTS_MAX_BYTES = 500_000
ERROR_BODY_BYTES = 256_000  # of an error page, read to tell a bot wall from a plain error
HTML_TYPES = ("text/html", "application/xhtml+xml", "text/plain")
_REDIRECTS = {301, 302, 303, 307, 308}
RETRYABLE = {Outcome.TIMEOUT, Outcome.CONNECT_ERROR, Outcome.DNS_ERROR}
NO_BROWSER = "no browser could be started for a `render: browser` source"


class Renderer(Protocol):
    """Loads a request in a browser: the same result as an HTTP fetch, or FetchFailed."""

    async def load(self, request: FetchRequest) -> dict: ...


# httpcore looks at every pooled connection on each request and at each response's end,
# so connections are spread over several small clients, taken in turn.
CONNECTIONS_PER_CLIENT = 4


def client_count(concurrency: int) -> int:
    """How many clients share `concurrency` connections, CONNECTIONS_PER_CLIENT each."""
    return max(1, -(-concurrency // CONNECTIONS_PER_CLIENT))


def fetch_batch(
    requests: Sequence[FetchRequest],
    limits: FetchLimits,
    clock: Callable[[], datetime],
    guard: AddressGuard | None = None,
) -> dict[str, list[Attempt]]:
    """Fetch every request (async inside); every attempt per URL. A browser is started
    only when some request is to be rendered in one."""

    async def run() -> dict[str, list[Attempt]]:
        timeout = httpx.Timeout(limits.timeout_s)
        count = client_count(limits.concurrency)
        per_client = -(-limits.concurrency // count)
        pool = httpx.Limits(max_connections=per_client, max_keepalive_connections=per_client)
        async with contextlib.AsyncExitStack() as stack:
            clients = [
                await stack.enter_async_context(
                    httpx.AsyncClient(
                        timeout=timeout, limits=pool, trust_env=False, verify=tls_context()
                    )
                )
                for _ in range(count)
            ]
            renderer = None
            if any(r.render == "browser" for r in requests):
                from flows.browser import open_renderer

                renderer = await stack.enter_async_context(open_renderer(limits, guard))
            fetcher = Fetcher(clients, limits, clock, renderer=renderer, guard=guard)
            return await fetcher.fetch_all(requests)

    return asyncio.run(run())


@functools.cache
def tls_context() -> ssl.SSLContext:
    """httpx's default verifying context, built once per process (it loads the CA bundle)."""
    return httpx.create_ssl_context(trust_env=False)


class Fetcher:
    """Fetches many URLs with one client, or several taken in turn (see `client_count`);
    use `fetch_all` from a coroutine."""

    def __init__(
        self,
        client: httpx.AsyncClient | Sequence[httpx.AsyncClient],
        limits: FetchLimits,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        renderer: Renderer | None = None,
        guard: AddressGuard | None = None,
    ) -> None:
        clients = [client] if isinstance(client, httpx.AsyncClient) else list(client)
        self._clients = itertools.cycle(clients)
        self.client = clients[0]  # robots.txt and archive lookups
        self.limits = limits
        self.clock = clock
        self.sleep = sleep
        self._all = asyncio.Semaphore(limits.concurrency)
        self._hosts: defaultdict[str, asyncio.Semaphore] = defaultdict(
            lambda: asyncio.Semaphore(limits.per_host)
        )
        self.renderer = renderer  # loads `render: browser` requests; None: no browser
        self.guard = guard or AddressGuard()  # where a redirect may lead
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
            async with asyncio.timeout(self.limits.timeout_s):
                response = await self.client.get(
                    api, params={"url": url}, headers={"User-Agent": self.limits.user_agent}
                )
            closest = response.json()["archived_snapshots"].get("closest") or {}
        except (TimeoutError, httpx.HTTPError, ValueError, KeyError, TypeError, AttributeError):
            return None
        copy_url = str(closest.get("url") or "")
        captured = _capture_time(str(closest.get("timestamp") or ""))
        if not closest.get("available") or str(closest.get("status", "200")) != "200":
            return None
        if captured is None or urlsplit(copy_url).scheme not in ("http", "https"):
            return None
        attempt = await self._attempt(FetchRequest(copy_url, obey_robots=False))
        return replace(attempt, url=url, via="archived", captured_at=captured)

    async def _attempt(self, request: FetchRequest) -> Attempt:
        started_at = self.clock()
        t0 = time.monotonic()
        host = urlsplit(request.url).netloc.lower()
        try:
            async with self._all, self._hosts[host]:
                if request.obey_robots and not await self._robots_allow(request.url):
                    raise FetchFailed(Outcome.ROBOTS_DISALLOWED, "disallowed by robots.txt")
                async with asyncio.timeout(self.limits.timeout_s):
                    if request.render != "browser":
                        result = await self._get(request)
                    elif self.renderer is None:
                        raise FetchFailed(Outcome.BROWSER_UNAVAILABLE, NO_BROWSER)
                    else:
                        result = await self.renderer.load(request)
        except FetchFailed as e:
            result = {"outcome": e.outcome, "error": str(e), "http_status": e.status}
            if isinstance(e, _RetryLater):
                result["retry_after_s"] = e.retry_after_s
        except (TimeoutError, httpx.TimeoutException):
            result = {
                "outcome": Outcome.TIMEOUT,
                "error": f"no answer within {self.limits.timeout_s:g}s",
            }
        except httpx.HTTPError as e:
            result = {"outcome": _classify(e), "error": _describe(e)}
        elapsed_ms = int((time.monotonic() - t0) * 1000)
        return Attempt(
            url=request.url,
            started_at=started_at,
            elapsed_ms=elapsed_ms,
            render=request.render,
            **result,
        )

    async def _get(self, request: FetchRequest) -> dict:
        headers = {
            "User-Agent": self.limits.user_agent,
            "Accept": "text/html,text/plain;q=0.9,*/*;q=0.1",
        }
        if request.etag:
            headers["If-None-Match"] = request.etag
        if request.last_modified:
            headers["If-Modified-Since"] = request.last_modified
        url = request.url
        seen = {url}
        client = next(self._clients)
        for _hop in range(MAX_REDIRECTS + 1):
            req = client.build_request("GET", url, headers=headers)
            response = await client.send(req, stream=True, follow_redirects=False)
            try:
                if response.status_code in _REDIRECTS and "location" in response.headers:
                    nxt = urljoin(url, response.headers["location"])
                    if urlsplit(nxt).scheme not in ("http", "https"):
                        raise FetchFailed(Outcome.BAD_CONTENT, f"redirect to a non-http URL: {nxt}")
                    if nxt in seen:
                        raise FetchFailed(Outcome.REDIRECT_LOOP, f"redirect loop at {nxt}")
                    if urlsplit(nxt).netloc != urlsplit(url).netloc:
                        if not await self.guard.allows(request.url, nxt):
                            raise FetchFailed(
                                Outcome.BAD_CONTENT,
                                f"redirect from a public host to a private address refused: {nxt}",
                            )
                    seen.add(nxt)
                    url = nxt
                    continue
                return await self._read(response, request, url)
            finally:
                await response.aclose()
        raise FetchFailed(Outcome.REDIRECT_LOOP, f"more than {MAX_REDIRECTS} redirects")

    async def _read(self, response: httpx.Response, request: FetchRequest, url: str) -> dict:
        status = response.status_code
        validators = {
            "etag": response.headers.get("etag"),
            "last_modified": response.headers.get("last-modified"),
        }
        if status == 304:
            await response.aread()  # the empty body, read so that the connection is reused
            return {
                "outcome": Outcome.NOT_MODIFIED,
                "http_status": 304,
                "final_url": url,
                **validators,
            }
        if status >= 400:
            error = f"HTTP {status} {response.reason_phrase}".strip()
            await self._raise_if_blocked(response, request, url, status)
            if status == 429 or status >= 500:
                raise _RetryLater(
                    error, status, _retry_after(response.headers.get("retry-after"), self.clock())
                )
            raise FetchFailed(Outcome.HTTP_ERROR, error, status)
        ctype = response.headers.get("content-type", "")
        mime = ctype.split(";")[0].strip().lower()
        if mime and mime not in HTML_TYPES:
            raise FetchFailed(Outcome.BAD_CONTENT, f"not HTML or text: {mime}", status)
        body = await _read_capped(response, self.limits.max_bytes, status)
        text, encoding = decode_body(body, response.charset_encoding)
        if text is None:
            raise FetchFailed(Outcome.BAD_CONTENT, "binary or undecodable content", status)
        utf8 = body if encoding == "utf-8" else None
        soft = classify_response(request.url, url, status, text, request.expect_redirect, utf8)
        if soft is not None:
            raise FetchFailed(Outcome(soft.outcome), soft.reason, status)
        return {**page_fetched(body, status, url, mime or None, encoding), **validators}

    async def _raise_if_blocked(
        self, response: httpx.Response, request: FetchRequest, url: str, status: int
    ) -> None:
        """An error page may be a bot wall (403, 429, 503 challenges): read a little of it."""
        try:
            body = await _read_capped(response, ERROR_BODY_BYTES, status)
        except FetchFailed:
            return
        text, _ = decode_body(body, response.charset_encoding)
        soft = classify_response(request.url, url, status, text or "")
        if soft is not None and soft.outcome == Outcome.BLOCKED:
            raise FetchFailed(Outcome.BLOCKED, soft.reason, status)

    async def _robots_allow(self, url: str) -> bool:
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        async with self._robots_locks[origin]:
            if origin not in self._robots:
                self._robots[origin] = await self._read_robots(origin)
        rules = self._robots[origin]
        return rules is None or rules.can_fetch(url, self.limits.user_agent)

    async def _read_robots(self, origin: str) -> Protego | None:
        try:
            async with asyncio.timeout(self.limits.timeout_s):
                response = await self.client.get(
                    origin + "/robots.txt",
                    headers={"User-Agent": self.limits.user_agent},
                    follow_redirects=True,
                )
        except (TimeoutError, httpx.HTTPError):
            return None  # unreachable robots.txt: the fetch itself will say why
        if response.status_code != 200:
            return None  # 4xx: no rules; 5xx: treated as no rules, the page fetch decides
        return Protego.parse(response.text[:ROBOTS_MAX_BYTES])


class _RetryLater(FetchFailed):
    def __init__(self, error: str, status: int, retry_after_s: float | None) -> None:
        super().__init__(Outcome.HTTP_ERROR, error, status)
        self.retry_after_s = retry_after_s


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


async def _read_capped(response: httpx.Response, max_bytes: int, status: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > max_bytes:
            raise FetchFailed(Outcome.TOO_LARGE, f"body larger than {max_bytes} bytes", status)
        chunks.append(chunk)
    return b"".join(chunks)


def _retry_after(value: str | None, now: datetime) -> float | None:
    """Retry-After in seconds, from a number of seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - now).total_seconds())


def _classify(error: httpx.HTTPError) -> Outcome:
    text = _describe(error).lower()
    if isinstance(error, httpx.ConnectError):
        if any(
            w in text
            for w in ("name or service", "nodename", "name resolution", "getaddrinfo", "no address")
        ):
            return Outcome.DNS_ERROR
        if "ssl" in text or "certificate" in text or isinstance(error.__cause__, ssl.SSLError):
            return Outcome.TLS_ERROR
        return Outcome.CONNECT_ERROR
    if isinstance(error, httpx.DecodingError):
        return Outcome.BAD_CONTENT
    if isinstance(error, httpx.UnsupportedProtocol):
        return Outcome.BAD_CONTENT
    if isinstance(error, httpx.TooManyRedirects):
        return Outcome.REDIRECT_LOOP
    return Outcome.CONNECT_ERROR


def _describe(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0][:500]
