"""Writes and the reads the refresh needs. Every value is bound as a parameter."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import datetime

import duckdb

from warehouse.db import sql_file
from warehouse.rows import (
    CheckRow,
    ClaimRow,
    FetchRow,
    PageRow,
    PendingCheck,
    RecordRow,
    SourceRow,
    SourceState,
)

SUCCESS = ("ok", "not_modified")


def sync_catalog(
    con: duckdb.DuckDBPyConnection,
    records: Sequence[RecordRow],
    sources: Sequence[SourceRow],
    claims: Sequence[ClaimRow],
) -> None:
    """Replace the stored catalog with the config just loaded (history is kept)."""
    with transaction(con):
        con.execute("DELETE FROM store.records")
        con.execute("DELETE FROM store.sources")
        con.execute("DELETE FROM store.claims")
        _insert(
            con,
            "store.records",
            6,
            [
                (
                    r.record_id,
                    r.title,
                    r.window_s,
                    [{"name": k, "value": v} for k, v in r.fields],
                    r.config_file,
                    i,
                )
                for i, r in enumerate(records)
            ],
        )
        _insert(
            con,
            "store.sources",
            5,
            [(s.record_id, s.source_id, s.url, s.role, i) for i, s in enumerate(sources)],
        )
        _insert(
            con,
            "store.claims",
            6,
            [
                (
                    c.record_id,
                    c.claim_id,
                    c.quote,
                    c.status,
                    list(c.source_ids) if c.source_ids is not None else None,
                    i,
                )
                for i, c in enumerate(claims)
            ],
        )


def source_states(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, str], SourceState]:
    """Per (record, source): its newest snapshot and the validators that fetched it."""
    rows = con.execute(
        """
        WITH newest AS (
            SELECT record_id, source_id, arg_max(snapshot_id, snapshot_id) AS snapshot_id
            FROM store.snapshots WHERE via = 'live' GROUP BY ALL
        )
        SELECT n.record_id, n.source_id, n.snapshot_id, s.content_hash,
               arg_max(f.etag, f.fetch_id), arg_max(f.last_modified, f.fetch_id)
        FROM newest n
        JOIN store.snapshots s USING (snapshot_id)
        LEFT JOIN store.fetches f
          ON f.snapshot_id = n.snapshot_id AND f.outcome = 'ok' AND f.via = 'live'
        GROUP BY ALL
        """
    ).fetchall()
    return {(r[0], r[1]): SourceState(r[2], r[3], r[4], r[5]) for r in rows}


def missing_pages(
    con: duckdb.DuckDBPyConnection, hashes: Iterable[str], extractor_version: str
) -> set[str]:
    """The hashes with no stored extraction of this extractor version."""
    wanted = sorted(set(hashes))
    if not wanted:
        return set()
    have = con.execute(
        "SELECT content_hash FROM store.pages "
        "WHERE list_contains(?, content_hash) AND extractor_version = ?",
        [wanted, extractor_version],
    ).fetchall()
    return set(wanted) - {h for (h,) in have}


def write_fetches(
    con: duckdb.DuckDBPyConnection,
    run_id: str,
    pages: Sequence[PageRow],
    fetches: Sequence[FetchRow],
    states: dict[tuple[str, str], SourceState],
) -> int:
    """Store pages, new snapshots and every attempt in one short transaction.

    A body equal to the source's newest snapshot adds no snapshot; a 304 points
    at the newest snapshot. Updates `states` in place; returns new snapshots.
    """
    with transaction(con):
        _write_pages(con, pages)
        ids = _ids(con, "store.fetch_ids", len(fetches))
        snapshots: list[tuple] = []
        fetch_rows = []
        for fetch_id, f in zip(ids, fetches, strict=True):
            snapshot_id = _snapshot_for(con, f, states, snapshots)
            vouched = (f.evidence_at or f.started_at) if snapshot_id is not None else None
            fetch_rows.append(
                (
                    fetch_id,
                    run_id,
                    f.record_id,
                    f.source_id,
                    f.url,
                    f.started_at,
                    f.elapsed_ms,
                    f.outcome,
                    f.http_status,
                    f.error,
                    snapshot_id,
                    f.via,
                    vouched,
                    f.etag,
                    f.last_modified,
                    f.final_url,
                )
            )
        new_ids = _ids(con, "store.snapshot_ids", len(snapshots))
        numbered = [(new_ids[i], *row[1:]) for i, row in enumerate(snapshots)]
        renumber = {row[0]: new for row, new in zip(snapshots, new_ids, strict=True)}
        _insert(con, "store.snapshots", 7, numbered)
        _insert(
            con,
            "store.fetches",
            16,
            [(*r[:10], renumber.get(r[10], r[10]), *r[11:]) for r in fetch_rows],
        )
        for key, state in list(states.items()):
            if state.snapshot_id in renumber:
                states[key] = SourceState(
                    renumber[state.snapshot_id], state.content_hash, state.etag, state.last_modified
                )
    return len(snapshots)


def _snapshot_for(
    con: duckdb.DuckDBPyConnection,
    f: FetchRow,
    states: dict[tuple[str, str], SourceState],
    snapshots: list[tuple],
) -> int | None:
    """The snapshot a fetch points at; a new body appends a snapshot with a provisional id
    (a negative number, replaced by a sequence value before insert)."""
    key = (f.record_id, f.source_id)
    state = states.get(key)
    if f.outcome == "not_modified":
        return state.snapshot_id if state is not None else None
    if f.outcome != "ok" or f.content_hash is None:
        return None
    if f.via == "archived":
        state = _archived_state(con, f)
    if state is not None and state.content_hash == f.content_hash:
        snapshot_id = state.snapshot_id
    else:
        snapshot_id = -(len(snapshots) + 1)
        snapshots.append(
            (
                snapshot_id,
                f.record_id,
                f.source_id,
                f.url,
                f.evidence_at or f.started_at,
                f.content_hash,
                f.via,
            )
        )
    if f.via == "live":
        states[key] = SourceState(snapshot_id, f.content_hash, f.etag, f.last_modified)
    return snapshot_id


def _ids(con: duckdb.DuckDBPyConnection, sequence: str, count: int) -> list[int]:
    """`count` fresh values of a sequence in one query."""
    if count == 0:
        return []
    rows = con.execute(f"SELECT nextval('{sequence}') FROM range(?)", [count]).fetchall()  # noqa: S608
    return [r[0] for r in rows]


def _archived_state(con: duckdb.DuckDBPyConnection, f: FetchRow) -> SourceState | None:
    """The archived snapshot already kept for this source and body, if any."""
    row = con.execute(
        "SELECT max(snapshot_id) FROM store.snapshots WHERE record_id = ? AND source_id = ? "
        "AND via = 'archived' AND content_hash = ? AND fetched_at = ?",
        [f.record_id, f.source_id, f.content_hash, f.evidence_at],
    ).fetchone()
    if row is None or row[0] is None:
        return None
    return SourceState(row[0], f.content_hash or "", None, None)


def _write_pages(con: duckdb.DuckDBPyConnection, pages: Sequence[PageRow]) -> None:
    if not pages:
        return
    hashes = [p.content_hash for p in pages]
    for table in ("store.pages", "store.page_numbers", "store.page_statuses"):
        con.execute(f"DELETE FROM {table} WHERE list_contains(?, content_hash)", [hashes])  # noqa: S608
    _insert(
        con,
        "store.pages",
        8,
        [
            (
                p.content_hash,
                p.body_z,
                p.size,
                p.content_type,
                p.encoding,
                p.title,
                p.text,
                p.extractor_version,
            )
            for p in pages
        ],
        per=25,  # bodies: a few MB a statement
    )
    _insert(
        con,
        "store.page_numbers",
        12,
        [
            (
                p.content_hash,
                i,
                n.kind.value,
                n.value,
                n.value_end,
                n.unit,
                n.currency,
                n.qualifier,
                n.date_from,
                n.date_to,
                n.raw,
                n.sentence,
            )
            for p in pages
            for i, n in enumerate(p.numbers)
        ],
    )
    _insert(
        con,
        "store.page_statuses",
        5,
        [
            (p.content_hash, i, s.status.value, s.phrase, s.sentence)
            for p in pages
            for i, s in enumerate(p.statuses)
        ],
    )


def stale_pages(
    con: duckdb.DuckDBPyConnection, extractor_version: str, everything: bool = False
) -> list[str]:
    """Hashes of stored pages read by another extractor version (or all of them)."""
    rows = con.execute(
        "SELECT content_hash FROM store.pages WHERE ? OR extractor_version <> ? "
        "ORDER BY content_hash",
        [everything, extractor_version],
    ).fetchall()
    return [h for (h,) in rows]


def stored_bodies(con: duckdb.DuckDBPyConnection, hashes: Sequence[str]) -> list[tuple]:
    """(hash, compressed body, content type, encoding, first fetched_at, url) per page."""
    return con.execute(
        "SELECT p.content_hash, p.body, p.content_type, p.encoding, min(s.fetched_at),"
        " arg_min(s.url, s.fetched_at)"
        " FROM store.pages p JOIN store.snapshots s USING (content_hash)"
        " WHERE list_contains(?, p.content_hash) GROUP BY ALL",
        [list(hashes)],
    ).fetchall()


def replace_pages(con: duckdb.DuckDBPyConnection, pages: Sequence[PageRow]) -> None:
    """New extractions of stored pages; their claim checks are dropped to be made again."""
    with transaction(con):
        _write_pages(con, pages)
        con.execute(
            "DELETE FROM store.checks WHERE snapshot_id IN (SELECT snapshot_id FROM "
            "store.snapshots WHERE list_contains(?, content_hash))",
            [[p.content_hash for p in pages]],
        )


def pending_checks(
    con: duckdb.DuckDBPyConnection, hashes: Collection[str] | None = None
) -> list[PendingCheck]:
    """Claim x newest-snapshot pairs with no stored check for the claim's current quote
    (only those of pages with these content hashes, when given)."""
    only = sorted(set(hashes)) if hashes is not None else None
    rows = con.execute(sql_file("pending_checks.sql"), {"hashes": only}).fetchall()
    return [PendingCheck(*r) for r in rows]


def page_texts(con: duckdb.DuckDBPyConnection, hashes: Iterable[str]) -> dict[str, str]:
    wanted = sorted(set(hashes))
    if not wanted:
        return {}
    rows = con.execute(
        "SELECT content_hash, coalesce(text, '') FROM store.pages "
        "WHERE list_contains(?, content_hash)",
        [wanted],
    ).fetchall()
    return dict(rows)


def write_checks(con: duckdb.DuckDBPyConnection, checks: Sequence[CheckRow]) -> None:
    with transaction(con):
        _insert(
            con,
            "store.checks",
            8,
            [
                (
                    c.record_id,
                    c.claim_id,
                    c.source_id,
                    c.snapshot_id,
                    c.quote,
                    c.outcome,
                    c.found_text,
                    list(c.found_values),
                )
                for c in checks
            ],
        )


def review_candidates(con: duckdb.DuckDBPyConnection) -> list[tuple]:
    """(record, source, snapshot, previous, previous_chars, chars, previously_confirmed,
    confirmed) for every new primary snapshot not yet looked at."""
    return con.execute(sql_file("review_candidates.sql")).fetchall()


def write_reviews(
    con: duckdb.DuckDBPyConnection,
    reviews: Sequence[tuple[str, str, int, str | None]],
    now: datetime,
) -> None:
    """(record, source, snapshot, reason or None for passed) rows."""
    with transaction(con):
        _insert(
            con,
            "store.snapshot_reviews",
            6,
            [(s, r, src, reason, now, None) for r, src, s, reason in reviews],
        )


def accept_review(
    con: duckdb.DuckDBPyConnection, record_id: str, source_id: str, now: datetime
) -> int:
    """Accept every held snapshot of a source; returns how many."""
    with transaction(con):
        (count,) = con.execute(
            "SELECT count(*) FROM store.held_snapshots WHERE record_id = ? AND source_id = ?",
            [record_id, source_id],
        ).fetchone()
        con.execute(
            "UPDATE store.snapshot_reviews SET accepted_at = ? WHERE record_id = ? "
            "AND source_id = ? AND reason IS NOT NULL AND accepted_at IS NULL",
            [now, record_id, source_id],
        )
    return count


def grade_all(con: duckdb.DuckDBPyConnection) -> None:
    """Recompute every claim's and record's grade and freshness, all at once."""
    with transaction(con):
        con.execute(sql_file("grade.sql"))


class transaction:
    """BEGIN ... COMMIT, or ROLLBACK on any error: nothing half-written."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con

    def __enter__(self) -> duckdb.DuckDBPyConnection:
        self.con.execute("BEGIN TRANSACTION")
        return self.con

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.con.execute("ROLLBACK" if exc_type else "COMMIT")


def _insert(
    con: duckdb.DuckDBPyConnection, table: str, width: int, rows: list[tuple], per: int = 2000
) -> None:
    """Bulk insert: each column bound as one list and unnested, `per` rows a statement.

    DuckDB holds several copies of a statement's bound lists while it runs: 250 pages in
    one statement (10 MB compressed) took 128 MB more memory and 0.23 s; by 25, 58 MB and
    0.13 s (bench/checkpoint.py --per).
    """
    if not rows:
        return
    if len(rows[0]) != width:
        raise ValueError(f"{table}: {len(rows[0])} columns given, {width} expected")
    values = ", ".join(f"unnest(${i + 1})" for i in range(width))
    for start in range(0, len(rows), per):
        columns = [list(column) for column in zip(*rows[start : start + per], strict=True)]
        con.execute(f"INSERT INTO {table} SELECT {values}", columns)
