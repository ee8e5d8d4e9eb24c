"""Reading pages on a pool of worker processes, one per core.

The pool is made once per process, on first use, with forkserver (no fork of Prefect's
threads); each worker imports only the extractors (flows/reading/worker.py) and exits when the
process that made the pool is gone.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING

from flows.reading.worker import Extracted, ExtractJob, read_ahead, run_job, watch_parent

if TYPE_CHECKING:  # (a worker process imports this module: no httpx there)
    from flows.fetching import Attempt

EXTRACT_WORKERS = os.cpu_count() or 1
# Pages read in the process itself rather than on a pool not yet started: a few cost less
# than the workers' start (each imports the extractors).
FEW_PAGES = 4
_pools: dict[int, ProcessPoolExecutor] = {}


def extract_batch(
    attempts: Iterable[Attempt],
    wanted: set[str],
    quotes: Mapping[str, Sequence[str]] | None = None,
    workers: int | None = None,
    previous: Mapping[str, tuple[str, bytes]] | None = None,
) -> list[Extracted]:
    """Extract each wanted body of these attempts once, checking the quotes of its URLs
    (`previous`: by URL, the page and fingerprint of the source's newest snapshot)."""
    quotes = quotes or {}
    previous = previous or {}
    first: dict[str, Attempt] = {}  # the first attempt that brought each wanted body
    page_quotes: dict[str, dict[str, None]] = defaultdict(dict)
    for a in attempts:
        if a.body is None or a.content_hash is None or a.content_hash not in wanted:
            continue
        first.setdefault(a.content_hash, a)
        page_quotes[a.content_hash].update(dict.fromkeys(quotes.get(a.url, ())))
    jobs = [
        ExtractJob(
            digest=digest,
            body=a.body,
            url=a.final_url or a.url,
            fetched_at=a.fetched_at,
            content_type=a.content_type,
            encoding=a.encoding,
            quotes=tuple(page_quotes[digest]),
            previous=previous.get(a.url),
            fingerprint=(a.etag is None and a.last_modified is None) or a.url in previous,
        )
        for digest, a in first.items()
        if a.body is not None
    ]
    return extract_jobs(jobs, workers)


def extract_jobs(jobs: Sequence[ExtractJob], workers: int | None = None) -> list[Extracted]:
    """Read and compress every job, on `workers` processes (default: one per core)."""
    workers = EXTRACT_WORKERS if workers is None else workers
    # once the pool runs every page goes to it, however few: where a page is read does
    # not depend on how many arrived together
    if workers > 1 and (workers in _pools or len(jobs) > FEW_PAGES):
        return list(_pool(workers).map(run_job, jobs, chunksize=4))
    return [run_job(job) for job in jobs]


def start_workers(workers: int | None = None) -> None:
    """Start the worker processes now rather than at the first page to read (the CLI
    calls this while it waits for Prefect's temporary server); each imports the
    extractors meanwhile."""
    workers = EXTRACT_WORKERS if workers is None else workers
    if workers > 1:
        pool = _pool(workers)
        for _ in range(workers):  # one process started per task while none is idle
            pool.submit(read_ahead)


def _pool(workers: int) -> ProcessPoolExecutor:
    if workers not in _pools:
        # No preload: a preloaded forkserver holds its own copy of the extractors, counted
        # again in every worker's memory, and saves no time (the workers import in parallel).
        context = multiprocessing.get_context("forkserver")
        _pools[workers] = ProcessPoolExecutor(
            workers, mp_context=context, initializer=watch_parent, initargs=(os.getpid(),)
        )
        atexit.register(_pools[workers].shutdown, cancel_futures=True)
        from flows.runtime import on_interrupt  # (not in the workers, which import this)

        on_interrupt(_stop_pools)
    return _pools[workers]


def _stop_pools() -> None:
    """Kill every worker now (Ctrl-C): what they were reading is read again next run."""
    for pool in _pools.values():
        for process in list(pool._processes.values()):
            process.kill()
