"""`evidence reextract`: read stored pages again after an extractor change; fetch nothing."""

from __future__ import annotations

from pathlib import Path

from evidence_base.errors import WarehouseMissing
from extractors.version import EXTRACTOR_VERSION
from flows.checks import check_claims
from flows.preflight import upgrade_file
from flows.reading import ExtractJob, extract_jobs
from flows.runtime import clock, progress
from warehouse import bodies, pages, store
from warehouse.db import session
from warehouse.lock import refresh_lock

PAGES_PER_ROUND = 200


def reextract(db: Path, everything: bool = False) -> tuple[int, int]:
    """Re-run extraction over stored pages of older extractor versions (or all of them);
    returns pages read, and pages that could not be read because their raw page is no
    longer kept (history.keep_pages): those keep the reading they have."""
    if not db.exists():
        raise WarehouseMissing(f"no database at {db}: run `evidence refresh` first")
    with refresh_lock(db):
        upgrade_file(db)
        with session(db, now=clock.now()) as con:
            hashes, unkept = pages.stale_pages(con, EXTRACTOR_VERSION, everything)
        progress(f"re-extracting {len(hashes)} stored pages with extractor {EXTRACTOR_VERSION}")
        if unkept:
            progress(
                f"{unkept} older page(s) cannot be read again: their raw page is no longer "
                "kept (history.keep_pages); they keep the reading they have"
            )
        done = 0
        for start in range(0, len(hashes), PAGES_PER_ROUND):
            with session(db, now=clock.now()) as con:
                stored = pages.stored_bodies(con, hashes[start : start + PAGES_PER_ROUND])
            jobs = [
                ExtractJob(
                    digest=s.content_hash,
                    body=bodies.decompress(s.body_z),
                    url=s.url,
                    fetched_at=s.fetched_at,
                    content_type=s.content_type,
                    encoding=s.encoding,
                )
                for s in stored
            ]
            read = [e.page for e in extract_jobs(jobs) if e.page is not None]
            with session(db, now=clock.now()) as con:
                pages.replace_pages(con, read)
            done += len(read)
            progress(f"re-extracted {done}/{len(hashes)} pages")
        with session(db, now=clock.now()) as con:
            made = check_claims(con)
            store.grade_all(con)
        progress(f"checked {made} claim/page pairs again; grades recomputed")
    return done, unkept
