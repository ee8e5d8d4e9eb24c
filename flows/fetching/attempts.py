"""What a fetch is asked and what it answers: requests, answers and attempts.

Both fetchers (HTTP and the browser) answer a FetchRequest with an Answer, which the
Fetcher times and records as an Attempt; every one carries one of the fetch outcomes of
docs/grading.md (`Outcome`, shared with the soft-failure rules and the rows).
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from datetime import datetime

from evidence_base.words import Render
from extractors.encoding import decode_body
from extractors.values import Outcome, Via


@dataclass(frozen=True, slots=True)
class FetchRequest:
    url: str
    etag: str | None = None
    last_modified: str | None = None
    obey_robots: bool = True
    expect_redirect: bool = False  # the page legitimately redirects to its site's root
    render: Render = Render.HTTP
    wait_for: str | None = None  # browser: a CSS selector the page is loaded with

    @property
    def conditional(self) -> bool:
        return self.etag is not None or self.last_modified is not None


@dataclass(frozen=True, slots=True, kw_only=True)
class Answer:
    """What one load of a URL came to, whichever fetcher loaded it."""

    outcome: Outcome
    http_status: int | None = None
    error: str | None = None
    body: bytes | None = None
    content_hash: str | None = None  # sha256 of the body, computed once where it is read
    content_type: str | None = None
    encoding: str | None = None
    etag: str | None = None
    last_modified: str | None = None
    final_url: str | None = None
    retry_after_s: float | None = dataclasses.field(default=None, compare=False)

    @classmethod
    def page(
        cls,
        body: bytes,
        status: int,
        final_url: str,
        content_type: str | None,
        encoding: str | None,
        etag: str | None = None,
        last_modified: str | None = None,
    ) -> Answer:
        """A page brought: the body and what it is."""
        return cls(
            outcome=Outcome.OK,
            http_status=status,
            body=body,
            content_hash=hashlib.sha256(body).hexdigest(),
            content_type=content_type,
            encoding=encoding,
            final_url=final_url,
            etag=etag,
            last_modified=last_modified,
        )

    @classmethod
    def failure(cls, failed: FetchFailed) -> Answer:
        return cls(
            outcome=failed.outcome,
            error=str(failed),
            http_status=failed.status,
            retry_after_s=failed.retry_after_s,
        )


_ANSWER_FIELDS = tuple(f.name for f in dataclasses.fields(Answer))


@dataclass(frozen=True, slots=True, kw_only=True)
class Attempt(Answer):
    """One try at one URL: its answer, when and how it was made (the `fetches` view)."""

    url: str
    started_at: datetime
    elapsed_ms: int
    render: Render = Render.HTTP  # browser: the body is the rendered document
    via: Via = Via.LIVE  # archived: a copy from the archive fallback
    captured_at: datetime | None = None  # the archive's capture time

    @classmethod
    def of(
        cls, request: FetchRequest, started_at: datetime, elapsed_ms: int, answer: Answer
    ) -> Attempt:
        return cls(
            url=request.url,
            started_at=started_at,
            elapsed_ms=elapsed_ms,
            render=request.render,
            **{name: getattr(answer, name) for name in _ANSWER_FIELDS},
        )

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


class FetchFailed(Exception):
    """A fetch that ended in a failure outcome: what every fetcher raises inside an
    attempt, turned into the attempt's outcome, error and status (`retry_after_s`: when
    the server said to come back, for a retried 429 or 5xx)."""

    def __init__(
        self,
        outcome: Outcome,
        error: str,
        status: int | None = None,
        retry_after_s: float | None = None,
    ) -> None:
        super().__init__(error)
        self.outcome = outcome
        self.status = status
        self.retry_after_s = retry_after_s


def last_live(attempts: list[Attempt]) -> Attempt:
    """The result of the live fetch (an archived copy, if any, comes after it)."""
    return next(a for a in reversed(attempts) if a.via is Via.LIVE)
