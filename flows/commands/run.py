"""One run of the refresh flow from the command line (`refresh`, `demo`).

The catalog is read first (a config error is the one line said), then the Prefect
server is found or started (its start overlaps the imports); the refresh lock is taken
before the flow starts and held until it ends, so that a second refresh stops here with
one line, never inside the flow.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from evidence_base.errors import EvidenceError
from flows.catalog import check_served, load_catalog
from flows.runtime import (
    configure_prefect,
    interrupted,
    prefect_api,
    progress,
    stop_on_interrupt,
)
from warehouse.db import check_database_file
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
    prune: bool = False,
) -> RunReport:
    """Refresh every (or each named) record of the catalog into db (`due`: only the
    sources due, and those named); the run's report. `prune`: a catalog may lack records
    the database holds (they leave the views; their history stays)."""
    configure_prefect(verbose)
    # A config error, a database of another catalog, or a Dask scheduler that does not
    # answer, is the one line said.
    catalog = load_catalog(config_dir)
    exists = check_database_file(db)
    check_served(catalog, db if exists else None, prune)
    catalog.select(record_ids)
    if source_ids:
        catalog.select_sources(source_ids)
    if catalog.settings.task_runner == "dask":
        from flows.reading import check_scheduler

        check_scheduler(catalog.settings, catalog.config_dir)
    # (a second refresh stops at the lock; Ctrl-C is one line and exit 130)
    with stop_on_interrupt(), refresh_lock(db), prefect_api() as api:
        if not exists:  # (the first line says where the run goes; this one comes next)
            progress(f"creating a new database at {db}")
        with _uncollected():
            from flows.reading import FEW_PAGES, start_workers
            from flows.refresh import refresh_flow

        urls = {s.url for r in catalog.records for s in r.config.sources}
        if catalog.settings.task_runner == "threads" and len(urls) > FEW_PAGES:
            start_workers()  # they import the extractors while the server starts
        api.wait()
        state = refresh_flow(
            str(catalog.config_dir),
            str(db),
            record_ids,
            due,
            source_ids,
            prune,
            return_state=True,
        )
    if interrupted():  # (whatever Prefect made of it)
        raise KeyboardInterrupt
    if state.is_cancelled():  # cancelled from Prefect's side: the run did not complete
        raise EvidenceError(state.message or f"the refresh of {db} was cancelled")
    return state.result()  # a crash raises here, as it was raised in the flow


@contextmanager
def _uncollected() -> Iterator[None]:
    """The flow's first import, with the cyclic collector paused, then what it made
    frozen: importing Prefect makes a great many objects that all live to the end, and
    the collector's passes over them, while they are made and in every full pass after,
    find nothing to collect."""
    if "flows.refresh" in sys.modules:  # imported before: nothing is made
        yield
        return
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
