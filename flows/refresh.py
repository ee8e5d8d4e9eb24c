"""The refresh flow: a few coarse Prefect tasks around the plain steps of flows/pipeline.py.

    load config -> for each batch of sources: fetch -> extract -> write
                -> check claims -> grade -> summary

The database is written only from the flow's thread, in short transactions.
"""

from __future__ import annotations

import uuid
from pathlib import Path

from prefect import flow, task
from prefect.cache_policies import NONE

from extractors.page import EXTRACTOR_VERSION
from flows import clock
from flows.config import Catalog, load_catalog, resolve_db
from flows.fetch import Attempt, FetchLimits, FetchRequest, last_live
from flows.lock import refresh_lock
from flows.pipeline import (
    BATCH_SIZE,
    catalog_rows,
    check_claims,
    chunks,
    content_hash,
    extract_batch,
    fetch_batch,
    fetch_rows,
    plan_requests,
    progress,
    review_snapshots,
    summary_rows,
)
from warehouse import store
from warehouse.db import session
from warehouse.rows import PageRow


@task(name="fetch-sources", cache_policy=NONE, retries=1, retry_delay_seconds=5)
def fetch_sources(requests: list[FetchRequest], limits: FetchLimits) -> dict[str, list[Attempt]]:
    return fetch_batch(requests, limits, clock.now)


@task(name="extract-pages", cache_policy=NONE, retries=1)
def extract_pages(attempts: list[Attempt], wanted: set[str]) -> list[PageRow]:
    return extract_batch(attempts, wanted)


@task(name="check-and-grade", cache_policy=NONE, retries=2, retry_delay_seconds=2)
def check_and_grade(db_path: Path) -> int:
    now = clock.now()
    with session(db_path, now=now) as con:
        made = check_claims(con)
        held = review_snapshots(con, now)
        if held:
            made += check_claims(con)  # the snapshots that count again may need checks
        store.grade_all(con)
    for record_id, source_id, _, reason in held:
        progress(f"holding the new page of {record_id}/{source_id} for review: {reason}")
    return made


def _limits(catalog: Catalog) -> FetchLimits:
    f = catalog.settings.fetch
    return FetchLimits(
        f.timeout_s,
        f.concurrency,
        f.per_host,
        f.retries,
        f.max_bytes,
        f.user_agent,
        f.archive_fallback,
    )


@flow(name="evidence-refresh", log_prints=False)
def refresh_flow(
    config_dir: str = "config", db_path: str | None = None, record_ids: list[str] | None = None
) -> list[dict]:
    """Fetch, snapshot, extract, check and grade every (or each named) record."""
    catalog = load_catalog(Path(config_dir))
    selected = catalog.select(record_ids)
    db = resolve_db(db_path, catalog.settings)
    run_id = uuid.uuid4().hex
    with refresh_lock(db):
        with session(db, now=clock.now()) as con:
            store.sync_catalog(con, *catalog_rows(catalog))
            states = store.source_states(con)
        plan = plan_requests(selected, states, catalog.settings.fetch.obey_robots)
        total = len(plan.requests)
        progress(f"refreshing {len(selected)} records: {total} URLs")
        done = 0
        for batch in chunks(plan.requests, BATCH_SIZE):
            results = fetch_sources(list(batch), _limits(catalog))
            finals = [attempts[-1] for attempts in results.values()]
            hashes = {content_hash(a.body) for a in finals if a.body is not None}
            with session(db, now=clock.now()) as con:
                wanted = store.missing_pages(con, hashes, EXTRACTOR_VERSION)
            pages = extract_pages(finals, wanted) if wanted else []
            with session(db, now=clock.now()) as con:
                store.write_fetches(con, run_id, pages, fetch_rows(results, plan.targets), states)
            done += len(batch)
            failed = sum(not last_live(a).outcome.success for a in results.values())
            progress(f"fetched {done}/{total} URLs ({failed} failed in this batch)")
        made = check_and_grade(db)
        progress(f"checked {made} claim/page pairs; graded {len(catalog.records)} records")
        return summary_rows(db, run_id, clock.now())
