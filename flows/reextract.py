"""`evidence reextract`: read stored pages again after an extractor change; fetch nothing."""

from __future__ import annotations

from pathlib import Path

from extractors.page import EXTRACTOR_VERSION
from flows import clock
from flows.lock import refresh_lock
from flows.pipeline import ExtractJob, check_claims, chunks, extract_jobs, progress
from warehouse import bodies, store
from warehouse.db import session

BATCH = 200


def reextract(db: Path, everything: bool = False) -> int:
    """Re-run extraction over stored pages of older extractor versions; returns pages read."""
    if not db.exists():
        from warehouse.errors import WarehouseMissing

        raise WarehouseMissing(f"no database at {db}: run `evidence refresh` first")
    with refresh_lock(db):
        with session(db, now=clock.now()) as con:
            hashes = store.stale_pages(con, EXTRACTOR_VERSION, everything)
        progress(f"re-extracting {len(hashes)} stored pages with extractor {EXTRACTOR_VERSION}")
        done = 0
        for chunk in chunks(hashes, BATCH):
            with session(db, now=clock.now()) as con:
                rows = store.stored_bodies(con, list(chunk))
            jobs = []
            for digest, body_z, content_type, encoding, fetched_at, url in rows:
                body = bodies.decompress(body_z)
                jobs.append(ExtractJob(digest, body, url, fetched_at, content_type, encoding))
            pages = [e.page for e in extract_jobs(jobs)]
            with session(db, now=clock.now()) as con:
                store.replace_pages(con, pages)
            done += len(pages)
            progress(f"re-extracted {done}/{len(hashes)} pages")
        with session(db, now=clock.now()) as con:
            made = check_claims(con)
            store.grade_all(con)
        progress(f"checked {made} claim/page pairs again; grades recomputed")
    return done
