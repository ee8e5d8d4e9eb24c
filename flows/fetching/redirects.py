"""The one redirect policy both fetchers follow, one hop at a time.

A redirect is followed to http and https only, never twice to one URL, at most
MAX_REDIRECTS times, and never from a public host to this machine or a private network
(flows/fetching/guard.py). Each refusal is the outcome it is: a loop or too many hops
is `redirect_loop`; a redirect out of http, or to a private address, is `bad_content`
(a page we will not read, not a loop).
"""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

from extractors.values import Outcome
from flows.catalog import url_problem
from flows.fetching.attempts import FetchFailed
from flows.fetching.guard import AddressGuard

MAX_REDIRECTS = 10
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
WEB_SCHEMES = ("http", "https")


class Redirects:
    """The hops of one request, from `start`; `origin` is the page the guard judges them
    for (the URL the user wrote; `start` itself when not given)."""

    def __init__(self, start: str, guard: AddressGuard, origin: str | None = None) -> None:
        self.origin = origin or start
        self.guard = guard
        self.seen = {start}

    async def follow(self, current: str, location: str) -> str:
        """The URL a redirect from `current` to `location` leads to, or FetchFailed."""
        try:
            target = urljoin(current, location)
            scheme = urlsplit(target).scheme
        except ValueError:
            raise FetchFailed(
                Outcome.BAD_CONTENT, f"redirect to an invalid URL: {location[:200]!r}"
            ) from None
        if scheme not in WEB_SCHEMES:
            raise FetchFailed(Outcome.BAD_CONTENT, f"redirect to a non-http URL: {target}")
        problem = url_problem(target)
        if problem is not None:
            raise FetchFailed(
                Outcome.BAD_CONTENT, f"redirect to a URL that cannot be fetched ({problem})"
            )
        if target in self.seen:
            raise FetchFailed(Outcome.REDIRECT_LOOP, f"redirect loop at {target}")
        if not await self.guard.allows(self.origin, target):
            raise FetchFailed(
                Outcome.BAD_CONTENT,
                f"redirect from a public host to a private address refused: {target}",
            )
        if len(self.seen) > MAX_REDIRECTS:
            raise FetchFailed(Outcome.REDIRECT_LOOP, f"more than {MAX_REDIRECTS} redirects")
        self.seen.add(target)
        return target
