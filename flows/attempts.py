"""What a fetch is asked and what it answers: requests, limits, attempts and outcomes.

Every fetcher (httpx today) answers a FetchRequest with Attempts, each carrying one of
the contract's fetch outcomes.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from extractors.encoding import decode_body

if TYPE_CHECKING:
    from flows.config import FetchSettings


class Outcome(StrEnum):
    OK = "ok"
    NOT_MODIFIED = "not_modified"
    HTTP_ERROR = "http_error"
    TIMEOUT = "timeout"
    DNS_ERROR = "dns_error"
    CONNECT_ERROR = "connect_error"
    TLS_ERROR = "tls_error"
    TOO_LARGE = "too_large"
    BAD_CONTENT = "bad_content"
    REDIRECT_LOOP = "redirect_loop"
    ROBOTS_DISALLOWED = "robots_disallowed"
    SOFT_404 = "soft_404"
    BLOCKED = "blocked"
    BROWSER_UNAVAILABLE = "browser_unavailable"  # a browser source, and no browser to start

    @property
    def success(self) -> bool:
        return self in (Outcome.OK, Outcome.NOT_MODIFIED)


@dataclass(frozen=True, slots=True)
class FetchRequest:
    url: str
    etag: str | None = None
    last_modified: str | None = None
    obey_robots: bool = True
    expect_redirect: bool = False  # the page legitimately redirects to its site's root
    render: str = "http"  # or "browser": loaded in headless Chromium
    wait_for: str | None = None  # browser: a CSS selector the page is loaded with

    @property
    def conditional(self) -> bool:
        return self.etag is not None or self.last_modified is not None


@dataclass(frozen=True, slots=True)
class FetchLimits:
    timeout_s: float = 20.0
    concurrency: int = 16
    per_host: int = 2
    retries: int = 2
    max_bytes: int = 5_000_000
    user_agent: str = "evidence-pipeline"
    archive_fallback: str | None = None  # a Wayback-compatible availability API
    browser_path: str | None = None  # a Chromium executable; None: Playwright's, or on PATH
    browser_concurrency: int = 2

    @classmethod
    def of(cls, fetch: FetchSettings) -> FetchLimits:
        """The limits the `fetch:` settings give."""
        return cls(
            timeout_s=fetch.timeout_s,
            concurrency=fetch.concurrency,
            per_host=fetch.per_host,
            retries=fetch.retries,
            max_bytes=fetch.max_bytes,
            user_agent=fetch.user_agent,
            archive_fallback=fetch.archive_fallback,
            browser_path=fetch.browser_path,
            browser_concurrency=fetch.browser_concurrency,
        )


@dataclass(frozen=True, slots=True)
class Attempt:
    """One try at one URL, as the contract's `fetches` view records it."""

    url: str
    started_at: datetime
    elapsed_ms: int
    outcome: Outcome
    http_status: int | None = None
    error: str | None = None
    body: bytes | None = None
    digest: str | None = None  # sha256 of the body, computed once where it is read
    content_type: str | None = None
    encoding: str | None = None
    etag: str | None = None
    last_modified: str | None = None
    final_url: str | None = None
    retry_after_s: float | None = field(default=None, compare=False)
    via: str = "live"  # or "archived": a copy from the archive fallback
    captured_at: datetime | None = None  # the archive's capture time
    render: str = "http"  # or "browser": the body is the rendered document

    @property
    def text(self) -> str | None:
        """The body decoded (on demand: a decoded page takes several times its bytes)."""
        if self.body is None:
            return None
        return decode_body(self.body, self.encoding)[0]

    @property
    def fetched_at(self) -> datetime:
        """The time the content is evidence for: an archived copy's capture time, else
        when the fetch started (the `fetched_at` of the snapshot it makes)."""
        return self.captured_at or self.started_at


def page_fetched(
    body: bytes, status: int, final_url: str, content_type: str | None, encoding: str | None
) -> dict[str, Any]:
    """The fields of a successful attempt that brought a page, whichever fetcher read it."""
    return {
        "outcome": Outcome.OK,
        "http_status": status,
        "body": body,
        "digest": hashlib.sha256(body).hexdigest(),
        "content_type": content_type,
        "encoding": encoding,
        "final_url": final_url,
    }


class FetchFailed(Exception):
    """A fetch that ended in a failure outcome: what every fetcher raises inside an
    attempt, turned into the attempt's outcome, error and status."""

    def __init__(self, outcome: Outcome, error: str, status: int | None = None) -> None:
        super().__init__(error)
        self.outcome = outcome
        self.status = status


def last_live(attempts: list[Attempt]) -> Attempt:
    """The result of the live fetch (an archived copy, if any, comes after it)."""
    return next(a for a in reversed(attempts) if a.via == "live")
