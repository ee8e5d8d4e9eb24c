"""The values the extractors produce, and the words they make: frozen, hashable, free of
I/O.

Each word the warehouse stores or a person reads (a grade, a freshness, a check's
outcome, a fetch's) is a StrEnum here: its members are the strings themselves, in SQL, in
files and on screen. tests/test_vocabulary.py holds the SQL's literals to these values.
The words no extractor makes (a role, how a page is loaded, an alert's kind, why a source
is due) are in evidence_base/words.py.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
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


class Grade(StrEnum):
    """A claim's or a record's grade (README, "How claims are checked and graded"),
    strongest first."""

    DOCUMENTED = "documented"
    REPORTED = "reported"
    UNVERIFIED = "unverified"
    CONTRADICTED = "contradicted"

    @property
    def rank(self) -> int:
        """How strong it is, from 0 (contradicted) to 3 (documented): a grade falls when
        its rank does, and a record's grade is its claims' lowest."""
        return _GRADES_WEAKEST_FIRST.index(self)


_GRADES_WEAKEST_FIRST = tuple(reversed(Grade))


class Freshness(StrEnum):
    """Whether a record's grade is recent enough to go by: checked within its window."""

    FRESH = "fresh"
    STALE = "stale"  # no source backing its grade answered within the window
    UNCHECKED = "unchecked"  # never graded on a page


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
    # the grammar's rule that read it (extractors/figures/): for reading its mistakes,
    # and for the one rule whose figures give way to others (grammar.SCALED); not kept
    # with the page
    rule: str | None = field(default=None, compare=False)

    @property
    def rate(self) -> str | None:
        """Its qualifier when that is a rate ("per month"), else None."""
        q = self.qualifier
        return q if q is not None and q.startswith("per ") else None


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
