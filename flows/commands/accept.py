"""`evidence accept ID SOURCE`: let the pages of a source held for review count, then
grade every record again against the stored pages (no fetch)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from evidence_base.errors import EvidenceError, UnknownRecord, UnknownSource
from flows.commands.update import regraded
from flows.preflight import upgrade_file
from flows.runtime import clock
from warehouse import keeping, queries, store
from warehouse.db import session


@dataclass(frozen=True, slots=True)
class Accepted:
    """What `accept` did: the pages let count, and how the record's grade moved."""

    pages: int
    before: tuple[str, str] | None  # the record's (grade, freshness)
    after: tuple[str, str] | None
    absent: tuple[str, ...]  # claims the accepted page no longer carries

    @property
    def regraded(self) -> str:
        return regraded(self.before, self.after)


def accept_held(db: Path, record_id: str, source_id: str) -> Accepted:
    """Accept every page of the source held for review, and grade again; what it did
    (nothing held is a one-line error)."""
    now = clock.now()
    upgrade_file(db)
    with session(db, now=now) as con:
        sources = store.source_ids(con, record_id)
        if not sources:
            raise UnknownRecord(record_id, queries.record_ids(con), "the database")
        if source_id not in sources:
            raise UnknownSource(source_id, sources, owner=record_id)
        before = keeping.record_grade(con, record_id)
        accepted = store.accept_review(con, record_id, source_id, now)
        if accepted:
            store.grade_all(con)
        after = keeping.record_grade(con, record_id)
        absent = tuple(keeping.absent_on(con, record_id, source_id))
    if not accepted:
        raise EvidenceError(f"nothing of {record_id}/{source_id} is held for review")
    return Accepted(accepted, before, after, absent)
