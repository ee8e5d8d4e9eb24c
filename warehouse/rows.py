"""Rows the warehouse stores: plain frozen values built by flows/, written here."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from extractors.values import QuotedNumber, StatusMention


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
    role: str


@dataclass(frozen=True, slots=True)
class ClaimRow:
    record_id: str
    claim_id: str
    quote: str
    status: str | None
    source_ids: tuple[str, ...] | None


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


@dataclass(frozen=True, slots=True)
class FetchRow:
    """One attempt for one source; content_hash set when it produced a body."""

    record_id: str
    source_id: str
    url: str
    started_at: datetime
    elapsed_ms: int
    outcome: str
    http_status: int | None = None
    error: str | None = None
    via: str = "live"
    evidence_at: datetime | None = None
    content_hash: str | None = None
    etag: str | None = None
    last_modified: str | None = None
    final_url: str | None = None


@dataclass(frozen=True, slots=True)
class SourceState:
    """What the warehouse knows of a source before a refresh."""

    snapshot_id: int
    content_hash: str
    etag: str | None
    last_modified: str | None


@dataclass(frozen=True, slots=True)
class PendingCheck:
    record_id: str
    claim_id: str
    source_id: str
    snapshot_id: int
    quote: str
    content_hash: str


@dataclass(frozen=True, slots=True)
class CheckRow:
    record_id: str
    claim_id: str
    source_id: str
    snapshot_id: int
    quote: str
    outcome: str
    found_text: str | None
    found_values: tuple[float, ...]
