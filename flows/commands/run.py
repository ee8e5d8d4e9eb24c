"""One run of the refresh flow from the command line (`refresh`, `demo`).

The catalog is read first (a config error is the one line said), then the Prefect
server is found or started (its start overlaps the imports); the refresh lock is taken
before the flow starts and held until it ends, so that a second refresh stops here with
one line, never inside the flow.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from flows.catalog import load_catalog
from flows.runtime import configure_prefect, prefect_api
from warehouse.errors import EvidenceError
from warehouse.lock import refresh_lock

if TYPE_CHECKING:  # (imported by the flow, once the server is on its way)
    from flows.alerting import RunReport


def run_refresh(
    config_dir: Path,
    db: Path,
    record_ids: list[str] | None = None,
    verbose: bool = False,
    due: bool = False,
    source_ids: list[str] | None = None,
) -> RunReport:
    """Refresh every (or each named) record of the catalog into db (`due`: only the
    sources due, and those named); the run's report."""
    configure_prefect(verbose)
    # A config error, or a Dask scheduler that does not answer, is the one line said.
    catalog = load_catalog(config_dir)
    catalog.select(record_ids)
    if source_ids:
        catalog.select_sources(source_ids)
    if catalog.settings.task_runner == "dask":
        from flows.reading import check_scheduler

        check_scheduler(catalog.settings, catalog.config_dir)
    with refresh_lock(db), prefect_api() as api:  # (a second refresh stops at the lock)
        from flows.reading import FEW_PAGES, start_workers
        from flows.refresh import refresh_flow

        urls = {s.url for r in catalog.records for s in r.config.sources}
        if catalog.settings.task_runner == "threads" and len(urls) > FEW_PAGES:
            start_workers()  # they import the extractors while the server starts
        api.wait()
        state = refresh_flow(
            str(catalog.config_dir), str(db), record_ids, due, source_ids, return_state=True
        )
    if state.is_cancelled():  # cancelled from Prefect's side: the run did not complete
        raise EvidenceError(state.message or f"the refresh of {db} was cancelled")
    return state.result()  # a crash raises here, as it was raised in the flow
