"""`evidence accept ID SOURCE`: let the pages of a source held for review count, then
grade every record again against the stored pages (no fetch)."""

from __future__ import annotations

from pathlib import Path

from evidence_base.errors import EvidenceError, UnknownRecord, UnknownSource
from flows.preflight import upgrade_file
from flows.runtime import clock
from warehouse import queries, store
from warehouse.db import session


def accept_held(db: Path, record_id: str, source_id: str) -> int:
    """Accept every page of the source held for review, and grade again; how many were
    held (none is a one-line error)."""
    now = clock.now()
    upgrade_file(db)
    with session(db, now=now) as con:
        sources = store.source_ids(con, record_id)
        if not sources:
            raise UnknownRecord(record_id, queries.record_ids(con), "the database")
        if source_id not in sources:
            raise UnknownSource(source_id, sources, owner=record_id)
        accepted = store.accept_review(con, record_id, source_id, now)
        if accepted:
            store.grade_all(con)
    if not accepted:
        raise EvidenceError(f"nothing of {record_id}/{source_id} is held for review")
    return accepted
