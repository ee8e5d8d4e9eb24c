"""The refresh flow's Prefect tasks: few and coarse, each a batch or a whole step.

Parameters and results go through `Sealed`, so that Prefect does not walk a batch's
requests, attempts and quotes looking for futures to wait on.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from prefect import task
from prefect.cache_policies import NONE
from prefect.futures import PrefectFuture

from evidence_base.errors import first_line
from extractors.values import Outcome
from flows.alerting import raise_and_deliver
from flows.catalog import AlertSettings, ArchiveSettings, FetchSettings
from flows.checks import check_claims, review_snapshots
from flows.fetching import (
    Answer,
    Attempt,
    CaptureReport,
    FetchFailed,
    FetchRequest,
    fetch_batch,
    send_captures,
)
from flows.reading import Extracted, extract_batch
from flows.runtime import Sealed, clock, progress
from warehouse import pages, store
from warehouse.alerts import EvidenceState
from warehouse.db import session


@task(
    name="fetch-sources",
    cache_policy=NONE,
    retries=1,
    retry_delay_seconds=5,
    cache_result_in_memory=False,
)
def fetch_sources(
    requests: Sealed[list[FetchRequest]], limits: FetchSettings
) -> Sealed[tuple[dict[str, list[Attempt]], float]]:
    """One batch, in a task thread (no task timeout there: each attempt has its own limit);
    its attempts by URL, and the seconds it took."""
    return _timed_fetch(requests.value, limits)


@task(name="render-pages", cache_policy=NONE, cache_result_in_memory=False)
def render_pages(
    requests: Sealed[list[FetchRequest]],
    limits: FetchSettings,
    unavailable: dict[str, str] | None = None,
) -> Sealed[tuple[dict[str, list[Attempt]], float]]:
    """Every `render: browser` source of the refresh, on its browser engine (a task thread;
    `unavailable`: endpoints found not to answer). Whatever befalls the browsers, it ends
    in attempts: a page it could not render is `browser_unavailable`, and the refresh goes
    on with the pages it has."""
    started = time.monotonic()
    try:
        return _timed_fetch(requests.value, limits, unavailable)
    except Exception as e:  # the browser's machinery, not a page: every page is told why
        reason = f"the browser failed: {first_line(e)}"
        progress(reason)
        failed = Answer.failure(FetchFailed(Outcome.BROWSER_UNAVAILABLE, reason[:500]))
        at, elapsed = clock.now(), int((time.monotonic() - started) * 1000)
        results = {r.url: [Attempt.of(r, at, elapsed, failed)] for r in requests.value}
        return Sealed((results, time.monotonic() - started))


def _timed_fetch(
    requests: list[FetchRequest],
    limits: FetchSettings,
    unavailable: dict[str, str] | None = None,
) -> Sealed[tuple[dict[str, list[Attempt]], float]]:
    started = time.monotonic()
    results = fetch_batch(requests, limits, clock.now, unavailable=unavailable)
    return Sealed((results, time.monotonic() - started))


ExtractInput = tuple[
    list[Attempt], set[str], dict[str, tuple[str, ...]], dict[str, tuple[str, bytes]]
]


@task(name="extract-pages", cache_policy=NONE, retries=1, cache_result_in_memory=False)
def extract_pages(
    batch: Sealed[ExtractInput], workers: int | None = None
) -> Sealed[list[Extracted]]:
    """Read each new page (attempts, wanted hashes, quotes by URL, the newest snapshot's
    page and fingerprint by URL), and check its claims while it is in hand (on the process
    pool; `workers` 1: in the task's own process, as on a Dask worker)."""
    attempts, wanted, quotes, previous = batch.value
    extracted = extract_batch(attempts, wanted, quotes, workers=workers, previous=previous)
    batch.take()  # the bodies, let go once read (kept until then for a retry)
    return Sealed(extracted)


class Extraction:
    """Submits the extract-pages task of one batch where the settings say pages are
    read: the flow's own task runner, or a started DaskTaskRunner (flows/reading)."""

    def __init__(self, runner: Any = None) -> None:
        self.runner = runner

    def submit(self, batch: Sealed[ExtractInput]) -> PrefectFuture:
        if self.runner is None:
            return extract_pages.submit(batch)
        return self.runner.submit(extract_pages, {"batch": batch, "workers": 1})


@task(
    name="check-and-grade",
    cache_policy=NONE,
    retries=2,
    retry_delay_seconds=2,
    timeout_seconds=1800,
)
def check_and_grade(db_path: Path, keep_pages: int) -> int:
    """Check claims, hold suspect pages, grade, drop the raw pages no longer kept (all but
    the newest `keep_pages` of each source and those current checks rest on); returns
    checks made."""
    now = clock.now()
    with session(db_path, now=now) as con:
        made = check_claims(con)
        held = review_snapshots(con, now)
        if held:
            made += check_claims(con)  # the snapshots that count again may need checks
        store.grade_all(con)
        pages.drop_old_bodies(con, keep_pages)
    for review in held:
        progress(
            f"holding the new page of {review.record_id}/{review.source_id} for review: "
            f"{review.reason}"
        )
    return made


@task(name="send-alerts", cache_policy=NONE, timeout_seconds=600)
def send_alerts(
    db_path: Path, settings: AlertSettings, before: Sealed[EvidenceState], run_id: str
) -> list[str]:
    """Open, resend and close alerts; keep every message and deliver new and owed ones;
    returns the titles raised."""
    raised = raise_and_deliver(db_path, settings, before.value, clock.now(), run_id)
    return [m.title for m in raised]


@task(name="capture-pages", cache_policy=NONE, timeout_seconds=600)
def capture_pages(db_path: Path, settings: ArchiveSettings, fetch: FetchSettings) -> CaptureReport:
    """Queue captures of the pages claims rest on and send the archive what is due; the
    archive's trouble is said, never the refresh's (what is queued waits for a later run)."""
    try:
        return send_captures(db_path, settings, fetch, clock.now())
    except Exception as e:  # the archive, its answers, or its queue: the refresh is done
        progress(f"archive: captures not sent this run ({first_line(e)})")
        return CaptureReport()
