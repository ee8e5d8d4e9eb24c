"""The refresh flow: fetch, snapshot, extract, check, grade and alert, as numbered steps.

Each step is a function of the spine beside it (planning.py: what to fetch; pipeline.py:
fetch, read and store batch by batch; tasks.py: the Prefect tasks; checks.py) or of a
room below (fetching/, reading/, alerting/, catalog/, runtime/).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from prefect import Flow
from prefect.context import FlowRunContext
from prefect.runtime import flow_run as current_run
from prefect.states import Cancelled
from prefect.task_runners import ThreadPoolTaskRunner

from evidence_base.errors import RefreshRunning
from flows.alerting import (
    RunReport,
    claim_moves,
    condition_moves,
    failures_by_url,
    notify_flow_failure,
    publish,
    record_moves,
    value_moves,
)
from flows.catalog import Settings, load_settings, resolve_db
from flows.fetching import check_engines
from flows.pipeline import store_sources
from flows.planning import (
    catalog_rows,
    due_pairs,
    keeping_rows,
    plan_requests,
    quotes_by_url,
)
from flows.preflight import Selection, preflight, prepared
from flows.reading import check_scheduler, cluster_runner
from flows.runtime import Sealed, clock, command_scope, flush_run_logs, progress, started_at
from flows.tasks import Extraction, capture_pages, check_and_grade, send_alerts
from warehouse import alerts, keeping, queries, store
from warehouse.alerts import EvidenceState, evidence_state
from warehouse.db import session

P = ParamSpec("P")
R = TypeVar("R")
_PLAIN = (str, int, float, bool, type(None))


class PlainParameterFlow(Flow[P, R]):
    """A flow whose parameters are plain JSON values (strings, flags, lists of strings):
    Prefect keeps them as they are. Its own serializer imports FastAPI's encoder to walk
    them, which nothing else in a refresh needs."""

    def serialize_parameters(self, parameters: dict[str, Any]) -> dict[str, Any]:
        def plain(value: object) -> bool:
            if isinstance(value, list):
                return all(isinstance(v, _PLAIN) for v in value)
            return isinstance(value, _PLAIN)

        if all(plain(v) for v in parameters.values()):
            return dict(parameters)
        return super().serialize_parameters(parameters)


def plain_flow(**options: Any) -> Callable[[Callable[P, R]], Flow[P, R]]:
    """`@flow(**options)`, made a PlainParameterFlow."""

    def make(fn: Callable[P, R]) -> Flow[P, R]:
        return PlainParameterFlow(fn, **options)

    return make


# The flow's own tasks (fetch batches, the browser batch, extract-pages handing batches to
# the process pool) run in a few threads; with `task_runner: dask` the extract-pages tasks
# go to the cluster instead (flows/reading/cluster.py).
@plain_flow(
    name="evidence-refresh",
    log_prints=False,
    on_failure=[notify_flow_failure],
    task_runner=ThreadPoolTaskRunner(max_workers=4),
)
def refresh_flow(
    config_dir: str = "config",
    db_path: str | None = None,
    record_ids: list[str] | None = None,
    due: bool = False,
    source_ids: list[str] | None = None,
    prune: bool = False,
) -> RunReport:
    """Fetch, snapshot, extract, check and grade every (or each named) record; `due`:
    fetch only the sources that are due (and those named by `source_ids`); `prune`: the
    catalog may lack records the database holds.

    Returns the run's report (one summary row per record, what moved, what failed); a
    Cancelled state, without touching anything, when another refresh holds the database.
    """
    started = time.monotonic()
    begun = started_at(started)  # the process's start, when the command line marked it
    selection = Selection.from_parameters(record_ids, due, source_ids, prune)
    with ExitStack() as held:
        db = (
            resolve_db(db_path, Settings())
            if db_path
            else resolve_db(None, load_settings(Path(config_dir)))
        )
        ready = prepared(db, selection)  # the command line's, when it started this run
        if ready is None:  # started by a deployment (serve, a work pool): nobody checked
            try:
                ready = held.enter_context(preflight(Path(config_dir), db, selection))
            except RefreshRunning as e:
                progress(str(e))
                # Prefect ends the run in the state a flow returns: cancelled, not failed.
                # Its flow types know results only, not states.
                return Cancelled(message=str(e))  # type: ignore[return-value]
        ready.prepare_file()
        catalog, chosen = ready.catalog, ready.chosen
        selected = chosen.records
        # Where pages are read (a Dask cluster answers before anything is written).
        runner = held.enter_context(cluster_runner(catalog.settings, Path(config_dir)))
        extracting = Extraction(runner)
        run_id = current_run.id or uuid.uuid4().hex  # Prefect's id: the run in its UI
        # 1. Note the run and the evidence as it stands (alerts compare with it); store the
        #    catalog as loaded; plan one request per distinct URL.
        #    With `due`, only the sources due (store.source_due) and those asked for.
        now = clock.now()
        schedule = catalog.settings.schedule
        with session(db, now=now) as con:
            alerts.note_run(con, run_id, now)
            before = evidence_state(con)
            store.sync_catalog(con, *catalog_rows(catalog), str(catalog.config_dir.resolve()), now)
            keeping.sync_keeping(con, *keeping_rows(catalog))
            store.sync_schedule(
                con,
                schedule.until_next(now).total_seconds(),
                schedule.kept_margin(now).total_seconds(),
                schedule.change_threshold,
                catalog.settings.fetch.dead_after.total_seconds(),
            )
            states = store.source_states(con)
            asked = set(chosen.asked)
            only, reasons = (
                due_pairs(
                    [d for d in queries.due_sources(con) if d.record_id in chosen.record_ids],
                    asked,
                )
                if due
                else (asked or None, None)
            )
        fetch = catalog.settings.fetch
        plan = plan_requests(selected, states, fetch.obey_robots, fetch.render, only)
        progress(
            f"refreshing {_count(len(selected), 'record')}: {_count(len(plan.requests), 'URL')}"
        )
        if reasons is not None:
            said = ", ".join(f"{n} {why}" for why, n in reasons.most_common())
            total = sum(len(r.config.sources) for r in selected)
            progress(
                f"{sum(reasons.values())} of {total} sources due" + (f": {said}" if said else "")
            )
        unavailable = check_engines(fetch, plan.requests)  # browser engines elsewhere answer
        # 2. Fetch, read and store every source, checking the claims of each new page.
        stored = store_sources(
            db,
            run_id,
            plan,
            quotes_by_url(selected),
            fetch,
            states,
            extracting,
            unavailable,
        )
        # 3. Check the claims left, hold suspect primary pages, grade every record.
        grading = time.monotonic()
        made = check_and_grade(db, catalog.settings.history.keep_pages)
        grade_s = time.monotonic() - grading
        progress(
            f"{stored.checks + made} claim check(s) made; graded {len(catalog.records)} records"
        )
        # 4. Open, resend and close alerts, keep every message; deliver what is owed.
        alerting = time.monotonic()
        raised = send_alerts(db, catalog.settings.alerts, Sealed(before), run_id)
        # 5. Queue captures of the pages claims rest on; send the archive what is due.
        capture_pages(db, catalog.settings.archive, fetch)
        # 6. The run's report (what moved, what failed); its Prefect artifacts.
        report = report_run(db, run_id, before, raised, command_scope(Path(config_dir), db))
        publish(report)
        done = time.monotonic()
        if stored.reading:
            progress(reading_line(stored.reading))
        progress(
            f"time: {done - begun:.1f} s (start-up {started - begun:.1f} s); "
            f"fetching {stored.fetch_s:.1f} s (alongside reading), waiting for pages read "
            f"{stored.read_wait_s:.1f} s, writing {stored.write_s:.1f} s, checking and "
            f"grading {grade_s:.1f} s, alerts and the report {done - alerting:.1f} s"
        )
        if _deployed():  # a run `evidence serve` started says what moved too
            print("\n".join(report.summary_lines()), flush=True)
        flush_run_logs()
        return report


def reading_line(reading: dict[str, float]) -> str:
    """`reading 41.2 s of the cores: main text 52%, figures 14%, ...`: where the time of
    reading pages went, step by step, the largest first."""
    total = sum(reading.values())
    steps = sorted(reading.items(), key=lambda kv: -kv[1])
    shares = ", ".join(f"{step} {seconds / total:.0%}" for step, seconds in steps)
    return f"reading {total:.1f} s of the cores: {shares}"


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def _deployed() -> bool:
    """Was this run started by a deployment? (From the run in hand: Prefect's runtime
    `deployment.id` asks the server for the run again.)"""
    context = FlowRunContext.get()
    run = context.flow_run if context is not None else None
    return run is not None and run.deployment_id is not None


def report_run(
    db: Path, run_id: str, before: EvidenceState, raised: list[str], scope: str = ""
) -> RunReport:
    """What the run came to, read back from the warehouse (the commands it names carry
    `scope`)."""
    now = clock.now()
    with session(db, now=now) as con:
        after = evidence_state(con)
        claims = claim_moves(
            before, after, alerts.quotes_by_claim(con), alerts.source_urls(con), now
        )
        counts = queries.run_counts(con, run_id)
        return RunReport(
            run_id=run_id,
            records=queries.run_summary(con, run_id),
            moved=record_moves(before, after, claims),
            claims=claims,
            failures=failures_by_url(queries.run_failures(con, run_id)),
            alerts=raised,
            values=value_moves(before, after),
            conditions=condition_moves(before, after),
            urls=counts.urls,
            new=counts.new,
            unchanged=counts.unchanged,
            failed=counts.failed,
            held=queries.held_pages(con),
            scope=scope,
        )


RefreshFlow = Flow[[str, str | None, list[str] | None, bool, list[str] | None], RunReport]


def configured_flow(settings: Settings, config_dir: Path) -> RefreshFlow:
    """The refresh flow, checked against the settings before it runs: with `task_runner:
    dask`, prefect-dask must be installed and the scheduler must answer."""
    check_scheduler(settings, config_dir)
    return refresh_flow
