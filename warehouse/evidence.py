"""The stored evidence a catalog is checked against offline (`evidence check`, `plan`):
the newest snapshot of every source fetched, its page's text, and what the refresh's
checks already found on it. Read only; nothing here writes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

import duckdb

from warehouse import pages
from warehouse.db import sql_file


@dataclass(frozen=True, slots=True)
class StoredSnapshot:
    """The newest successful snapshot of one source at one URL."""

    record_id: str
    source_id: str
    url: str
    snapshot_id: int
    fetched_at: datetime
    content_hash: str


@dataclass(frozen=True, slots=True)
class StoredCheck:
    """What a refresh found for one quote on one page."""

    outcome: str
    found_text: str | None
    found_values: tuple[float, ...]


def stored_snapshots(con: duckdb.DuckDBPyConnection) -> list[StoredSnapshot]:
    """Oldest first, so that a later one of the same URL wins where they are keyed by it."""
    cur = con.execute(sql_file("stored_snapshots.sql"))
    columns = [d[0] for d in cur.description or ()]
    return [StoredSnapshot(**dict(zip(columns, row, strict=True))) for row in cur.fetchall()]


def stored_checks(
    con: duckdb.DuckDBPyConnection, snapshots: Iterable[StoredSnapshot]
) -> dict[tuple[str, str], StoredCheck]:
    """By (content hash, quote), for the pages of these snapshots."""
    ids = sorted({s.snapshot_id for s in snapshots})
    if not ids:
        return {}
    rows = con.execute(sql_file("stored_checks.sql"), {"snapshot_ids": ids}).fetchall()
    return {
        (content_hash, quote): StoredCheck(outcome, found_text, tuple(found_values or ()))
        for content_hash, quote, outcome, found_text, found_values in rows
    }


def page_texts(con: duckdb.DuckDBPyConnection, hashes: Iterable[str]) -> dict[str, str]:
    """The main text of each of these pages, by content hash."""
    return pages.page_texts(con, hashes)
