"""Read queries for the commands: each runs a .sql file of warehouse/sql/ and returns its
rows typed, as dataclasses bound to the columns by name (`rows_as`); a user's own query
is warehouse/user_sql.py's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import duckdb

from evidence_base.words import AlertKind, DueReason
from extractors.grading import urgency
from extractors.values import Freshness, Grade, Status
from warehouse.card import (
    Card,
    CardRecord,
    ClaimState,
    ParsedExtract,
    ShownValue,
    SourceCheck,
    SourceHealthRow,
    SourceOrigin,
)
from warehouse.db import rows_as, sql_file


@dataclass(frozen=True, slots=True)
class StatusRow:
    """A record in `evidence status`: its grade, how many sources confirm it, freshness."""

    record_id: str
    grade: str
    sources_confirming: int
    checked_at: datetime | None
    stale_on: datetime | None
    freshness: str


def status(con: duckdb.DuckDBPyConnection) -> list[StatusRow]:
    """One row per record, what needs a person first (extractors.grading.urgency)."""
    rows = rows_as(StatusRow, con.execute(sql_file("status.sql")))
    rows.sort(key=lambda r: (urgency(r.grade, r.freshness), r.record_id))
    return rows


@dataclass(frozen=True, slots=True)
class SourceStatusRow:
    """A source in `evidence sources`: its health, and where its capture stands."""

    record_id: str
    source_id: str
    role: str
    last_outcome: str | None
    last_http_status: int | None
    last_ok_at: datetime | None
    consecutive_failures: int
    reachable: bool | None
    needs_review: str | None
    archive: str | None
    url: str


def sources(con: duckdb.DuckDBPyConnection, failing: bool = False) -> list[SourceStatusRow]:
    """Source health, one row per source (`failing`: those whose last attempt failed)."""
    return rows_as(SourceStatusRow, con.execute(sql_file("sources.sql"), {"failing": failing}))


@dataclass(frozen=True, slots=True)
class AlertRow:
    """A message kept, as `evidence alerts` lists it."""

    raised_at: datetime | None
    kind: str
    record_id: str | None
    source_id: str | None
    title: str
    delivered_at: datetime | None
    body: str | None
    notification_id: int | None


def alerts(
    con: duckdb.DuckDBPyConnection,
    everything: bool = False,
    kind: str | None = None,
    since: datetime | None = None,
) -> list[AlertRow]:
    """The messages kept: the open unreachable alerts' newest, then those the newest run
    raised (or, `everything`, all of them, newest first); of one kind, raised since."""
    params = {"everything": everything, "kind": kind, "since": since}
    return rows_as(AlertRow, con.execute(sql_file("alerts.sql"), params))


@dataclass(frozen=True, slots=True)
class RunFailure:
    """A source whose live fetch failed in a run: its newest live attempt."""

    url: str
    record_id: str
    source_id: str
    outcome: str
    error: str | None


def run_failures(con: duckdb.DuckDBPyConnection, run_id: str) -> list[RunFailure]:
    """The sources whose live fetch failed in a run, by URL, record and source."""
    return rows_as(RunFailure, con.execute(sql_file("run_failures.sql"), {"run_id": run_id}))


@dataclass(frozen=True, slots=True)
class HeldPage:
    """A source's newest page, held for review (it does not count until accepted)."""

    record_id: str
    source_id: str
    reason: str


def held_pages(
    con: duckdb.DuckDBPyConnection, record_ids: list[str] | None = None
) -> list[HeldPage]:
    """The pages held for review now (of these records, when named), in the catalog's
    order."""
    return rows_as(
        HeldPage,
        con.execute(
            "SELECT h.record_id, h.source_id, h.reason"
            " FROM store.held_snapshots h JOIN store.latest_snapshots l USING (snapshot_id)"
            " JOIN store.sources s ON s.record_id = h.record_id AND s.source_id = h.source_id"
            " JOIN store.records r ON r.record_id = h.record_id"
            " WHERE $ids IS NULL OR list_contains($ids::VARCHAR[], h.record_id)"
            " ORDER BY r.position, s.position",
            {"ids": record_ids},
        ),
    )


@dataclass(frozen=True, slots=True)
class RunCounts:
    """A run's URLs, each counted once: new, unchanged and failed add up to urls."""

    urls: int
    new: int  # with a new snapshot
    unchanged: int  # a 304, or the same reading
    failed: int


def run_counts(con: duckdb.DuckDBPyConnection, run_id: str) -> RunCounts:
    """A run's URLs: in all, with a new snapshot, unchanged, failed."""
    (counts,) = rows_as(RunCounts, con.execute(sql_file("run_counts.sql"), {"run_id": run_id}))
    return counts


@dataclass(frozen=True, slots=True)
class Due:
    record_id: str
    source_id: str
    url: str
    why: DueReason | None  # None: not due
    reason: str | None  # its words, with their figures ("failing (3 in a row): ...")
    next_due: datetime | None
    change_rate: float | None


def due_sources(con: duckdb.DuckDBPyConnection) -> list[Due]:
    """Every source, with the reason a refresh --due now fetches it (None: it does not)."""
    return rows_as(Due, con.execute(sql_file("due_sources.sql")))


def has_record(con: duckdb.DuckDBPyConnection, record_id: str) -> bool:
    return con.execute(sql_file("has_record.sql"), {"record_id": record_id}).fetchone() is not None


def card(con: duckdb.DuckDBPyConnection, record_id: str) -> Card | None:
    """Everything the record card shows, or None when there is no such record."""
    params = {"record_id": record_id}
    heads = rows_as(CardRecord, con.execute(sql_file("card_record.sql"), params))
    if not heads:
        return None
    return Card(
        record=heads[0],
        claims=rows_as(ClaimState, con.execute(sql_file("card_claims.sql"), params)),
        checks=rows_as(SourceCheck, con.execute(sql_file("card_checks.sql"), params)),
        extracts=rows_as(ParsedExtract, con.execute(sql_file("card_extracts.sql"), params)),
        sources=rows_as(SourceHealthRow, con.execute(sql_file("source_health.sql"), params)),
        origins=rows_as(SourceOrigin, con.execute(sql_file("card_origins.sql"), params)),
        values=rows_as(ShownValue, con.execute(sql_file("card_values.sql"), params)),
    )


@dataclass(frozen=True, slots=True)
class RecordSummary:
    """A record after a refresh: its grade and freshness, what this run's fetches of its
    sources found, how many sources confirm it and when it goes stale."""

    record_id: str
    grade: Grade
    freshness: Freshness
    fetched: int  # its sources fetched in this run, with a page or a 304
    failed: int  # its sources whose fetch failed in this run
    sources_confirming: int
    stale_on: datetime | None


def run_summary(con: duckdb.DuckDBPyConnection, run_id: str) -> list[RecordSummary]:
    """One row per record after a refresh: grade, freshness, what this run's fetches found."""
    return rows_as(RecordSummary, con.execute(sql_file("run_summary.sql"), {"run_id": run_id}))


def served_catalog(con: duckdb.DuckDBPyConnection) -> tuple[str | None, list[str]]:
    """The config directory the stored catalog came from (None when the database never
    said: one written before it kept it), and the ids of the records it holds."""
    held = record_ids(con)
    known = con.execute(sql_file("has_catalog_origin.sql")).fetchone()
    if known is None:
        return None, held
    row = con.execute(sql_file("catalog_origin.sql")).fetchone()
    return (row[0] if row else None), held


def record_ids(con: duckdb.DuckDBPyConnection) -> list[str]:
    return [r for (r,) in con.execute(sql_file("record_ids.sql")).fetchall()]


@dataclass(frozen=True, slots=True)
class SnapshotText:
    """A snapshot of a source, as `evidence diff` compares them."""

    snapshot_id: int
    fetched_at: datetime
    text: str


@dataclass(frozen=True, slots=True)
class ExtractedFigure:
    """A figure read from a snapshot (a row of quoted_numbers)."""

    kind: str
    value: float | None
    value_end: float | None
    unit: str | None
    currency: str | None
    qualifier: str | None
    raw: str


@dataclass(frozen=True, slots=True)
class ExtractedStatus:
    """A status read from a snapshot (a row of statuses)."""

    status: Status
    phrase: str


def snapshot_history(
    con: duckdb.DuckDBPyConnection, record_id: str, source_id: str | None
) -> dict[str, list[SnapshotText]]:
    """Per source of the record (or the one named), its snapshots oldest first. Empty
    when the record has no such source."""
    cur = con.execute(
        sql_file("snapshot_history.sql"), {"record_id": record_id, "source_id": source_id}
    )
    history: dict[str, list[SnapshotText]] = {}
    for source, snapshot_id, fetched_at, text in cur.fetchall():
        rows = history.setdefault(source, [])
        if snapshot_id is not None:
            rows.append(SnapshotText(snapshot_id, fetched_at, text))
    return history


def snapshot_extracts(
    con: duckdb.DuckDBPyConnection, snapshot_id: int
) -> tuple[list[ExtractedFigure], list[ExtractedStatus]]:
    """The figures and statuses read from one snapshot."""
    at = {"snapshot_id": snapshot_id}
    return (
        rows_as(ExtractedFigure, con.execute(sql_file("snapshot_figures.sql"), at)),
        rows_as(ExtractedStatus, con.execute(sql_file("snapshot_statuses.sql"), at)),
    )


@dataclass(frozen=True, slots=True)
class SiteRecord:
    """A record as the site lists it: its status (record_status), when its grade or
    freshness last moved, and how many of its sources are unreachable."""

    record_id: str
    title: str
    grade: Grade
    sources_confirming: int
    checked_at: datetime | None
    stale_on: datetime | None
    freshness: Freshness
    via: str | None
    conditions: str | None
    last_change: datetime | None
    unreachable: int


def site_records(con: duckdb.DuckDBPyConnection) -> list[SiteRecord]:
    """Every record with its status, its last grade change and its unreachable sources."""
    return rows_as(
        SiteRecord,
        con.execute(
            # aggregates joined, not asked per record; health without the due rule
            "SELECT r.*, h.last_change, coalesce(u.n, 0) AS unreachable FROM record_status r "
            "LEFT JOIN (SELECT record_id, max(changed_at) AS last_change FROM grade_history "
            "GROUP BY ALL) h USING (record_id) "
            "LEFT JOIN (SELECT record_id, count(*) AS n FROM store.source_health_base "
            "WHERE NOT reachable AND last_attempt_at IS NOT NULL GROUP BY ALL) u "
            "USING (record_id) ORDER BY r.record_id"
        ),
    )


def newest_changes(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """By record: the title of the newest `changed:` message kept (it names the claim and
    its figures before and after); none from a database not yet upgraded."""
    kept = con.execute(
        "SELECT count(*) FROM duckdb_tables() WHERE schema_name = 'store' "
        "AND table_name = 'messages'"
    ).fetchone()
    if kept is None or kept[0] == 0:
        return {}
    rows = con.execute(
        "SELECT record_id, arg_max(title, notification_id) FROM store.messages "
        "WHERE kind = ? GROUP BY record_id",
        [AlertKind.CHANGED],
    ).fetchall()
    return {record_id: title for record_id, title in rows}


@dataclass(frozen=True, slots=True)
class GradeChange:
    """A record's grade or freshness from the moment it changed (grade_history)."""

    record_id: str
    grade: Grade
    freshness: Freshness
    changed_at: datetime


def grade_history(
    con: duckdb.DuckDBPyConnection, record_id: str | None = None
) -> list[GradeChange]:
    """Every record's changes (or one record's), each record's in the order they came."""
    return rows_as(
        GradeChange,
        con.execute(
            "SELECT * FROM grade_history WHERE $record_id IS NULL OR record_id = $record_id"
            " ORDER BY record_id, changed_at",
            {"record_id": record_id},
        ),
    )


@dataclass(frozen=True, slots=True)
class ChangedClaim:
    """A current check of a claim that found other numbers or another status."""

    record_id: str
    claim_id: str
    source_id: str
    snapshot_id: int | None
    found_text: str | None
    found_status: str | None
    status: str | None  # the status the claim says, for a status claim
    changed_at: datetime  # the first fetch of the page that shows the change


def changed_claims(con: duckdb.DuckDBPyConnection) -> list[ChangedClaim]:
    """Current claim checks that found other numbers or another status, each with when
    the change was first seen (the first fetch of the page that shows it)."""
    return rows_as(ChangedClaim, con.execute(sql_file("changed_claims.sql")))


def catalog_uuid(con: duckdb.DuckDBPyConnection) -> str | None:
    """The catalog's own id, made with its database (None in one older than it)."""
    try:
        row = con.execute(sql_file("catalog_uuid.sql")).fetchone()
    except duckdb.CatalogException:
        return None
    return str(row[0]) if row else None


@dataclass(frozen=True, slots=True)
class ValueChange:
    """A value a source showed for a claim after another one."""

    record_id: str
    claim_id: str
    source_id: str
    was: str
    now: str
    first_seen_at: datetime
    history: str  # the source's values of the claim, each with its dates


def value_moves(con: duckdb.DuckDBPyConnection) -> list[ValueChange]:
    """Each value a source showed for a claim after another (newest first), with the
    one before and the source's whole history of the claim, for the site's feed."""
    return rows_as(ValueChange, con.execute(sql_file("value_moves.sql")))


def source_health(con: duckdb.DuckDBPyConnection) -> list[SourceHealthRow]:
    """Every column of the source_health view, every source."""
    return rows_as(SourceHealthRow, con.execute(sql_file("source_health.sql"), {"record_id": None}))


def failing_since(
    con: duckdb.DuckDBPyConnection, record_id: str
) -> dict[str, tuple[str, datetime]]:
    """The record's sources whose page fails now: their last outcome and since when."""
    rows = con.execute(sql_file("failing_since.sql"), {"record_id": record_id}).fetchall()
    return {source: (outcome, since) for source, outcome, since in rows}
