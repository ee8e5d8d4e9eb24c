"""One run of the refresh flow from the command line (`refresh`, `demo`).

The preflight (flows/preflight.py) runs first: the catalog read (a config error is the
one line said), the selection, the database's release and the catalog it serves checked,
the refresh lock taken and the file made or upgraded, all before the Prefect server is
asked for; the flow then finds it done. The lock is held until the flow ends, so that a
second refresh stops with one line, never inside the flow.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from evidence_base.errors import EvidenceError
from flows.preflight import Selection, preflight
from flows.runtime import (
    configure_prefect,
    interrupted,
    prefect_api,
    stop_on_interrupt,
)

if TYPE_CHECKING:  # (imported by the flow, once the server is on its way)
    from flows.alerting import RunReport


def run_refresh(
    config_dir: Path, db: Path, selection: Selection | None = None, verbose: bool = False
) -> RunReport:
    """Refresh what `selection` asks (default: every record, every source) of the
    catalog into db; the run's report."""
    selection = selection or Selection()
    configure_prefect(verbose)
    # (Ctrl-C is one line and exit 130)
    with stop_on_interrupt(), preflight(config_dir, db, selection) as ready, prefect_api() as api:
        with _uncollected():
            from flows.reading import FEW_PAGES, start_workers
            from flows.refresh import refresh_flow

        ready.prepare_file()  # (the first line said where the run goes; this one next)
        catalog = ready.catalog
        urls = {s.url for r in catalog.records for s in r.config.sources}
        if catalog.settings.task_runner == "threads" and len(urls) > FEW_PAGES:
            start_workers()  # they import the extractors while the server starts
        api.wait()
        state = refresh_flow(
            str(catalog.config_dir), str(db), **selection.parameters(), return_state=True
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
