"""Domain values produced by the extractors: frozen, hashable, free of I/O."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date
from enum import StrEnum


class Status(StrEnum):
    """The canonical statuses of a programme (docs/grading.md, "Status claims")."""

    OPEN = "open"
    WAITLIST = "waitlist"
    PAUSED = "paused"
    EXHAUSTED = "exhausted"
    CLOSED = "closed"
    ENDED = "ended"
    DISCONTINUED = "discontinued"


class CheckOutcome(StrEnum):
    """What a claim check found on one page."""

    CONFIRMED = "confirmed"
    CHANGED = "changed"
    ABSENT = "absent"


class Outcome(StrEnum):
    """A fetch attempt's outcome (docs/grading.md, "Fetch outcomes"): the fetchers decide most,
    the soft-failure rules (extractors/soft.py) decide soft_404 and blocked."""

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


class Render(StrEnum):
    """How a page is loaded: its body as fetched, or the document a browser rendered."""

    HTTP = "http"
    BROWSER = "browser"


class Via(StrEnum):
    """Where a snapshot's content came from: the live page, or the archive fallback."""

    LIVE = "live"
    ARCHIVED = "archived"


class NumberKind(StrEnum):
    MONEY = "money"
    PERCENT = "percent"
    COUNT = "count"
    DURATION = "duration"
    DATE = "date"
    DATE_RANGE = "date_range"
    NUMBER = "number"


@dataclass(frozen=True, slots=True)
class PageText:
    """The main text of a page, as the extractor read it."""

    title: str | None
    text: str
    method: str  # "trafilatura" or "fallback"


@dataclass(frozen=True, slots=True)
class QuotedNumber:
    """One figure on a page, with its unit, qualifier and the sentence around it."""

    kind: NumberKind
    value: float | None
    raw: str
    sentence: str
    value_end: float | None = None
    unit: str | None = None
    currency: str | None = None
    qualifier: str | None = None
    date_from: date | None = None
    date_to: date | None = None
    subject: str | None = None  # the noun phrase it measures (extractors/subjects.py)


@dataclass(frozen=True, slots=True)
class StatusMention:
    status: Status
    phrase: str
    sentence: str


@dataclass(frozen=True, slots=True)
class ClaimCheck:
    """The outcome of checking one quote against one page's text."""

    outcome: CheckOutcome
    found_text: str | None = None
    found_values: tuple[float, ...] = ()
    # for an absent quote: the passage of the page nearest to it, when one is near enough
    closest_text: str | None = None
    closest_score: int | None = None  # 0-100
    # for a status claim `changed`: the other canonical status its passage states
    found_status: Status | None = None


def reading_hash(title: str | None, text: str) -> str:
    """Identifies a page's reading: two bodies with the same title and main text are one
    snapshot (migration 007 computes the same for pages stored before)."""
    return hashlib.sha256(f"{title or ''}\x1f{text}".encode("utf-8", "surrogatepass")).hexdigest()
