"""The refresh flow: a few coarse Prefect tasks around the plain steps of flows/pipeline.py.

    load config -> for each batch of sources: fetch -> extract (and check the claims of
                each new page) -> write -> check what is left -> grade -> alerts -> summary

Batch k+1 is fetched while k is extracted and k-1 written. The database is written only
from the flow's thread, in short transactions.
"""

from __future__ import annotations

import ctypes
import uuid
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Generic, TypeVar

from prefect import Flow, flow, task
from prefect.cache_policies import NONE
from prefect.futures import PrefectFuture
from prefect.task_runners import TaskRunner, ThreadPoolTaskRunner

from extractors.page import EXTRACTOR_VERSION
from flows import clock
from flows.alerts import channel_key, evidence_messages, mask_url, notify_urls, send, source_alerts
from flows.config import (
    AlertSettings,
    Catalog,
    Settings,
    load_catalog,
    load_settings,
    resolve_db,
)
from flows.errors import ConfigError, EvidenceError
from flows.fetch import Attempt, FetchLimits, FetchRequest, last_live
from flows.lock import refresh_lock
from flows.pipeline import (
    BATCH_SIZE,
    Batches,
    Extracted,
    Plan,
    catalog_rows,
    check_claims,
    claim_quotes,
    extract_batch,
    fetch_batch,
    fetch_rows,
    plan_requests,
    progress,
    review_snapshots,
    summary_rows,
)
from warehouse import alerts as alerts_db
from warehouse import store
from warehouse.db import session
from warehouse.store import transaction

T = TypeVar("T")


class Sealed(Generic[T]):
    """A task parameter or result handed over as one opaque value.

    Prefect walks list, dict, set and dataclass parameters (twice a task run) looking for
    futures to wait on; over a batch's 250 requests, attempts and quotes, and the 30,000
    checks of the state before grading, the walks took 2 s of a 10,000-source refresh.
    """

    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value

    def take(self) -> T:
        """The value, handed over: the wrapper keeps nothing (Prefect may keep the wrapper,
        as a finished task's parameter or result, for as long as the flow runs)."""
        value = self.value
        self.value = None  # type: ignore[assignment]
        return value


@task(
    name="fetch-sources",
    cache_policy=NONE,
    retries=1,
    retry_delay_seconds=5,
    cache_result_in_memory=False,
)
def fetch_sources(
    requests: Sealed[list[FetchRequest]], limits: FetchLimits
) -> Sealed[dict[str, list[Attempt]]]:
    """One batch, in a task thread (no task timeout there: each attempt has its own limit)."""
    return Sealed(fetch_batch(requests.value, limits, clock.now))


@task(name="extract-pages", cache_policy=NONE, retries=1, cache_result_in_memory=False)
def extract_pages(
    batch: Sealed[tuple[list[Attempt], set[str], dict[str, tuple[str, ...]]]],
) -> Sealed[list[Extracted]]:
    """Read each new page (attempts, wanted hashes, quotes by URL), and check its claims
    while it is in hand (process pool)."""
    attempts, wanted, quotes = batch.value
    extracted = extract_batch(attempts, wanted, quotes)
    batch.take()  # the bodies, let go once read (kept until then for a retry)
    return Sealed(extracted)


@task(
    name="check-and-grade",
    cache_policy=NONE,
    retries=2,
    retry_delay_seconds=2,
    timeout_seconds=1800,
)
def check_and_grade(db_path: Path) -> tuple[int, Sealed[dict]]:
    """Check claims, hold suspect pages, grade; returns checks made and the state before."""
    now = clock.now()
    with session(db_path, now=now) as con:
        before = alerts_db.evidence_state(con)
        made = check_claims(con)
        held = review_snapshots(con, now)
        if held:
            made += check_claims(con)  # the snapshots that count again may need checks
        store.grade_all(con)
    for record_id, source_id, _, reason in held:
        progress(f"holding the new page of {record_id}/{source_id} for review: {reason}")
    return made, Sealed(before)


@task(name="send-alerts", cache_policy=NONE, timeout_seconds=600)
def send_alerts(db_path: Path, settings: AlertSettings, before: Sealed[dict]) -> int:
    """Open, resend and close alerts; deliver new and owed messages; returns messages sent."""
    now = clock.now()
    urls = notify_urls(settings.notify)
    channels = [(channel_key(u), mask_url(u)) for u in urls]
    with session(db_path, now=now) as con:
        with transaction(con):
            messages = source_alerts(con, settings.after_failures, settings.resend_after, now)
            after = alerts_db.evidence_state(con)
            messages += evidence_messages(
                before.value, after, alerts_db.claim_quotes(con), alerts_db.source_urls(con)
            )
            alerts_db.enqueue(
                con, [(m.kind, m.record_id, m.title, m.body) for m in messages], channels, now
            )
        pending = alerts_db.unsent(con, [key for key, _ in channels])
    by_key = {channel_key(u): u for u in urls}
    results = [(o.notification_id, *send(by_key[o.channel], o.title, o.body)) for o in pending]
    with session(db_path, now=now) as con:
        alerts_db.mark_delivery(con, results, now)
    failed = defaultdict(int)
    for (_, ok, error), out in zip(results, pending, strict=True):
        if not ok:
            failed[error or mask_url(by_key[out.channel])] += 1
    for error, count in failed.items():
        progress(f"{count} alert message(s) not delivered: {error}; retried next run")
    if messages and not urls:
        progress(f"{len(messages)} alert(s) raised; no notify URL set (alerts.notify)")
    return sum(ok for _, ok, _ in results)


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


def _write(
    db: Path,
    run_id: str,
    plan: Plan,
    states: dict,
    extraction: PrefectFuture | None,
    results: dict[str, list[Attempt]],
) -> int:
    """Store one batch: its pages (once extracted), snapshots, every attempt, and the checks
    of its new snapshots (made by the workers)."""
    extracted: list[Extracted] = extraction.result().take() if extraction is not None else []
    pages = [e.page for e in extracted]
    known = {(e.page.content_hash, q): c for e in extracted for q, c in e.checks}
    hashes = {a.digest for attempts in results.values() for a in attempts if a.digest}
    with session(db, now=clock.now()) as con:
        store.write_fetches(con, run_id, pages, fetch_rows(results, plan.targets), states)
        if hashes:
            check_claims(con, known, hashes)
    del extracted, pages, known
    _give_back_memory()
    failed = sum(not last_live(a).outcome.success for a in results.values())
    if failed:
        progress(f"{failed} of {len(results)} URLs failed in this batch")
    return len(results)


def task_runner_for(settings: Settings, config_dir: Path) -> TaskRunner:
    """threads by default; Dask (the optional `dask` extra) to spread extraction on a cluster."""
    if settings.task_runner == "dask":
        try:
            from prefect_dask import DaskTaskRunner
        except ImportError:
            raise ConfigError(
                str(config_dir / "settings.yaml"),
                "task_runner: dask needs prefect-dask: pip install 'evidence-pipeline[dask]'",
            ) from None
        return (
            DaskTaskRunner(address=settings.dask_address)
            if settings.dask_address
            else (DaskTaskRunner())
        )
    return ThreadPoolTaskRunner(max_workers=4)


def configured_flow(settings: Settings, config_dir: Path) -> Flow:
    """The refresh flow with the task runner the settings ask for."""
    return refresh_flow.with_options(task_runner=task_runner_for(settings, config_dir))


def _give_back_memory() -> None:
    """Return freed heap to the OS after each batch (glibc keeps it otherwise)."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def notify_flow_failure(flow: object, flow_run: object, state: object) -> None:
    """on_failure hook: a crash of the flow itself reaches every notify channel."""
    params = getattr(flow_run, "parameters", {}) or {}
    try:
        settings = load_settings(Path(params.get("config_dir") or "config"))
        configured = settings.alerts.notify
    except EvidenceError:
        configured = []
    message = getattr(state, "message", None) or "the refresh flow failed"
    name = getattr(flow_run, "name", "?")
    for url in notify_urls(configured):
        ok, error = send(url, f"flow-failed: evidence-refresh run {name}", str(message)[:2000])
        if not ok:
            progress(f"could not report the failed run: {error}")


@flow(name="evidence-refresh", log_prints=False, on_failure=[notify_flow_failure])
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
        quotes = claim_quotes(selected)
        total = len(plan.requests)
        progress(f"refreshing {len(selected)} records: {total} URLs")
        limits = _limits(catalog)
        done = 0
        pending: tuple[PrefectFuture | None, dict[str, list[Attempt]]] | None = None
        batcher = Batches(plan.requests, BATCH_SIZE)
        batch = batcher.next()
        # Three batches in flight: k+1 is fetched (a thread) while k is extracted (the
        # process pool) and k-1 is written (this thread, the only one that writes).
        fetching = fetch_sources.submit(Sealed(batch), limits) if batch else None
        while batch:
            results = fetching.result().take()
            batcher.observe(batch, results)  # how many bodies the next batch may bring
            following = batcher.next()
            fetching = fetch_sources.submit(Sealed(following), limits) if following else None
            finals = [attempts[-1] for attempts in results.values()]
            hashes = {a.digest for a in finals if a.digest is not None}
            wanted: set[str] = set()
            if hashes:  # a batch of 304s and failures has nothing to read
                with session(db, now=clock.now()) as con:
                    wanted = store.missing_pages(con, hashes, EXTRACTOR_VERSION)
            extraction = None  # nothing new to read (304s, failures, stored pages): no task
            if wanted:
                batch_quotes = {r.url: quotes[r.url] for r in batch if r.url in quotes}
                extraction = extract_pages.submit(Sealed((finals, wanted, batch_quotes)))
            # The write needs no body: the bodies go with the extraction when it is done
            # (a batch of them, 40 MB on the corpus, less to hold at the write's peak).
            slim = {
                url: [a if a.body is None else replace(a, body=None) for a in tries]
                for url, tries in results.items()
            }
            del results, finals
            if pending is not None:
                done += _write(db, run_id, plan, states, *pending)
                progress(f"stored {done}/{total} URLs")
            pending = (extraction, slim)
            batch = following
        if pending is not None:
            done += _write(db, run_id, plan, states, *pending)
            progress(f"stored {done}/{total} URLs")
        made, before = check_and_grade(db)
        progress(f"checked {made} claim/page pairs; graded {len(catalog.records)} records")
        send_alerts(db, catalog.settings.alerts, before)
        return summary_rows(db, run_id, clock.now())
