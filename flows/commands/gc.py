"""`evidence gc`: drop old fetch rows and raw pages no longer kept, then compact the file,
under the same lock as a refresh."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from evidence_base.errors import WarehouseMissing
from flows.preflight import upgrade_file
from flows.runtime import clock, progress
from warehouse import compact, pages
from warehouse.db import session
from warehouse.lock import refresh_lock


@dataclass(frozen=True, slots=True)
class Collected:
    fetches_dropped: int
    pages_dropped: int
    bytes_before: int
    bytes_after: int


def collect(db: Path, keep_pages: int, fetches_before: datetime | None = None) -> Collected:
    """Drop fetch rows started before `fetches_before` (those nothing rests on), the raw
    pages `history.keep_pages` no longer keeps, and compact the database file."""
    if not db.exists():
        raise WarehouseMissing(f"no database at {db}: run `evidence refresh` first")
    with refresh_lock(db):
        upgrade_file(db)
        compact.remove_spare(Path(os.path.realpath(db)))
        with session(db, now=clock.now()) as con:
            fetches = compact.drop_fetches(con, fetches_before) if fetches_before else 0
            dropped = pages.drop_old_bodies(con, keep_pages)
        progress(f"dropped {fetches} fetch row(s) and {dropped} raw page(s); compacting {db}")
        before, after = compact.compact(db)
    return Collected(fetches, dropped, before, after)
