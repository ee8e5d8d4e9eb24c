"""What an extraction worker process runs: one page in, its stored row and claim checks out.

Kept apart from the rest of flows/ so that a worker imports only the extractors and the
warehouse's row types, not httpx, DuckDB or Prefect. The extractors themselves are
imported at the first page read: a refresh whose pages are all unchanged (the common
one) never needs them.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from dataclasses import dataclass
from datetime import datetime

from evidence_base.pause import pause_point
from extractors.values import ClaimCheck, reading_hash
from extractors.version import EXTRACTOR_VERSION
from warehouse import bodies
from warehouse.rows import PageRow

# trafilatura logs every page it cannot read as an ERROR; the fallback reads those pages.
logging.getLogger("trafilatura").setLevel(logging.CRITICAL)


@dataclass(frozen=True, slots=True)
class ExtractJob:
    """One distinct body to read: what a worker process needs, and nothing more."""

    digest: str
    body: bytes
    url: str
    fetched_at: datetime
    content_type: str | None
    encoding: str | None
    quotes: tuple[str, ...] = ()  # claim quotes to check on this page while it is in hand
    # The page the source's newest snapshot was read from, and its fingerprint (empty when
    # it has none): when the body cannot read differently, it is not read at all.
    previous: tuple[str, bytes] | None = None
    # Make the body's fingerprint: for pages that come without validators (they cannot
    # answer 304) and pages fetched before (their body changed): not for a first fetch
    # of a page a server will answer with 304 next time.
    fingerprint: bool = True


@dataclass(frozen=True, slots=True)
class Extracted:
    """A body read: the page as stored with each of its job's quotes checked against its
    text, or (`page` None) the stored page whose reading it cannot differ from."""

    digest: str
    page: PageRow | None
    checks: tuple[tuple[str, ClaimCheck], ...] = ()
    same_as: str | None = None
    spent: tuple[tuple[str, float], ...] = ()  # seconds each step of its reading took


def read_ahead() -> int:
    """Import what reading a page takes, in a worker started before its first page
    comes (the modules run_job imports); the worker's pid."""
    import extractors.claims
    import extractors.encoding
    import extractors.fingerprint
    import extractors.page
    import extractors.soft  # noqa: F401

    return os.getpid()


def run_job(job: ExtractJob) -> Extracted:
    """Decode, read and compress one body (all here, on the cores extraction uses)."""
    from extractors import fingerprint
    from extractors.claims import match_claim, normalize_text
    from extractors.encoding import decode_body
    from extractors.page import extract_page
    from extractors.soft import is_app_shell

    steps = Steps()
    text, _ = decode_body(job.body, job.encoding)
    html = text or ""
    steps.mark("decoding")
    if (
        job.previous is not None
        and job.previous[1]
        and fingerprint.same_text(job.previous[1], html)
    ):
        steps.mark("the same reading")
        return Extracted(job.digest, None, same_as=job.previous[0], spent=steps.spent())
    page = extract_page(html, job.url, job.fetched_at, steps.mark)
    pause_point("extract")
    row = PageRow(
        content_hash=job.digest,
        body_z=bodies.compress(job.body),
        size=len(job.body),
        content_type=job.content_type,
        encoding=job.encoding,
        title=page.title,
        text=page.text,
        extractor_version=EXTRACTOR_VERSION,
        numbers=page.numbers,
        statuses=page.statuses,
        app_shell=is_app_shell(html, page.text),
        text_hash=reading_hash(page.title, page.text),
        fingerprint=fingerprint.make(html, page.text)
        if job.fingerprint and page.method == "trafilatura"
        else None,
        published_on=page.published_on,
        modified_on=page.modified_on,
        read_partly=page.read_partly,
    )
    steps.mark("stored form")  # compressed, fingerprinted, its shell told
    if not job.quotes:
        return Extracted(job.digest, row, spent=steps.spent())
    folded = normalize_text(page.text, page.folded)
    checks = tuple((q, match_claim(q, folded)) for q in job.quotes)
    steps.mark("claim checks")
    return Extracted(job.digest, row, checks, spent=steps.spent())


class Steps:
    """Seconds between marks, by the step each mark ends."""

    def __init__(self) -> None:
        self.at = time.perf_counter()
        self.seconds: dict[str, float] = {}

    def mark(self, step: str) -> None:
        now = time.perf_counter()
        self.seconds[step] = self.seconds.get(step, 0.0) + now - self.at
        self.at = now

    def spent(self) -> tuple[tuple[str, float], ...]:
        return tuple(self.seconds.items())


def watch_parent(parent_pid: int) -> None:
    """In each worker: exit when the process that made the pool is gone, and leave
    Ctrl-C to it (the whole terminal's group gets the SIGINT; the refresh stops us).

    A SIGKILLed refresh cannot shut its pool down, and the workers hold the forkserver
    open, so each worker watches the refresh's PID and leaves no orphans behind.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            try:
                os.kill(parent_pid, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:
                pass

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()
