"""`evidence gc`: drop fetch rows nobody needs any more, then compact the file.

DuckDB reuses the space of deleted rows but never gives it back to the file system; a
fresh copy of the database does. The copy is written beside the file and swapped in
with one rename, so that a crash at any moment leaves either the old file or the new
one, each whole.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import duckdb

from evidence_base.errors import WarehouseError
from warehouse.db import connect, transaction


def drop_fetches(con: duckdb.DuckDBPyConnection, before: datetime) -> int:
    """Delete fetch rows started before `before`, except each source's newest and newest
    successful one, the newest fetch of each snapshot a current claim check rests on (its
    `checked_at`), and every fetch of a source's current run of failures (what its alert
    and `consecutive_failures` count); returns rows deleted."""
    with transaction(con):
        row = con.execute(
            """
            DELETE FROM store.fetches WHERE started_at < $before AND fetch_id NOT IN (
                SELECT max(fetch_id) FROM store.fetches GROUP BY record_id, source_id, via
                UNION ALL
                SELECT max(fetch_id) FROM store.fetches
                WHERE outcome IN ('ok', 'not_modified') GROUP BY record_id, source_id, via
                UNION ALL
                SELECT max(f.fetch_id)
                FROM store.fetches f
                JOIN store.current_checks c USING (record_id, source_id, snapshot_id)
                WHERE f.outcome IN ('ok', 'not_modified')
                GROUP BY f.record_id, f.source_id, f.snapshot_id
                UNION ALL
                SELECT f.fetch_id
                FROM store.fetches f
                LEFT JOIN (
                    SELECT record_id, source_id, max(fetch_id) AS last_ok
                    FROM store.fetches WHERE outcome IN ('ok', 'not_modified')
                    GROUP BY ALL
                ) o USING (record_id, source_id)
                WHERE f.fetch_id > coalesce(o.last_ok, -1)
            )
            """,
            {"before": before},
        ).fetchone()
    return row[0] if row else 0


def compact(db: Path) -> tuple[int, int]:
    """Rewrite the database into a fresh file and swap it in atomically; returns the
    file's size in bytes before and after. The caller holds the refresh lock.

    A symlinked database is compacted where it is: the fresh copy goes beside the file
    the link names and replaces it, and the link stays a link.
    """
    db = Path(os.path.realpath(db))
    spare = db.with_name(db.name + ".compacting")
    remove_spare(db)
    con = connect(db)
    try:
        con.execute("CHECKPOINT")  # everything in the file itself, none of it in the WAL
    finally:
        con.close()
    before = db.stat().st_size
    try:
        fresh = duckdb.connect(str(spare))
        try:
            (name,) = fresh.execute("SELECT current_database()").fetchone() or ("",)
            fresh.execute(f"ATTACH '{_quoted(db)}' AS old_file (READ_ONLY)")
            fresh.execute(f"COPY FROM DATABASE old_file TO {_identifier(name)}")
            fresh.execute("DETACH old_file")
            fresh.execute("CHECKPOINT")
        finally:
            fresh.close()
        _fsync(spare)
        os.replace(spare, db)
        _fsync(db.parent)
    except (duckdb.Error, OSError) as e:
        remove_spare(db)
        raise WarehouseError(f"could not compact {db}: {e}; the file is unchanged") from e
    return before, db.stat().st_size


def remove_spare(db: Path) -> None:
    """Remove what an interrupted compaction left beside the database."""
    for leftover in (
        db.with_name(db.name + ".compacting"),
        db.with_name(db.name + ".compacting.wal"),
    ):
        leftover.unlink(missing_ok=True)


def _identifier(name: str) -> str:
    """A name as a quoted SQL identifier (a file name may hold `"`)."""
    return '"' + name.replace('"', '""') + '"'


def _quoted(path: Path) -> str:
    return str(path.absolute()).replace("'", "''")


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
