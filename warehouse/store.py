"""Writes and the reads the refresh needs: the catalog, fetches and snapshots, claim
checks, reviews and grades. Every value is bound as a parameter."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from datetime import datetime

import duckdb

from evidence_base.pause import pause_point
from extractors.values import Outcome, Via
from warehouse import pages
from warehouse.conditions import grade_conditions
from warehouse.db import field_values, insert_rows, rows_as, sql_file, transaction
from warehouse.rows import (
    CheckRow,
    ClaimRow,
    FetchRow,
    PageRow,
    PendingCheck,
    RecordRow,
    Review,
    ReviewCandidate,
    SourceRow,
    SourceState,
)
from warehouse.snapshot_identity import Capture, Key, NewSnapshot, plan_snapshots

# The columns of store.fetches a FetchRow fills (its content_hash is stored as the page of
# the snapshot the fetch points at, not in the fetch's row).
_FETCH_FIELDS = tuple(f.name for f in fields(FetchRow) if f.name != "content_hash")
_SNAPSHOT_FIELDS = tuple(f.name for f in fields(NewSnapshot))
# The rules checks are made by: a check made by others (before claims had values) is
# made again; pending_checks.sql and grade.sql read only checks of these rules.
CHECK_RULES = 2


def source_ids(con: duckdb.DuckDBPyConnection, record_id: str) -> set[str]:
    """The sources a stored record has (none: no such record)."""
    return {
        s
        for (s,) in con.execute(
            "SELECT source_id FROM store.sources WHERE record_id = ?", [record_id]
        ).fetchall()
    }


def sync_schedule(
    con: duckdb.DuckDBPyConnection,
    interval_s: float,
    margin_s: float,
    threshold: float,
    dead_after_s: float = 3 * 86400,
) -> None:
    """The schedule the due rule plans by (store.source_due), and when a failing source is
    dead (store.source_health_base), as settings give them now."""
    con.execute("DELETE FROM store.schedule")
    con.execute(
        "INSERT INTO store.schedule (interval_s, margin_s, change_threshold, dead_after_s)"
        " VALUES (?, ?, ?, ?)",
        [interval_s, margin_s, threshold, dead_after_s],
    )


def sync_catalog(
    con: duckdb.DuckDBPyConnection,
    records: Sequence[RecordRow],
    sources: Sequence[SourceRow],
    claims: Sequence[ClaimRow],
    config_dir: str | None = None,
    now: datetime | None = None,
) -> None:
    """Replace the stored catalog with the config just loaded (history is kept), and
    remember the config directory it came from."""
    with transaction(con):
        if config_dir is not None:
            con.execute("DELETE FROM store.catalog_origin")
            con.execute(
                "INSERT INTO store.catalog_origin VALUES (?, coalesce(?, now()))",
                [config_dir, now],
            )
        con.execute("DELETE FROM store.records")
        con.execute("DELETE FROM store.sources")
        con.execute("DELETE FROM store.claims")
        insert_rows(
            con,
            "store.records",
            [
                {
                    **field_values(r, leave=("fields",)),
                    "fields": [{"name": k, "value": v} for k, v in r.fields],
                    "position": i,
                }
                for i, r in enumerate(records)
            ],
        )
        insert_rows(
            con,
            "store.sources",
            [{**field_values(s), "position": i} for i, s in enumerate(sources)],
        )
        insert_rows(
            con,
            "store.claims",
            [
                {
                    **field_values(c, leave=("source_ids",)),
                    "source_ids": list(c.source_ids) if c.source_ids is not None else None,
                    "position": i,
                }
                for i, c in enumerate(claims)
            ],
        )


def source_states(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, str], SourceState]:
    """Per (record, source): its newest snapshot and the validators that fetched it."""
    cursor = con.execute(
        """
        WITH newest AS (
            SELECT record_id, source_id, arg_max(snapshot_id, snapshot_id) AS snapshot_id
            FROM store.snapshots WHERE via = 'live' GROUP BY ALL
        )
        SELECT n.record_id, n.source_id, n.snapshot_id, s.content_hash, p.text_hash,
               arg_max(f.etag, f.fetch_id) AS etag,
               arg_max(f.last_modified, f.fetch_id) AS last_modified
        FROM newest n
        JOIN store.snapshots s USING (snapshot_id)
        LEFT JOIN store.pages p USING (content_hash)
        LEFT JOIN store.fetches f
          ON f.snapshot_id = n.snapshot_id AND f.outcome = 'ok' AND f.via = 'live'
        GROUP BY ALL
        """
    )
    columns = [d[0] for d in cursor.description or ()]
    states = {}
    for values in cursor.fetchall():
        row = dict(zip(columns, values, strict=True))
        states[(row["record_id"], row["source_id"])] = SourceState(
            snapshot_id=row["snapshot_id"],
            content_hash=row["content_hash"],
            etag=row["etag"],
            last_modified=row["last_modified"],
            text_hash=row["text_hash"],
        )
    return states


@dataclass(frozen=True, slots=True)
class Written:
    """What storing a batch of fetches added."""

    snapshots: int  # new snapshots
    states: dict[Key, SourceState]  # each source fetched live (the others are as they were)


def write_fetches(
    con: duckdb.DuckDBPyConnection,
    run_id: str,
    new_pages: Sequence[PageRow],
    fetches: Sequence[FetchRow],
    states: Mapping[Key, SourceState],
    same_as: Mapping[str, str] | None = None,
) -> Written:
    """Store new snapshots, the pages they rest on and every attempt, in one short
    transaction; `states`: each source's newest snapshot before the batch.

    Which fetch makes a new snapshot is warehouse/snapshot_identity.py's to say: a body
    read the same as the source's newest snapshot, or not read at all because it cannot
    read differently (`same_as`: body digest -> the stored page it reads like), adds no
    snapshot and no page, as a 304 does not.
    """
    same_as = same_as or {}
    fresh = {p.content_hash: p for p in new_pages}
    wanted = {same_as.get(f.content_hash, f.content_hash) for f in fetches if f.content_hash}
    reading = pages.readings(con, wanted - fresh.keys())
    reading.update((h, p.text_hash) for h, p in fresh.items())
    with transaction(con):
        fetch_ids = _ids(con, "store.fetch_ids", len(fetches))
        plan = plan_snapshots(states, fetches, reading, same_as, _archived(con, fetches, same_as))
        # A body read the same as a stored page by an older extractor: its reading (and
        # raw page) replaces that page's, so that what the snapshot shows is read by the
        # current extractor. Read the same by this one: the newer fingerprint is kept.
        alike = {new: old for new, old in plan.read_alike.items() if new in fresh}
        versions = pages.versions(con, alike.values())
        current = {p.extractor_version for p in fresh.values()}
        pages.write_pages(
            con,
            [p for h, p in fresh.items() if h in plan.used]
            + [
                replace(fresh[new], content_hash=old)
                for new, old in alike.items()
                if versions.get(old) not in current
            ],
        )
        pages.refit(
            con,
            {
                old: print_
                for new, old in alike.items()
                if versions.get(old) in current and (print_ := fresh[new].fingerprint)
            },
        )
        ids = _ids(con, "store.snapshot_ids", len(plan.added))
        insert_rows(
            con,
            "store.snapshots",
            [
                {"snapshot_id": i, **{name: getattr(s, name) for name in _SNAPSHOT_FIELDS}}
                for i, s in zip(ids, plan.added, strict=True)
            ],
        )
        pause_point("write")  # (the kill tests: pages and snapshots in, fetches not yet)
        snapshot_ids = plan.snapshot_ids(ids)
        insert_rows(
            con,
            "store.fetches",
            [
                {
                    **{name: getattr(f, name) for name in _FETCH_FIELDS},
                    "fetch_id": fetch_id,
                    "run_id": run_id,
                    "snapshot_id": snapshot_id,
                    # the time a snapshot's content is evidence for: none without one
                    "fetched_at": (f.fetched_at or f.started_at)
                    if snapshot_id is not None
                    else None,
                }
                for fetch_id, f, snapshot_id in zip(fetch_ids, fetches, snapshot_ids, strict=True)
            ],
        )
    return Written(snapshots=len(plan.added), states=plan.states(ids))


def _ids(con: duckdb.DuckDBPyConnection, sequence: str, count: int) -> list[int]:
    """`count` fresh values of a sequence in one query."""
    if count == 0:
        return []
    # nextval takes the sequence's name as a constant; the names are ours, never input
    rows = con.execute(f"SELECT nextval('{sequence}') FROM range(?)", [count]).fetchall()  # noqa: S608
    return [r[0] for r in rows]


def _archived(
    con: duckdb.DuckDBPyConnection, fetches: Sequence[FetchRow], same_as: Mapping[str, str]
) -> dict[Capture, int]:
    """The archived snapshot already kept for each capture the batch fetched, if any."""
    captures = {
        (f.record_id, f.source_id, same_as.get(f.content_hash, f.content_hash), f.fetched_at)
        for f in fetches
        if f.via == Via.ARCHIVED and f.outcome == Outcome.OK and f.content_hash and f.fetched_at
    }
    kept = {}
    for capture in captures:
        row = con.execute(
            "SELECT max(snapshot_id) FROM store.snapshots WHERE record_id = ? AND source_id = ? "
            "AND via = 'archived' AND content_hash = ? AND fetched_at = ?",
            list(capture),
        ).fetchone()
        if row is not None and row[0] is not None:
            kept[capture] = row[0]
    return kept


def pending_checks(
    con: duckdb.DuckDBPyConnection, hashes: Collection[str] | None = None
) -> list[PendingCheck]:
    """Claim x newest-snapshot pairs with no stored check for the claim's current quote
    (only those of pages with these content hashes, when given)."""
    only = sorted(set(hashes)) if hashes is not None else None
    return rows_as(PendingCheck, con.execute(sql_file("pending_checks.sql"), {"hashes": only}))


def write_checks(con: duckdb.DuckDBPyConnection, checks: Sequence[CheckRow]) -> None:
    with transaction(con):
        insert_rows(
            con,
            "store.checks",
            [
                {
                    **field_values(c, leave=("found_values",)),
                    "found_values": list(c.found_values),
                    "rules": CHECK_RULES,
                }
                for c in checks
            ],
        )
        if checks:  # a check made before claims had values gives way to its remake
            con.execute(
                "DELETE FROM store.checks o WHERE o.rules IS NULL"
                " AND list_contains($ids, o.snapshot_id) AND EXISTS ("
                "  SELECT 1 FROM store.checks n WHERE n.rules = $rules"
                "  AND n.record_id = o.record_id AND n.claim_id = o.claim_id"
                "  AND n.source_id = o.source_id AND n.snapshot_id = o.snapshot_id"
                "  AND n.quote = o.quote)",
                {"ids": sorted({c.snapshot_id for c in checks}), "rules": CHECK_RULES},
            )


def review_candidates(con: duckdb.DuckDBPyConnection) -> list[ReviewCandidate]:
    """Every new primary snapshot not yet looked at, beside the last one that counted."""
    return rows_as(ReviewCandidate, con.execute(sql_file("review_candidates.sql")))


def write_reviews(con: duckdb.DuckDBPyConnection, reviews: Sequence[Review], now: datetime) -> None:
    with transaction(con):
        insert_rows(
            con,
            "store.snapshot_reviews",
            [{**field_values(r), "flagged_at": now, "accepted_at": None} for r in reviews],
        )


def accept_review(
    con: duckdb.DuckDBPyConnection, record_id: str, source_id: str, now: datetime
) -> int:
    """Accept every held snapshot of a source; returns how many."""
    with transaction(con):
        held = con.execute(
            "SELECT count(*) FROM store.held_snapshots WHERE record_id = ? AND source_id = ?",
            [record_id, source_id],
        ).fetchone()
        count = held[0] if held else 0
        con.execute(
            "UPDATE store.snapshot_reviews SET accepted_at = ? WHERE record_id = ? "
            "AND source_id = ? AND reason IS NOT NULL AND accepted_at IS NULL",
            [now, record_id, source_id],
        )
    return count


def grade_all(con: duckdb.DuckDBPyConnection) -> None:
    """Recompute every claim's and record's grade and freshness, all at once."""
    with transaction(con):
        con.execute(sql_file("grade.sql"))  # the current checks, the claims' values over time
        con.execute(sql_file("grade_rules.sql"))  # the rules, over what grade.sql points them at
        con.execute(sql_file("grade_store.sql"))  # the grades, stored
        pause_point("values")  # (the kill tests: values written, not yet committed)
        grade_conditions(con)
        pause_point("grade")
