"""The refresh's steps as plain functions; flows/refresh.py wraps them in Prefect tasks.

Network I/O (fetch_batch), parsing (extract_batch) and the database
(write_batch, check_claims, grade) are separate, so each can be tested,
retried and scaled on its own. Only the flow's own thread writes the database.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import multiprocessing
import os
import ssl
import sys
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import duckdb
import httpx

from extractors.claims import match_claim, normalize_text
from extractors.soft import review_reason
from extractors.values import ClaimCheck
from flows.config import Catalog, Record
from flows.fetch import (
    Attempt,
    Fetcher,
    FetchLimits,
    FetchRequest,
    client_count,
)
from flows.work import Extracted, ExtractJob, run_job, watch_refresh
from warehouse import queries, store
from warehouse.db import session
from warehouse.rows import (
    CheckRow,
    ClaimRow,
    FetchRow,
    PendingCheck,
    RecordRow,
    SourceRow,
    SourceState,
)

# Sources fetched, extracted and written together (three batches in flight: one fetched,
# one extracted, one written); each batch is one short write session. A conditional
# request counts as the share of them that bring a body (Batches). EVIDENCE_BATCH_SIZE
# tunes it (the reliability tests shrink it).
BATCH_SIZE = int(os.environ.get("EVIDENCE_BATCH_SIZE") or 250)
RAMP_STEPS = 3  # first batches of BATCH_SIZE / 8, / 4, / 2 unconditional requests


@dataclass(frozen=True, slots=True)
class Target:
    """A (record, source) that a URL's fetch answers for."""

    record_id: str
    source_id: str


@dataclass
class Plan:
    requests: list[FetchRequest]
    targets: dict[str, list[Target]] = field(default_factory=dict)


def catalog_rows(catalog: Catalog) -> tuple[list[RecordRow], list[SourceRow], list[ClaimRow]]:
    records, sources, claims = [], [], []
    for record in catalog.records:
        c = record.config
        fields = tuple((k, "" if v is None else str(v)) for k, v in c.fields.items())
        records.append(
            RecordRow(c.id, c.title, int(record.window.total_seconds()), fields, record.file)
        )
        sources.extend(SourceRow(c.id, s.source_id, s.url, s.role) for s in c.sources)
        claims.extend(
            ClaimRow(
                c.id,
                cl.id,
                cl.quote,
                cl.status.value if cl.status else None,
                tuple(cl.sources) if cl.sources is not None else None,
            )
            for cl in c.claims
        )
    return records, sources, claims


def plan_requests(
    records: Iterable[Record], states: dict[tuple[str, str], SourceState], obey_robots: bool
) -> Plan:
    """One request per distinct URL; conditional only when every source of it agrees."""
    targets: dict[str, list[Target]] = defaultdict(list)
    obey: dict[str, bool] = {}
    redirects: dict[str, bool] = {}
    for record in records:
        for source in record.config.sources:
            targets[source.url].append(Target(record.id, source.source_id))
            wants = obey_robots if source.obey_robots is None else source.obey_robots
            obey[source.url] = obey.get(source.url, False) or wants
            redirects[source.url] = redirects.get(source.url, False) or source.expect_redirect
    requests = []
    for url, ts in targets.items():
        known = {states.get((t.record_id, t.source_id)) for t in ts}
        state = known.pop() if len(known) == 1 else None
        etag = state.etag if state else None
        last_modified = state.last_modified if state else None
        requests.append(FetchRequest(url, etag, last_modified, obey[url], redirects[url]))
    return Plan(requests, dict(targets))


def fetch_batch(
    requests: Sequence[FetchRequest], limits: FetchLimits, clock: Callable[[], datetime]
) -> dict[str, list[Attempt]]:
    """Fetch every request (async inside); every attempt per URL."""

    async def run() -> dict[str, list[Attempt]]:
        timeout = httpx.Timeout(limits.timeout_s)
        count = client_count(limits.concurrency)
        per_client = -(-limits.concurrency // count)
        pool = httpx.Limits(max_connections=per_client, max_keepalive_connections=per_client)
        async with contextlib.AsyncExitStack() as stack:
            clients = [
                await stack.enter_async_context(
                    httpx.AsyncClient(
                        timeout=timeout, limits=pool, trust_env=False, verify=_tls_context()
                    )
                )
                for _ in range(count)
            ]
            return await Fetcher(clients, limits, clock).fetch_all(requests)

    return asyncio.run(run())


@functools.cache
def _tls_context() -> ssl.SSLContext:
    """httpx's default verifying context, built once per process: building one loads the CA
    bundle (18 ms, once per batch before)."""
    return httpx.create_ssl_context(trust_env=False)


def extract_batch(
    attempts: Iterable[Attempt],
    wanted: set[str],
    quotes: Mapping[str, Sequence[str]] | None = None,
    workers: int | None = None,
) -> list[Extracted]:
    """Extract each wanted body of these attempts once, checking the quotes of its URLs."""
    quotes = quotes or {}
    first: dict[str, Attempt] = {}  # the first attempt that brought each wanted body
    page_quotes: dict[str, dict[str, None]] = defaultdict(dict)
    for a in attempts:
        if a.body is None or a.digest is None or a.digest not in wanted:
            continue
        first.setdefault(a.digest, a)
        page_quotes[a.digest].update(dict.fromkeys(quotes.get(a.url, ())))
    jobs = [
        ExtractJob(
            digest,
            a.body,
            a.final_url or a.url,
            a.vouched_at,
            a.content_type,
            a.encoding,
            tuple(page_quotes[digest]),
        )
        for digest, a in first.items()
    ]
    return extract_jobs(jobs, workers)


def extract_jobs(jobs: Sequence[ExtractJob], workers: int | None = None) -> list[Extracted]:
    """Read and compress every job, on `workers` processes (default: one per core)."""
    workers = EXTRACT_WORKERS if workers is None else workers
    if workers > 1 and len(jobs) > 1:
        return list(_pool(workers).map(run_job, jobs, chunksize=4))
    return [run_job(job) for job in jobs]


EXTRACT_WORKERS = os.cpu_count() or 1
_POOLS: dict[int, ProcessPoolExecutor] = {}


def _pool(workers: int) -> ProcessPoolExecutor:
    """One pool per process, made on first use (forkserver: no fork of Prefect's threads)."""
    if workers not in _POOLS:
        # No preload: each worker imports the extractors itself (flows/work.py). Preloaded,
        # the forkserver held another 28 MB of them (counted again in every worker's RSS),
        # for no time saved: the workers start, and import, in parallel (start_workers).
        context = multiprocessing.get_context("forkserver")
        _POOLS[workers] = ProcessPoolExecutor(
            workers, mp_context=context, initializer=watch_refresh, initargs=(os.getpid(),)
        )
        atexit.register(_POOLS[workers].shutdown, cancel_futures=True)
    return _POOLS[workers]


def start_workers(workers: int | None = None) -> None:
    """Start the extraction processes now rather than at the first page to read.

    Each imports the extractors (0.2 s); the CLI starts them while it waits for Prefect's
    temporary server, when this process has nothing else to do.
    """
    workers = EXTRACT_WORKERS if workers is None else workers
    if workers > 1:
        pool = _pool(workers)
        for _ in range(workers):  # one process started per task while none is idle
            pool.submit(os.getpid)


def fetch_rows(
    results: dict[str, list[Attempt]], targets: dict[str, list[Target]]
) -> list[FetchRow]:
    """Every attempt, once per (record, source) that the URL answers for."""
    rows = []
    for url, attempts in results.items():
        for t in targets[url]:
            for a in attempts:
                rows.append(
                    FetchRow(
                        t.record_id,
                        t.source_id,
                        url,
                        a.started_at,
                        a.elapsed_ms,
                        a.outcome.value,
                        a.http_status,
                        a.error,
                        a.via,
                        a.vouched_at,
                        a.digest,
                        a.etag,
                        a.last_modified,
                        a.final_url,
                    )
                )
    return rows


def check_claims(
    con: duckdb.DuckDBPyConnection,
    known: Mapping[tuple[str, str], ClaimCheck] | None = None,
    hashes: Collection[str] | None = None,
) -> int:
    """Check every claim against each newest snapshot not yet checked; returns checks made.

    `known` holds checks already made by the extraction workers, by (content hash, quote);
    `hashes` limits the work to snapshots of these pages (one batch of a refresh).
    """
    known = known or {}
    pending = store.pending_checks(con, hashes)
    if not pending:
        return 0
    rows: list[CheckRow] = []
    by_page: dict[str, list] = defaultdict(list)
    for p in pending:
        check = known.get((p.content_hash, p.quote))
        if check is None:
            by_page[p.content_hash].append(p)
        else:
            rows.append(_check_row(p, check))
    digests = list(by_page)
    for start in range(0, len(digests), BATCH_SIZE):
        chunk = digests[start : start + BATCH_SIZE]
        texts = store.page_texts(con, chunk)
        for digest in chunk:
            page = normalize_text(texts.get(digest, ""))
            rows.extend(_check_row(p, match_claim(p.quote, page)) for p in by_page[digest])
    store.write_checks(con, rows)
    return len(rows)


def _check_row(p: PendingCheck, check: ClaimCheck) -> CheckRow:
    return CheckRow(
        p.record_id,
        p.claim_id,
        p.source_id,
        p.snapshot_id,
        p.quote,
        check.outcome.value,
        check.found_text,
        check.found_values,
    )


def claim_quotes(records: Iterable[Record]) -> dict[str, tuple[str, ...]]:
    """By URL: the quotes of every claim that one of its sources is checked for."""
    out: dict[str, dict[str, None]] = defaultdict(dict)
    for record in records:
        for source in record.config.sources:
            for claim in record.config.claims:
                if claim.sources is None or source.source_id in claim.sources:
                    out[source.url][claim.quote] = None
    return {url: tuple(quotes) for url, quotes in out.items()}


def review_snapshots(con: duckdb.DuckDBPyConnection, now: datetime) -> list[tuple]:
    """Hold new primary snapshots that lost most of their text or every confirmed claim."""
    decisions = []
    for record_id, source_id, snapshot_id, previous_id, *counts in store.review_candidates(con):
        reason = review_reason(*counts) if previous_id is not None else None
        decisions.append((record_id, source_id, snapshot_id, reason))
    store.write_reviews(con, decisions, now)
    return [d for d in decisions if d[3] is not None]


def progress(message: str) -> None:
    print(f"evidence: {message}", file=sys.stderr, flush=True)


def chunks(items: Sequence, size: int) -> Iterable[Sequence]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


class Batches:
    """The requests in batches of about `size` bodies, formed one at a time.

    A conditional request counts as the share of the last batch's conditional requests
    that brought a body, between a third and one (a half before any came back). Each
    batch costs a task run and a write session: at 10,000 unchanged sources, batches of
    1,000 took 0.3 to 0.5 s less than batches of 500 (of 10.7); this run makes them 750.
    Against a server that ignores validators a batch holds no more than `size` bodies.

    The first batches ramp up, in requests that will bring a body (an eighth of `size`,
    a quarter, a half): extraction starts after a few dozen pages, not a whole batch,
    while the next, larger batch is fetched.
    """

    MIN_WEIGHT = 1 / 3

    def __init__(self, requests: Sequence[FetchRequest], size: int) -> None:
        self.requests = requests
        self.size = size
        self.weight = 0.5  # of a conditional request, until one has come back
        self.formed = 0
        self._next = 0

    def next(self) -> list[FetchRequest]:
        """The next batch; empty when every request is in one."""
        batch: list[FetchRequest] = []
        weight = 0.0
        fresh = 0  # unconditional requests in this batch
        ramp = self.size >> max(0, RAMP_STEPS - self.formed)
        while self._next < len(self.requests):
            r = self.requests[self._next]
            conditional = _conditional(r)
            cost = self.weight if conditional else 1
            full = weight + cost > self.size + 1e-9  # (thirds do not add up exactly)
            if batch and (full or (not conditional and fresh + 1 > ramp)):
                break
            batch.append(r)
            weight += cost
            fresh += not conditional
            self._next += 1
        self.formed += bool(batch)
        return batch

    def observe(self, batch: Sequence[FetchRequest], results: Mapping[str, list[Attempt]]) -> None:
        """Weigh conditional requests by how many of this batch's brought a body."""
        conditional = [r for r in batch if _conditional(r)]
        if conditional:
            bodies = sum(results[r.url][-1].digest is not None for r in conditional)
            self.weight = max(self.MIN_WEIGHT, bodies / len(conditional))


def _conditional(r: FetchRequest) -> bool:
    return r.etag is not None or r.last_modified is not None


def summary_rows(db_path: Path, run_id: str, now: datetime) -> list[dict]:
    """One row per record: grade, freshness, and what this run's fetches found."""
    with session(db_path, now=now) as con:
        columns, rows = queries.run(con, "run_summary.sql", run_id=run_id)
    return [dict(zip(columns, r, strict=True)) for r in rows]
