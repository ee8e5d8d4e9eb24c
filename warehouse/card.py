"""What the record card reads, typed: one frozen dataclass per query of it
(warehouse/sql/card_*.sql and the source_health view), one field per column, built by
column name (warehouse.db.rows_as), so that a column renamed on one side only fails
where it is read, not later in a template."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from evidence_base.words import Role
from extractors.conditions import Condition
from extractors.values import CheckOutcome, Freshness, Grade


@dataclass(frozen=True, slots=True)
class CardRecord:
    """The record itself (card_record.sql): its fields, window and grade."""

    record_id: str
    title: str
    fields: list[dict[str, Any]] | None  # {"name", "value"} each, in the file's order
    window_s: int
    grade: Grade
    sources_confirming: int
    checked_at: datetime | None
    stale_on: datetime | None
    freshness: Freshness
    via: str | None
    sources: int  # configured, confirming or not


@dataclass(frozen=True, slots=True)
class ClaimState:
    """A claim's grade and condition (card_claims.sql, of claim_status)."""

    claim_id: str
    quote: str
    status: str | None  # the status it states, for a status claim
    grade: Grade
    checked_at: datetime | None
    confirming_sources: list[str] | None
    found_values: list[float] | None
    condition: Condition | None  # None: it expects nothing
    condition_detail: str | None


NOT_FETCHED = "not fetched"  # a check's outcome before its source's first page


@dataclass(frozen=True, slots=True)
class SourceCheck:
    """One source's check of one claim (card_checks.sql), with its page's own dates."""

    claim_id: str
    source_id: str
    role: Role
    outcome: CheckOutcome | str  # a CheckOutcome, or NOT_FETCHED
    found_text: str | None
    found_values: list[float] | None
    checked_at: datetime | None
    published_on: date | None
    modified_on: date | None
    closest_text: str | None  # for an absent quote, the page's nearest passage
    closest_score: int | None
    found_status: str | None
    counts: bool = True  # false: its source is dead, its page no longer counts


@dataclass(frozen=True, slots=True)
class ParsedExtract:
    """A figure or a status read from a source's newest page (card_extracts.sql)."""

    source_id: str
    what: str  # "number" or "status"
    kind: str  # a figure's kind (extractors.values.NumberKind), or the status
    value: float | None
    value_end: float | None
    unit: str | None
    currency: str | None
    qualifier: str | None
    date_from: date | None
    date_to: date | None
    raw: str  # as written; a status's phrase
    sentence: str | None
    subject: str | None


@dataclass(frozen=True, slots=True)
class SourceHealthRow:
    """A row of the source_health view: a source's last attempts and when it is due."""

    record_id: str
    source_id: str
    url: str
    role: Role
    last_attempt_at: datetime | None
    last_ok_at: datetime | None
    last_outcome: str | None  # None: never fetched
    last_http_status: int | None
    consecutive_failures: int
    reachable: bool
    failing_since: datetime | None  # its first failed fetch since it last answered
    dead_since: datetime | None  # when it was found dead; None while it is alive
    needs_review: str | None  # why its newest page is held, or needs a browser
    needs_browser: bool
    next_due: datetime | None
    change_rate: float | None


@dataclass(frozen=True, slots=True)
class SourceOrigin:
    """Where a source's evidence comes from (card_origins.sql)."""

    source_id: str
    url: str
    role: Role
    accessed_at: datetime | None
    published_on: date | None
    modified_on: date | None
    archived_url: str | None  # the newest archived copy of its URL
    archived_at: datetime | None


@dataclass(frozen=True, slots=True)
class ShownValue:
    """A value a source has shown for a claim, and while (card_values.sql)."""

    claim_id: str
    source_id: str
    value: float | None
    unit: str | None
    currency: str | None
    status: str | None
    text: str | None
    first_seen_at: datetime
    last_seen_at: datetime
    current: bool


@dataclass(frozen=True, slots=True)
class Card:
    """Everything the record card shows, each list in its query's order."""

    record: CardRecord
    claims: list[ClaimState]
    checks: list[SourceCheck]  # by claim, then source
    extracts: list[ParsedExtract]
    sources: list[SourceHealthRow]
    origins: list[SourceOrigin]
    values: list[ShownValue]  # by claim and source, oldest first
