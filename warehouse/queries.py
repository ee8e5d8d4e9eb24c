"""Read queries for the CLI: each returns (columns, rows) from a .sql file."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import duckdb

from evidence_base.errors import QueryError, first_line
from evidence_base.words import AlertKind, DueReason
from extractors.grading import urgency
from extractors.values import Freshness, Grade
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

Result = tuple[list[str], list[tuple[Any, ...]]]


def run(con: duckdb.DuckDBPyConnection, name: str, **params: Any) -> Result:
    cur = con.execute(sql_file(name), params or None)
    columns = [d[0] for d in cur.description or ()]
    return columns, cur.fetchall()


SQL_BATCH = 1000  # rows fetched from DuckDB at a time by `evidence sql`


class UserRows:
    """The rows of a user's query, fetched a batch at a time as they are read, up to
    `limit` of them (None: all); `cut` says, once read, that more rows were left."""

    def __init__(
        self, cursor: duckdb.DuckDBPyConnection, columns: list[str], limit: int | None
    ) -> None:
        self.columns = columns
        self.cut = False
        self._cursor = cursor
        self._limit = limit

    def batches(self) -> Iterator[list[tuple[Any, ...]]]:
        if not self.columns:  # a statement with no result
            return
        left = self._limit
        while left is None or left > 0:
            size = SQL_BATCH if left is None else min(SQL_BATCH, left)
            rows = self._fetch(size)
            if not rows:
                return
            if left is not None:
                left -= len(rows)
            yield rows
        self.cut = bool(self._fetch(1))

    def _fetch(self, size: int) -> list[tuple[Any, ...]]:
        try:
            return self._cursor.fetchmany(size)
        except duckdb.Error as e:
            raise QueryError(f"sql error: {first_line(e)}") from None


def stream_user_query(
    con: duckdb.DuckDBPyConnection, query: str, limit: int | None = None
) -> UserRows:
    """A user's query, as typed, on a connection that may only read the warehouse, its
    rows streamed (see run_user_query for what it may not do)."""
    cursor = _start_user_query(con, query)
    columns = [d[0] for d in cursor.description or ()]
    return UserRows(cursor, columns, limit)


def run_user_query(con: duckdb.DuckDBPyConnection, query: str) -> Result:
    """A user's query, as typed, on a connection that may only read the warehouse (no
    files, no ATTACH, no settings changes); a failure is a QueryError of one line."""
    rows = stream_user_query(con, query)
    return rows.columns, [r for batch in rows.batches() for r in batch]


def _start_user_query(con: duckdb.DuckDBPyConnection, query: str) -> duckdb.DuckDBPyConnection:
    try:
        statements = con.extract_statements(query)
    except duckdb.Error as e:
        raise QueryError(f"sql error: {first_line(e)}") from None
    if not statements:
        raise QueryError('no SQL statement to run: give one, e.g. evidence sql "SELECT 1"')
    if len(statements) > 1:
        raise QueryError(f"evidence sql runs one statement at a time; this holds {len(statements)}")
    try:
        locked = con.execute("SELECT current_setting('lock_configuration')").fetchone()
        if not (locked and locked[0]):  # a reader is locked down already (warehouse/db.py)
            con.execute("SET enable_external_access = false")
            con.execute("SET enable_progress_bar = false")  # rows go to stdout, not a bar
            con.execute("SET lock_configuration = true")
        return con.execute(query)
    except duckdb.Error as e:
        message = first_line(e)
        if "read-only" in message or "read only" in message:
            message += " (evidence sql is read-only)"
        raise QueryError(f"sql error: {message}") from None


def status(con: duckdb.DuckDBPyConnection) -> Result:
    """One row per record, what needs a person first (extractors.grading.urgency)."""
    columns, rows = run(con, "status.sql")
    grade, freshness, record = (columns.index(c) for c in ("grade", "freshness", "record_id"))
    rows.sort(key=lambda r: (urgency(r[grade], r[freshness]), r[record]))
    return columns, rows


def sources(con: duckdb.DuckDBPyConnection, failing: bool = False) -> Result:
    """Source health, one row per source (`failing`: those whose last attempt failed)."""
    return run(con, "sources.sql", failing=failing)


def alerts(
    con: duckdb.DuckDBPyConnection,
    everything: bool = False,
    kind: str | None = None,
    since: datetime | None = None,
) -> Result:
    """The messages kept: the open unreachable alerts' newest, then those the newest run
    raised (or, `everything`, all of them, newest first); of one kind, raised since."""
    return run(con, "alerts.sql", everything=everything, kind=kind, since=since)


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
    row = con.execute("SELECT 1 FROM store.records WHERE record_id = ?", [record_id]).fetchone()
    return row is not None


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
        sources=rows_as(
            SourceHealthRow,
            con.execute("SELECT * FROM source_health WHERE record_id = ?", [record_id]),
        ),
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
    known = con.execute(
        "SELECT 1 FROM duckdb_tables() WHERE schema_name = 'store' "
        "AND table_name = 'catalog_origin'"
    ).fetchone()
    if known is None:
        return None, held
    row = con.execute("SELECT config_dir FROM store.catalog_origin").fetchone()
    return (row[0] if row else None), held


def record_ids(con: duckdb.DuckDBPyConnection) -> list[str]:
    return [r for (r,) in con.execute("SELECT record_id FROM store.records").fetchall()]


def snapshot_history(
    con: duckdb.DuckDBPyConnection, record_id: str, source_id: str | None
) -> dict[str, list[dict[str, Any]]]:
    """Per source of the record (or the one named), its snapshots oldest first:
    snapshot_id, fetched_at, text. Empty when the record has no such source."""
    cur = con.execute(
        "SELECT s.source_id, n.snapshot_id, n.fetched_at, coalesce(n.text, '') AS text "
        "FROM store.sources s LEFT JOIN snapshots n USING (record_id, source_id) "
        "WHERE s.record_id = ? AND (? IS NULL OR s.source_id = ?) "
        "ORDER BY s.position, n.snapshot_id",
        [record_id, source_id, source_id],
    )
    history: dict[str, list[dict[str, Any]]] = {}
    for source, snapshot_id, fetched_at, text in cur.fetchall():
        rows = history.setdefault(source, [])
        if snapshot_id is not None:
            rows.append({"snapshot_id": snapshot_id, "fetched_at": fetched_at, "text": text})
    return history


def snapshot_extracts(
    con: duckdb.DuckDBPyConnection, snapshot_id: int
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The figures (kind, value, value_end, unit, currency, qualifier, raw) and statuses
    (status, phrase) read from one snapshot."""
    numbers = con.execute(
        "SELECT kind, value, value_end, unit, currency, qualifier, raw FROM quoted_numbers "
        "WHERE snapshot_id = ?",
        [snapshot_id],
    ).fetchall()
    statuses = con.execute(
        "SELECT status, phrase FROM statuses WHERE snapshot_id = ?", [snapshot_id]
    ).fetchall()
    return numbers, statuses


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
        row = con.execute("SELECT catalog_uuid FROM store.identity").fetchone()
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
    return rows_as(SourceHealthRow, con.execute("SELECT * FROM source_health"))


def failing_since(
    con: duckdb.DuckDBPyConnection, record_id: str
) -> dict[str, tuple[str, datetime]]:
    """The record's sources whose page fails now: their last outcome and since when."""
    rows = con.execute(
        "SELECT source_id, last_outcome, failing_since FROM store.source_health_base"
        " WHERE record_id = ? AND failing_since IS NOT NULL",
        [record_id],
    ).fetchall()
    return {source: (outcome, since) for source, outcome, since in rows}
