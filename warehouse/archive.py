"""The capture queue (store.captures): what to send a web archive, what it answered.

A source is queued when a claim is first confirmed on its page, and again whenever the
page it rests on changes; one capture per URL and content. The sender
(flows/fetching/capture.py) takes what is due at the archive's rate and writes each
answer back at once, so that a crash between two captures loses none and sends none
twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import duckdb


@dataclass(frozen=True, slots=True)
class Capture:
    capture_id: int
    url: str
    attempts: int
    job_id: str | None


def queue(con: duckdb.DuckDBPyConnection, now: datetime) -> int:
    """Queue the newest page of each source a claim is confirmed on, or that a capture
    was queued for before (a page a claim rests on, changed); the number queued."""
    before = _count(con)
    con.execute(
        """
        INSERT INTO store.captures (capture_id, record_id, source_id, url, snapshot_id,
                                    content_hash, reason, queued_at, state)
        SELECT (SELECT coalesce(max(capture_id), 0) FROM store.captures)
                   + row_number() OVER (ORDER BY c.record_id, c.source_id),
               c.record_id, c.source_id, s.url, c.snapshot_id,
               s.content_hash,
               CASE WHEN EXISTS (SELECT 1 FROM store.captures k WHERE k.record_id = c.record_id
                                 AND k.source_id = c.source_id) THEN 'changed'
                    ELSE 'confirmed' END,
               $now, 'queued'
        FROM store.current_snapshots c JOIN store.snapshots s USING (snapshot_id)
        WHERE s.via = 'live'
          AND (EXISTS (SELECT 1 FROM store.checks k WHERE k.snapshot_id = c.snapshot_id
                       AND k.outcome = 'confirmed')
               OR EXISTS (SELECT 1 FROM store.captures k WHERE k.record_id = c.record_id
                          AND k.source_id = c.source_id))
          AND NOT EXISTS (SELECT 1 FROM store.captures k WHERE k.url = s.url
                          AND k.content_hash = s.content_hash)
        QUALIFY row_number() OVER (PARTITION BY s.url, s.content_hash
                                   ORDER BY c.record_id, c.source_id) = 1
        """,
        {"now": now},
    )
    return _count(con) - before


def _count(con: duckdb.DuckDBPyConnection) -> int:
    row = con.execute("SELECT count(*) FROM store.captures").fetchone()
    return int(row[0]) if row else 0


def waiting(con: duckdb.DuckDBPyConnection) -> int:
    """Captures not archived yet (queued, or sent and not finished)."""
    row = con.execute("SELECT count(*) FROM store.captures WHERE state <> 'archived'").fetchone()
    return int(row[0]) if row else 0


def sent_since(con: duckdb.DuckDBPyConnection, since: datetime) -> int:
    """Captures sent since `since` (the rate is counted over the last minute)."""
    row = con.execute("SELECT count(*) FROM store.captures WHERE sent_at > ?", [since]).fetchone()
    return int(row[0]) if row else 0


_COLUMNS = "SELECT capture_id, url, attempts, job_id FROM store.captures"


def waiting_on_archive(con: duckdb.DuckDBPyConnection, now: datetime) -> list[Capture]:
    """Sent captures whose job the archive has not finished, due to be asked after."""
    rows = con.execute(
        f"{_COLUMNS} WHERE state = 'pending' AND (next_at IS NULL OR next_at <= ?) "
        "ORDER BY capture_id",
        [now],
    ).fetchall()
    return [Capture(*row) for row in rows]


def due(con: duckdb.DuckDBPyConnection, now: datetime, limit: int) -> list[Capture]:
    """Captures to send now, in the order they were queued (a send cut short by a crash
    is sent again: nothing was answered for it)."""
    if limit <= 0:
        return []
    rows = con.execute(
        f"{_COLUMNS} WHERE state IN ('queued', 'sending') AND (next_at IS NULL OR next_at <= ?) "
        "ORDER BY capture_id LIMIT ?",
        [now, limit],
    ).fetchall()
    return [Capture(*row) for row in rows]


def sending(con: duckdb.DuckDBPyConnection, capture_id: int, now: datetime) -> None:
    con.execute(
        "UPDATE store.captures SET state = 'sending', attempts = attempts + 1, sent_at = ? "
        "WHERE capture_id = ?",
        [now, capture_id],
    )


def answered(con: duckdb.DuckDBPyConnection, capture_id: int, job_id: str) -> None:
    con.execute(
        "UPDATE store.captures SET state = 'pending', job_id = ?, next_at = NULL, "
        "last_error = NULL WHERE capture_id = ?",
        [job_id, capture_id],
    )


def archived(con: duckdb.DuckDBPyConnection, capture_id: int, url: str, at: datetime) -> None:
    con.execute(
        "UPDATE store.captures SET state = 'archived', archived_url = ?, archived_at = ?, "
        "next_at = NULL, last_error = NULL WHERE capture_id = ?",
        [url, at, capture_id],
    )


def later(
    con: duckdb.DuckDBPyConnection,
    capture_id: int,
    at: datetime,
    error: str | None,
    *,
    again: bool,
) -> None:
    """Ask again at `at` (`again`: send it anew; else ask after its job)."""
    state = "queued" if again else "pending"
    con.execute(
        "UPDATE store.captures SET state = ?, next_at = ?, last_error = ?, "
        "job_id = CASE WHEN ? THEN NULL ELSE job_id END WHERE capture_id = ?",
        [state, at, error, again, capture_id],
    )


def hold(con: duckdb.DuckDBPyConnection, until: datetime) -> None:
    """Send nothing before `until` (the archive said so: a 429's Retry-After)."""
    con.execute(
        "UPDATE store.captures SET next_at = greatest(coalesce(next_at, ?), ?) "
        "WHERE state IN ('queued', 'sending')",
        [until, until],
    )


def backoff(attempts: int) -> timedelta:
    """The wait before sending a capture again: growing with its attempts, a day at most."""
    return min(timedelta(minutes=5) * 2 ** min(max(0, attempts - 1), 10), timedelta(days=1))
