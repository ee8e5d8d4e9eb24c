"""The HTTP loader: httpx's async client, redirects followed by hand, bodies bounded.

Redirects follow the one policy of flows/fetching/redirects.py; bodies are streamed and
decoded here a piece at a time, cut at max_bytes of *decoded* content (a gzip bomb is
too_large; flows/fetching/bodies.py); error pages are read a little to tell a bot wall
from a plain error. httpx's exceptions become fetch outcomes (docs/grading.md) here.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import ssl
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING

import httpx

from evidence_base.errors import first_line
from extractors.encoding import decode_body
from extractors.soft import classify_response
from extractors.values import Outcome
from flows.fetching.attempts import Answer, FetchFailed, FetchRequest
from flows.fetching.bodies import ACCEPT_ENCODING, read_body
from flows.fetching.guard import AddressGuard
from flows.fetching.redirects import REDIRECT_STATUSES, Redirects

if TYPE_CHECKING:
    from flows.catalog import FetchSettings

ERROR_BODY_BYTES = 256_000  # of an error page, read to tell a bot wall from a plain error
HTML_TYPES = ("text/html", "application/xhtml+xml", "text/plain")

# httpcore looks at every pooled connection on each request and at each response's end,
# so connections are spread over several small clients, taken in turn.
CONNECTIONS_PER_CLIENT = 4


def client_count(concurrency: int) -> int:
    """How many clients share `concurrency` connections, CONNECTIONS_PER_CLIENT each."""
    return max(1, -(-concurrency // CONNECTIONS_PER_CLIENT))


@functools.cache
def tls_context() -> ssl.SSLContext:
    """httpx's default verifying context, built once per process (it loads the CA bundle)."""
    return httpx.create_ssl_context(trust_env=False)


@contextlib.asynccontextmanager
async def open_clients(limits: FetchSettings) -> AsyncIterator[list[httpx.AsyncClient]]:
    """The clients that share the run's `concurrency` connections, for the block."""
    timeout = httpx.Timeout(limits.timeout_s)
    count = client_count(limits.concurrency)
    per_client = -(-limits.concurrency // count)
    pool = httpx.Limits(max_connections=per_client, max_keepalive_connections=per_client)
    async with contextlib.AsyncExitStack() as stack:
        yield [
            await stack.enter_async_context(
                httpx.AsyncClient(
                    timeout=timeout, limits=pool, trust_env=False, verify=tls_context()
                )
            )
            for _ in range(count)
        ]


class HttpLoader:
    """Loads requests over HTTP, on the clients taken in turn."""

    def __init__(
        self,
        clients: Sequence[httpx.AsyncClient],
        limits: FetchSettings,
        guard: AddressGuard,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._clients = itertools.cycle(clients)
        self.limits = limits
        self.guard = guard
        self.clock = clock

    def admit(self, request: FetchRequest) -> AbstractAsyncContextManager[object]:
        return contextlib.nullcontext()  # bounded by the Fetcher's own limits

    async def load(self, request: FetchRequest) -> Answer:
        headers = {
            "User-Agent": self.limits.user_agent,
            "Accept": "text/html,text/plain;q=0.9,*/*;q=0.1",
            "Accept-Encoding": ACCEPT_ENCODING,
        }
        if request.etag:
            headers["If-None-Match"] = request.etag
        if request.last_modified:
            headers["If-Modified-Since"] = request.last_modified
        url = request.url
        redirects = Redirects(request.url, self.guard)
        client = next(self._clients)
        while True:
            req = client.build_request("GET", url, headers=headers)
            response = await send(client, req)
            try:
                location = response.headers.get("location")
                if response.status_code in REDIRECT_STATUSES and location is not None:
                    url = await redirects.follow(url, location)
                    continue
                return await self._read(response, request, url)
            finally:
                await response.aclose()

    def failure(self, error: Exception) -> Answer:
        """An exception of httpx's, as the outcome it is."""
        return Answer.failure(failed(error))

    async def _read(self, response: httpx.Response, request: FetchRequest, url: str) -> Answer:
        status = response.status_code
        etag = response.headers.get("etag")
        last_modified = response.headers.get("last-modified")
        if status == 304:
            await response.aread()  # the empty body, read so that the connection is reused
            return Answer(
                outcome=Outcome.NOT_MODIFIED,
                http_status=304,
                final_url=url,
                etag=etag,
                last_modified=last_modified,
            )
        if status >= 400:
            error = f"HTTP {status} {response.reason_phrase}".strip()
            await self._raise_if_blocked(response, request, url, status)
            retry_after = None
            if status == 429 or status >= 500:
                retry_after = _retry_after(response.headers.get("retry-after"), self.clock())
            raise FetchFailed(Outcome.HTTP_ERROR, error, status, retry_after)
        ctype = response.headers.get("content-type", "")
        mime = ctype.split(";")[0].strip().lower()
        if mime and mime not in HTML_TYPES:
            raise FetchFailed(Outcome.BAD_CONTENT, f"not HTML or text: {mime}", status)
        body = await read_body(response, self.limits.max_bytes, status)
        text, encoding = decode_body(body, response.charset_encoding)
        if text is None:
            raise FetchFailed(Outcome.BAD_CONTENT, "binary or undecodable content", status)
        utf8 = body if encoding == "utf-8" else None
        soft = classify_response(request.url, url, status, text, request.expect_redirect, utf8)
        if soft is not None:
            raise FetchFailed(soft.outcome, soft.reason, status)
        return Answer.page(body, status, url, mime or None, encoding, etag, last_modified)

    async def _raise_if_blocked(
        self, response: httpx.Response, request: FetchRequest, url: str, status: int
    ) -> None:
        """An error page may be a bot wall (403, 429, 503 challenges): read a little of it."""
        try:
            body = await read_body(response, ERROR_BODY_BYTES, status, cut=True)
        except FetchFailed:
            return
        text, _ = decode_body(body, response.charset_encoding)
        soft = classify_response(request.url, url, status, text or "")
        if soft is not None and soft.outcome is Outcome.BLOCKED:
            raise FetchFailed(Outcome.BLOCKED, soft.reason, status)


def failed(error: Exception) -> FetchFailed:
    """An exception of httpx's (or a URL it could not take), as the outcome it is."""
    if isinstance(error, httpx.TimeoutException):
        return FetchFailed(Outcome.TIMEOUT, _describe(error))
    return FetchFailed(_classify(error), _describe(error))


async def send(client: httpx.AsyncClient, request: httpx.Request) -> httpx.Response:
    """The response to `request`, redirects not followed. httpx reads a redirect's
    Location even then, and raises InvalidURL for one it cannot parse (`mailto:`, `data:`):
    that is the page's failure."""
    try:
        return await client.send(request, stream=True, follow_redirects=False)
    except httpx.InvalidURL as e:
        raise FetchFailed(
            Outcome.BAD_CONTENT, f"redirect to a URL that cannot be fetched: {_describe(e)}"
        ) from None


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


# What httpx raises that is not an httpx.HTTPError, or a URL it cannot parse: the page led
# somewhere that cannot be fetched, which is its own failure.
NOT_HTTP_ERRORS = (httpx.InvalidURL, httpx.CookieConflict, httpx.StreamError, ValueError)


def _classify(error: Exception) -> Outcome:
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
    if isinstance(
        error,
        httpx.DecodingError | httpx.UnsupportedProtocol | httpx.LocalProtocolError,
    ) or isinstance(error, NOT_HTTP_ERRORS):
        return Outcome.BAD_CONTENT
    return Outcome.CONNECT_ERROR


def _describe(error: BaseException) -> str:
    return first_line(error)[:500]
