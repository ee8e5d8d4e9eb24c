"""Rows the warehouse stores and reads back: plain frozen values, built by keyword.

flows/ builds the rows it writes; the warehouse reads its own rows into these too, by
column name, never by position."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from evidence_base.words import Render, Role
from extractors.values import CheckOutcome, Outcome, QuotedNumber, StatusMention, Via, reading_hash


@dataclass(frozen=True, slots=True)
class RecordRow:
    record_id: str
    title: str
    window_s: int
    fields: tuple[tuple[str, str], ...]
    config_file: str


@dataclass(frozen=True, slots=True)
class SourceRow:
    record_id: str
    source_id: str
    url: str
    role: Role


@dataclass(frozen=True, slots=True)
class ClaimRow:
    record_id: str
    claim_id: str
    quote: str
    status: str | None
    source_ids: tuple[str, ...] | None
    figure: int | None = None  # the quote's figure watched, 1-based (None: the first)
    expect: str | None = None  # the claim's `expect:` (extractors.conditions.Expect.to_json)


@dataclass(frozen=True, slots=True)
class PageRow:
    """One distinct body with what the extractors read from it."""

    content_hash: str
    body_z: bytes  # the raw body, compressed (warehouse/bodies.py)
    size: int  # bytes of the raw body
    content_type: str | None
    encoding: str | None
    title: str | None
    text: str
    extractor_version: str
    numbers: tuple[QuotedNumber, ...]
    statuses: tuple[StatusMention, ...]
    app_shell: bool = False  # no text until JavaScript runs (extractors.soft.is_app_shell)
    text_hash: str = ""  # reading_hash(title, text), made when not given
    fingerprint: bytes | None = None  # extractors.fingerprint.make; None: always read again
    published_on: date | None = None  # the page's own dates (extractors/dates.py)
    modified_on: date | None = None
    read_partly: str | None = None  # what was left unread (extractors.page.PageExtraction)

    def __post_init__(self) -> None:
        if not self.text_hash:
            object.__setattr__(self, "text_hash", reading_hash(self.title, self.text))


@dataclass(frozen=True, slots=True)
class FetchRow:
    """One attempt for one source; content_hash set when it produced a body.

    The one list of what a fetch row holds: the refresh fills it from an attempt by these
    names, and the warehouse stores it by them."""

    record_id: str
    source_id: str
    url: str
    started_at: datetime
    elapsed_ms: int
    outcome: Outcome
    http_status: int | None = None
    error: str | None = None
    via: Via = Via.LIVE
    fetched_at: datetime | None = None  # an archived copy's capture time; else started_at
    content_hash: str | None = None
    etag: str | None = None
    last_modified: str | None = None
    final_url: str | None = None
    render: Render = Render.HTTP


@dataclass(frozen=True, slots=True)
class SourceState:
    """What the warehouse knows of a source before a refresh."""

    snapshot_id: int
    content_hash: str
    etag: str | None
    last_modified: str | None
    text_hash: str | None = None  # of the snapshot's page (title and main text)


@dataclass(frozen=True, slots=True)
class PendingCheck:
    record_id: str
    claim_id: str
    source_id: str
    snapshot_id: int
    quote: str
    content_hash: str
    status: str | None = None  # the claim's `status:`
    figure: int | None = None
    title: str = ""  # the record's: what a status claim is about


@dataclass(frozen=True, slots=True)
class CheckRow:
    record_id: str
    claim_id: str
    source_id: str
    snapshot_id: int
    quote: str
    outcome: CheckOutcome
    found_text: str | None
    found_values: tuple[float, ...]
    closest_text: str | None = None
    closest_score: int | None = None
    claim_status: str | None = None  # the claim's `status:` it was checked for
    figure: int | None = None
    found_status: str | None = None
    value: float | None = None  # the claim's value on the page (extractors.claim_values)
    unit: str | None = None
    currency: str | None = None
    value_status: str | None = None
    value_text: str | None = None


@dataclass(frozen=True, slots=True)
class ReviewCandidate:
    """A new primary snapshot not yet looked at, beside the last one that counted."""

    record_id: str
    source_id: str
    snapshot_id: int
    previous_id: int | None
    previous_chars: int
    chars: int
    previously_confirmed: int
    confirmed: int


@dataclass(frozen=True, slots=True)
class Review:
    """A look at a new primary snapshot: held (with the reason) or passed (reason None)."""

    record_id: str
    source_id: str
    snapshot_id: int
    reason: str | None


@dataclass(frozen=True, slots=True)
class StoredBody:
    """A stored page's compressed body, with the URL and time it was first fetched."""

    content_hash: str
    body_z: bytes
    content_type: str | None
    encoding: str | None
    fetched_at: datetime
    url: str
