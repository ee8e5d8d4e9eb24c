"""Fetch, read and store every source, batch by batch, with three batches in flight.

Batch k+1 is fetched (a task thread) while k is read (the process pool) and the batches
before it are written (the flow's own thread, the only one that writes: a few batches a
session, each in one short transaction). The claims of each new page are checked while
it is in hand. Sources rendered in a browser are one more batch, loaded by one task in
one browser while the others are fetched.
"""

from __future__ import annotations

import ctypes
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from prefect.futures import PrefectFuture

from evidence_base import environment
from evidence_base.words import Render
from extractors.version import EXTRACTOR_VERSION
from flows.catalog import FetchSettings
from flows.checks import check_claims
from flows.fetching import Attempt, FetchRequest, last_live
from flows.planning import Plan, Target
from flows.reading import Extracted
from flows.runtime import Sealed, clock, progress
from flows.tasks import Extraction, fetch_sources, render_pages
from warehouse import pages, store
from warehouse.db import Connection, session
from warehouse.rows import FetchRow, SourceState

# Bodies per batch (EVIDENCE_BATCH_SIZE tunes it; the reliability tests shrink it). Each
# batch is a task run and one write session.
BATCH_SIZE = int(environment.get("EVIDENCE_BATCH_SIZE") or 250)
WRITE_URLS = 4 * BATCH_SIZE  # URLs read before a write session stores them
RAMP_STEPS = 3  # first batches of BATCH_SIZE / 8, / 4, / 2 unconditional requests

Results = dict[str, list[Attempt]]


@dataclass
class Stored:
    """What storing a refresh's sources added up to."""

    urls: int = 0
    snapshots: int = 0  # new readings of a source
    new_urls: int = 0  # URLs answered with a new reading (a URL of two sources: once)
    checks: int = 0  # claim checks made on them
    failed: int = 0  # URLs whose live fetch failed
    # Where the time went, for sizing: fetching (alongside reading), the writer waiting
    # for pages to be read, and writing (the flow's thread, the only writer).
    fetch_s: float = 0.0
    read_wait_s: float = 0.0
    write_s: float = 0.0
    # the seconds each step of reading took, summed over pages (on every core)
    reading: dict[str, float] = field(default_factory=dict)

    def add(self, other: Stored) -> None:
        for step, seconds in other.reading.items():
            self.reading[step] = self.reading.get(step, 0.0) + seconds
        self.urls += other.urls
        self.snapshots += other.snapshots
        self.new_urls += other.new_urls
        self.checks += other.checks
        self.failed += other.failed
        self.fetch_s += other.fetch_s
        self.read_wait_s += other.read_wait_s
        self.write_s += other.write_s


def store_sources(
    db: Path,
    run_id: str,
    plan: Plan,
    quotes: Mapping[str, tuple[str, ...]],
    limits: FetchSettings,
    states: dict[tuple[str, str], SourceState],
    extraction: Extraction | None = None,
    unavailable: dict[str, str] | None = None,
) -> Stored:
    """Fetch every planned request, read each new page (where `extraction` sends it: the
    process pool by default) and store it all. `unavailable`: the browser endpoints found
    not to answer, with why."""
    extraction = extraction or Extraction()
    total = len(plan.requests)
    done = Stored()
    waiting: list[tuple[PrefectFuture | None, Results]] = []  # read, not yet written
    for batch, fetched in _fetched_batches(plan.requests, limits, unavailable):
        results, seconds = fetched.take()
        done.fetch_s += seconds
        reading = _read_new_pages(db, batch, results, quotes, plan, states, extraction)
        # The write needs no body: the bodies go with the extraction when it is done.
        slim = {
            url: [a if a.body is None else replace(a, body=None) for a in tries]
            for url, tries in results.items()
        }
        del results
        # Batches are written a few at a time, in one session: each session's appends
        # take new storage blocks of every table they touch, half empty when they are few.
        if sum(len(r) for _, r in waiting) >= WRITE_URLS:
            done.add(_write_batches(db, run_id, plan, states, waiting))
            progress(_fetched(done, total))
            waiting = []
        waiting.append((reading, slim))
    if waiting:
        done.add(_write_batches(db, run_id, plan, states, waiting))
        progress(_fetched(done, total))
    return done


def _fetched(done: Stored, total: int) -> str:
    failed = f", {done.failed} failed" if done.failed else ""
    # counted as the run's summary counts them: URLs, each once
    return f"fetched {done.urls}/{total} URLs: {done.new_urls} with a new snapshot{failed}"


def _fetched_batches(
    requests: Sequence[FetchRequest],
    limits: FetchSettings,
    unavailable: dict[str, str] | None = None,
) -> Iterator[tuple[list[FetchRequest], Sealed[tuple[Results, float]]]]:
    """Each batch with what its fetch brought: the HTTP batches in turn, each fetched while
    the one before is handled, then the pages rendered in the browser alongside them all.
    The results come sealed, so that this generator keeps none of their bodies."""
    rendered = [r for r in requests if r.render is Render.BROWSER]
    rendering = render_pages.submit(Sealed(rendered), limits, unavailable) if rendered else None
    batcher = Batches([r for r in requests if r.render is not Render.BROWSER], BATCH_SIZE)
    first = batcher.next()
    pending = (first, fetch_sources.submit(Sealed(first), limits)) if first else None
    while pending is not None:
        batch, fetching = pending
        results = fetching.result()
        batcher.observe(batch, results.value[0])  # how many bodies the next batch may bring
        following = batcher.next()
        pending = (
            (following, fetch_sources.submit(Sealed(following), limits)) if following else None
        )
        yield batch, results
    if rendering is not None:
        yield rendered, rendering.result()


def _read_new_pages(
    db: Path,
    batch: Sequence[FetchRequest],
    results: Results,
    quotes: Mapping[str, tuple[str, ...]],
    plan: Plan,
    states: Mapping[tuple[str, str], SourceState],
    extraction: Extraction,
) -> PrefectFuture | None:
    """Submit the extraction of the batch's bodies not yet stored; None when there are none
    (304s, failures, pages already read). Each goes with the fingerprint of its source's
    newest snapshot, so that a body that changed only outside its main text is not read."""
    finals = [attempts[-1] for attempts in results.values()]
    hashes = {a.content_hash for a in finals if a.content_hash is not None}
    if not hashes:
        return None
    prior: dict[str, str] = {}  # URL -> the page of its source's newest snapshot
    for r in batch:
        for t in plan.targets.get(r.url, ()):
            state = states.get((t.record_id, t.source_id))
            if state is not None:
                prior.setdefault(r.url, state.content_hash)
    with session(db, now=clock.now()) as con:
        wanted = pages.missing_pages(con, hashes, EXTRACTOR_VERSION)
        if not wanted:
            return None
        prints = pages.fingerprints(con, prior.values(), EXTRACTOR_VERSION)
    previous = {url: (h, prints.get(h, b"")) for url, h in prior.items()}
    batch_quotes = {r.url: quotes[r.url] for r in batch if r.url in quotes}
    reads = [a for a in finals if a.content_hash in wanted]  # only the bodies to read travel
    return extraction.submit(Sealed((reads, wanted, batch_quotes, previous)))


def _write_batches(
    db: Path,
    run_id: str,
    plan: Plan,
    states: dict[tuple[str, str], SourceState],
    waiting: Sequence[tuple[PrefectFuture | None, Results]],
) -> Stored:
    """Store batches once read, in one session (each batch in its own transaction)."""
    started = time.monotonic()
    read = [(r.result().take() if r is not None else [], results) for r, results in waiting]
    stored = Stored(read_wait_s=time.monotonic() - started)
    started = time.monotonic()
    with session(db, now=clock.now()) as con:
        for extracted, results in read:
            stored.add(_write_batch(con, run_id, plan, states, extracted, results))
    stored.write_s += time.monotonic() - started
    del read
    _give_back_memory()
    return stored


def _write_batch(
    con: Connection,
    run_id: str,
    plan: Plan,
    states: dict[tuple[str, str], SourceState],
    extracted: list[Extracted],
    results: Results,
) -> Stored:
    """Store one batch: its pages, snapshots, every attempt, and the checks of its new
    snapshots (most made by the workers)."""
    new_pages = [e.page for e in extracted if e.page is not None]
    same_as = {e.digest: e.same_as for e in extracted if e.same_as is not None}
    known = {(e.digest, q): c for e in extracted for q, c in e.checks}
    digests = {a.content_hash for tries in results.values() for a in tries if a.content_hash}
    rows = fetch_rows(results, plan)
    was = {(f.record_id, f.source_id): _newest(states, f) for f in rows}
    written = store.write_fetches(con, run_id, new_pages, rows, states, same_as)
    partly = {p.content_hash: p.read_partly for p in new_pages if p.read_partly}
    for url in sorted({f.url for f in rows if f.content_hash in partly}):
        digest = next(f.content_hash for f in rows if f.url == url and f.content_hash in partly)
        progress(f"read in part: {url} ({partly[digest]})")
    states.update(written.states)  # what the batches after this one compare with
    added = written.snapshots
    checks = 0
    if added:  # (claims left unchecked on older snapshots wait for the grading step)
        checks = check_claims(con, known, {same_as.get(d, d) for d in digests})
    answered = {url for url, tries in results.items() if last_live(tries).outcome.success}
    new_urls = {
        f.url
        for f in rows
        if f.url in answered and _newest(states, f) != was[(f.record_id, f.source_id)]
    }
    reading: dict[str, float] = {}
    for e in extracted:
        for step, seconds in e.spent:
            reading[step] = reading.get(step, 0.0) + seconds
    return Stored(
        reading=reading,
        urls=len(results),
        snapshots=added,
        new_urls=len(new_urls),
        checks=checks,
        failed=len(results) - len(answered),
    )


def _newest(states: dict[tuple[str, str], SourceState], f: FetchRow) -> int | None:
    state = states.get((f.record_id, f.source_id))
    return None if state is None else state.snapshot_id


def fetch_rows(results: Results, plan: Plan) -> list[FetchRow]:
    """Every attempt, once per (record, source) that the URL answers for."""
    return [
        fetch_row(a, t)
        for url, attempts in results.items()
        for t in plan.targets[url]
        for a in attempts
    ]


# What a fetch row holds is FetchRow's to say; an attempt has every one of those fields
# but the (record, source) it answers for.
_ROW_FIELDS = tuple(f.name for f in fields(FetchRow) if f.name not in ("record_id", "source_id"))


def fetch_row(attempt: Attempt, target: Target) -> FetchRow:
    return FetchRow(
        record_id=target.record_id,
        source_id=target.source_id,
        **{name: getattr(attempt, name) for name in _ROW_FIELDS},
    )


def _give_back_memory() -> None:
    """Return freed heap to the OS after each batch (glibc keeps it otherwise)."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


class Batches:
    """The requests in batches of about `size` bodies, formed one at a time.

    A conditional request counts as the share of the last batch's conditional requests
    that brought a body, between a third and one (a half before any came back), so that
    a batch of mostly 304s is larger and a refresh of unchanged sources takes few task
    runs and write sessions. Against a server that ignores validators a batch holds no
    more than `size` bodies.

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
            cost = self.weight if r.conditional else 1
            full = weight + cost > self.size + 1e-9  # (thirds do not add up exactly)
            if batch and (full or (not r.conditional and fresh + 1 > ramp)):
                break
            batch.append(r)
            weight += cost
            fresh += not r.conditional
            self._next += 1
        self.formed += bool(batch)
        return batch

    def observe(self, batch: Sequence[FetchRequest], results: Mapping[str, list[Attempt]]) -> None:
        """Weigh conditional requests by how many of this batch's brought a body."""
        conditional = [r for r in batch if r.conditional]
        if conditional:
            bodies = sum(results[r.url][-1].content_hash is not None for r in conditional)
            self.weight = max(self.MIN_WEIGHT, bodies / len(conditional))
