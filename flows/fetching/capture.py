"""Sending captures to a web archive: a Save Page Now 2 compatible API (archive.save).

`POST <base>/save` with `url=...` is answered with a job id; `GET
<base>/save/status/<job_id>` says `pending`, `success` (with the capture's timestamp) or
`error`. Each run sends what the rate allows now (archive.per_minute, counted over the
last minute across runs) and asks once after each job sent before: a refresh never waits
for the archive. A 429 waits for its Retry-After; an error backs off and is sent again on
a later run; a capture the archive answered is never sent again.
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from evidence_base.errors import first_line
from evidence_base.pause import pause_point
from flows.catalog import ArchiveSettings, FetchSettings, is_loopback
from flows.fetching.attempts import FetchFailed
from flows.fetching.bodies import ACCEPT_ENCODING, read_body
from flows.fetching.http import send
from flows.runtime import progress
from warehouse import archive
from warehouse.db import Connection, session

TIMEOUT_S = 15.0  # per request to the archive, its whole answer included
ANSWER_MAX_BYTES = 1_000_000  # an answer is a few hundred bytes of JSON
BUDGET_S = 45.0  # the whole step, a run: what is left waits for the next
POLL_AFTER = timedelta(minutes=1)  # a job still pending is asked after again


@dataclass(frozen=True, slots=True)
class CaptureReport:
    queued: int = 0
    sent: int = 0
    archived: int = 0
    waiting: int = 0  # still queued or pending after this run


def send_captures(
    db: Path, settings: ArchiveSettings, fetch: FetchSettings, now: datetime
) -> CaptureReport:
    """Queue what the run confirmed or changed, ask after the jobs sent before, and send
    what the rate allows; never raises for the archive's sake. One connection for the
    step: each answer is written (committed) the moment it comes. The archive is someone
    else's server: its answers are read within ANSWER_MAX_BYTES (decoded), each within
    TIMEOUT_S however slowly it drips, the whole step within BUDGET_S, and a redirect is
    never followed (a POST sent on to another address is not ours to send)."""
    if settings.save is None:
        return CaptureReport()
    headers = {
        "Accept": "application/json",
        "Accept-Encoding": ACCEPT_ENCODING,
        "User-Agent": fetch.user_agent,
    }
    key = os.environ.get(settings.key_env or "", "") if settings.key_env else ""
    parts = urlsplit(settings.save)
    if key and parts.scheme != "https" and not is_loopback(parts.hostname or ""):
        progress(
            f"archive: the key is not sent to {settings.save}: a credential goes over https only"
        )
        key = ""
    if key:
        headers["Authorization"] = f"LOW {key}"
    report, polls = asyncio.run(_captures(db, settings, headers, now))
    if report.queued or report.sent or report.archived or polls:
        progress(
            f"archive: {report.queued} capture(s) queued, {report.sent} sent, "
            f"{report.archived} archived; {report.waiting} waiting"
        )
    return report


async def _captures(
    db: Path, settings: ArchiveSettings, headers: dict[str, str], now: datetime
) -> tuple[CaptureReport, int]:
    assert settings.save is not None
    sent = done = 0
    async with httpx.AsyncClient(headers=headers, follow_redirects=False) as client:
        with session(db, now=now) as con:
            queued = archive.queue(con, now)
            polls = archive.waiting_on_archive(con, now)
            room = settings.per_minute - archive.sent_since(con, now - timedelta(minutes=1))
            todo = archive.due(con, now, room)
            try:
                async with asyncio.timeout(BUDGET_S):
                    for capture in polls:
                        done += await _ask(client, con, settings.save, capture, now)
                    for capture in todo:
                        archive.sending(con, capture.capture_id, now)
                        answer = await _send(client, con, settings.save, capture, now)
                        if answer is None:
                            break  # the archive asked us to wait: the rest wait with it
                        sent += answer
                        pause_point("archive")  # tests kill a run here, between two captures
            except TimeoutError:
                pass  # the step's time is up: what is left waits for the next run
            return CaptureReport(queued, sent, done, archive.waiting(con)), len(polls)


class _Trouble(Exception):
    """The archive's answer could not be had or read."""


async def _exchange(
    client: httpx.AsyncClient, method: str, url: str, data: dict[str, str] | None = None
) -> tuple[int, dict, httpx.Headers]:
    """(status, JSON object or {}, headers) of one request to the archive, bounded."""
    try:
        async with asyncio.timeout(TIMEOUT_S):
            request = client.build_request(method, url, data=data)
            response = await send(client, request)
            try:
                body = await read_body(response, ANSWER_MAX_BYTES)
            finally:
                await response.aclose()
    except TimeoutError:
        raise _Trouble(f"no whole answer within {TIMEOUT_S:g} s") from None
    except (FetchFailed, httpx.HTTPError, httpx.InvalidURL, ValueError) as e:
        raise _Trouble(first_line(e)) from None
    if response.is_redirect:
        raise _Trouble(f"HTTP {response.status_code}: a redirect, not followed")
    return response.status_code, _json(body), response.headers


async def _send(
    client: httpx.AsyncClient, con: Connection, base: str, capture: archive.Capture, now: datetime
) -> int | None:
    """Send one capture: 1 when the archive took it, 0 when it failed (backed off), None
    when it asked to be left alone for a while (429)."""
    try:
        status, answer, headers = await _exchange(
            client, "POST", f"{base}/save", {"url": capture.url}
        )
    except _Trouble as e:
        return _retry(con, capture, now, f"archive did not answer: {e}")
    if status == 429:
        wait = _retry_after(headers.get("Retry-After"))
        archive.later(con, capture.capture_id, now + wait, "429 from the archive", again=True)
        archive.hold(con, now + wait)  # the archive's limit holds for every capture
        return None
    job = answer.get("job_id") if 200 <= status < 300 else None
    if not isinstance(job, str) or not job:
        message = answer.get("message")
        return _retry(con, capture, now, f"HTTP {status}" + (f": {message}" if message else ""))
    archive.answered(con, capture.capture_id, job)
    return 1


async def _ask(
    client: httpx.AsyncClient, con: Connection, base: str, capture: archive.Capture, now: datetime
) -> int:
    """Ask after one job: 1 when it is archived."""
    try:
        code, status, _ = await _exchange(client, "GET", f"{base}/save/status/{capture.job_id}")
    except _Trouble as e:
        archive.later(con, capture.capture_id, now + POLL_AFTER, str(e), again=False)
        return 0
    when = _timestamp(status.get("timestamp"))
    if status.get("status") == "success" and when is not None:
        original = status.get("original_url") or capture.url
        url = f"{base}/web/{status['timestamp']}/{original}"
        archive.archived(con, capture.capture_id, url, when)
        return 1
    if status.get("status") == "error" or (code >= 400 and code != 429):
        error = status.get("message") or status.get("status_ext") or f"HTTP {code}"
        return _retry(con, capture, now, f"the archive failed: {error}")
    # pending (or a 429): ask again later
    archive.later(con, capture.capture_id, now + POLL_AFTER, None, again=False)
    return 0


def _retry(con: Connection, capture: archive.Capture, now: datetime, error: str) -> int:
    """Send it anew after its back-off."""
    at = now + archive.backoff(capture.attempts + 1)
    archive.later(con, capture.capture_id, at, error[:300], again=True)
    return 0


def _timestamp(value: object) -> datetime | None:
    """A Wayback timestamp (YYYYMMDDhhmmss, UTC), or None."""
    try:
        return datetime.strptime(str(value), "%Y%m%d%H%M%S").replace(tzinfo=UTC)
    except ValueError:
        return None


def _retry_after(value: str | None) -> timedelta:
    try:
        return timedelta(seconds=max(1.0, min(float(value or 60), 86400.0)))
    except ValueError:
        return timedelta(seconds=60)


def _json(body: bytes) -> dict:
    try:
        data = json.loads(body)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
