"""The stored evidence a catalog is checked against offline (`evidence check`, `plan`):
the newest snapshot of every source fetched, its page's text, and what the refresh's
checks already found on it. Read only; nothing here writes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

import duckdb

from extractors.values import CheckOutcome, ClaimCheck, Status
from warehouse import pages, store
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
    run_id: str | None = None  # the refresh that fetched it last
    via: str | None = None  # live, or archived
    dead_since: datetime | None = None  # when its source died at this URL


@dataclass(frozen=True, slots=True)
class StoredValue:
    """A value a source showed for a claim (a figure, or a status), as kept."""

    value: float | None
    status: str | None
    text: str | None


def stored_snapshots(con: duckdb.DuckDBPyConnection) -> list[StoredSnapshot]:
    """Oldest first, so that a later one of the same URL wins where they are keyed by it."""
    cur = con.execute(sql_file("stored_snapshots.sql"))
    columns = [d[0] for d in cur.description or ()]
    return [StoredSnapshot(**dict(zip(columns, row, strict=True))) for row in cur.fetchall()]


def stored_checks(
    con: duckdb.DuckDBPyConnection, snapshots: Iterable[StoredSnapshot]
) -> dict[tuple[str, str, Status | None], ClaimCheck]:
    """By (content hash, quote, the claim's status), for the pages of these snapshots."""
    ids = sorted({s.snapshot_id for s in snapshots})
    if not ids:
        return {}
    cur = con.execute(
        sql_file("stored_checks.sql"), {"snapshot_ids": ids, "rules": store.CHECK_RULES}
    )
    columns = [d[0] for d in cur.description or ()]
    out: dict[tuple[str, str, Status | None], ClaimCheck] = {}
    for values in cur.fetchall():
        row = dict(zip(columns, values, strict=True))
        status = Status(row["claim_status"]) if row["claim_status"] else None
        out[(row["content_hash"], row["quote"], status)] = ClaimCheck(
            outcome=CheckOutcome(row["outcome"]),
            found_text=row["found_text"],
            found_values=tuple(row["found_values"] or ()),
            closest_text=row["closest_text"],
            closest_score=row["closest_score"],
            found_status=Status(row["found_status"]) if row["found_status"] else None,
        )
    return out


def stored_values(
    con: duckdb.DuckDBPyConnection,
) -> dict[tuple[str, str, str], list[StoredValue]]:
    """Each (record, claim, source)'s distinct values, oldest first."""
    out: dict[tuple[str, str, str], list[StoredValue]] = {}
    for record_id, claim_id, source_id, value, status, text in con.execute(
        sql_file("stored_values.sql")
    ).fetchall():
        out.setdefault((record_id, claim_id, source_id), []).append(
            StoredValue(value, status, text)
        )
    return out


def page_texts(con: duckdb.DuckDBPyConnection, hashes: Iterable[str]) -> dict[str, str]:
    """The main text of each of these pages, by content hash."""
    return pages.page_texts(con, hashes)
