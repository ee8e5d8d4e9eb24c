"""The refresh flow: fetch, snapshot, extract, check, grade and alert, as numbered steps.

Each step is a function of the spine beside it (planning.py: what to fetch; pipeline.py:
fetch, read and store batch by batch; tasks.py: the Prefect tasks; checks.py) or of a
room below (fetching/, reading/, alerting/, catalog/, runtime/).
"""

from __future__ import annotations

import time
import uuid
from contextlib import ExitStack
from pathlib import Path

from prefect import Flow, flow
from prefect.states import Cancelled
from prefect.task_runners import ThreadPoolTaskRunner

from flows.alerting import notify_flow_failure
from flows.catalog import Settings, load_catalog, resolve_db
from flows.pipeline import store_sources
from flows.planning import catalog_rows, plan_requests, quotes_by_url
from flows.reading import check_scheduler, cluster_runner
from flows.runtime import Sealed, clock, progress, publish
from flows.tasks import Extraction, check_and_grade, send_alerts
from warehouse import queries, store
from warehouse.alerts import evidence_state
from warehouse.db import session
from warehouse.errors import RefreshRunning
from warehouse.lock import refresh_lock


# The flow's own tasks (fetch batches, the browser batch, extract-pages handing batches to
# the process pool) run in a few threads; with `task_runner: dask` the extract-pages tasks
# go to the cluster instead (flows/reading/cluster.py).
@flow(
    name="evidence-refresh",
    log_prints=False,
    on_failure=[notify_flow_failure],
    task_runner=ThreadPoolTaskRunner(max_workers=4),  # type: ignore[arg-type]
)
def refresh_flow(
    config_dir: str = "config", db_path: str | None = None, record_ids: list[str] | None = None
) -> list[dict]:
    """Fetch, snapshot, extract, check and grade every (or each named) record.

    Returns one summary row per record; a Cancelled state, without touching anything,
    when another refresh holds the database.
    """
    started = time.monotonic()
    catalog = load_catalog(Path(config_dir))
    selected = catalog.select(record_ids)
    db = resolve_db(db_path, catalog.settings)
    with ExitStack() as held:
        try:
            held.enter_context(refresh_lock(db))
        except RefreshRunning as e:
            progress(str(e))
            # Prefect ends the run in the state a flow returns: cancelled, not failed. Its
            # flow types know results only, not states.
            return Cancelled(message=str(e))  # type: ignore[return-value]
        # Where pages are read (a Dask cluster answers before anything is written).
        extracting = Extraction(
            held.enter_context(cluster_runner(catalog.settings, Path(config_dir)))
        )
        run_id = uuid.uuid4().hex
        # 1. Note the evidence as it stands (alerts compare with it); store the catalog as
        #    loaded; plan one request per distinct URL.
        with session(db, now=clock.now()) as con:
            before = evidence_state(con)
            store.sync_catalog(con, *catalog_rows(catalog))
            states = store.source_states(con)
        fetch = catalog.settings.fetch
        plan = plan_requests(selected, states, fetch.obey_robots, fetch.render)
        progress(f"refreshing {len(selected)} records: {len(plan.requests)} URLs")
        # 2. Fetch, read and store every source, checking the claims of each new page.
        stored = store_sources(
            db,
            run_id,
            plan,
            quotes_by_url(selected),
            fetch,
            states,
            extracting,
        )
        # 3. Check the claims left, hold suspect primary pages, grade every record.
        grading = time.monotonic()
        made = check_and_grade(db, catalog.settings.history.keep_pages)
        grade_s = time.monotonic() - grading
        progress(
            f"{stored.snapshots} new snapshot(s) of {stored.urls} URLs; "
            f"{stored.checks + made} claim check(s) made; graded {len(catalog.records)} records"
        )
        progress(
            f"time: {time.monotonic() - started:.1f} s; fetching {stored.fetch_s:.1f} s "
            f"(alongside reading), waiting for pages read {stored.read_wait_s:.1f} s, "
            f"writing {stored.write_s:.1f} s, checking and grading {grade_s:.1f} s"
        )
        # 4. Open, resend and close alerts; deliver what is owed.
        send_alerts(db, catalog.settings.alerts, Sealed(before))
        # 5. One summary row per record; the run's Prefect artifacts.
        with session(db, now=clock.now()) as con:
            summary = queries.run_summary(con, run_id)
            after = evidence_state(con)
        publish(summary, before, after)
        return summary


RefreshFlow = Flow[[str, str | None, list[str] | None], list[dict]]


def configured_flow(settings: Settings, config_dir: Path) -> RefreshFlow:
    """The refresh flow, checked against the settings before it runs: with `task_runner:
    dask`, prefect-dask must be installed and the scheduler must answer."""
    check_scheduler(settings, config_dir)
    return refresh_flow
