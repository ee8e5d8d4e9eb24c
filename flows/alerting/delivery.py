"""Delivering alerts: the messages of the rules (rules.py) and of evidence that moved
(messages.py) go to Apprise URLs through an outbox in the database, so a
channel that fails is retried on the next run; it never fails the refresh.
Notify URLs hold secrets: only their sha256 and a masked form are ever stored
or printed.
"""

from __future__ import annotations

import hashlib
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

from evidence_base import environment
from evidence_base.errors import EvidenceError, first_line
from evidence_base.words import AlertKind
from flows.alerting.courier import Courier
from flows.alerting.messages import changed_snapshots, evidence_messages, review_by_messages
from flows.alerting.rules import dead_alerts, source_alerts
from flows.catalog import AlertSettings, Settings, load_catalog, resolve_db
from flows.runtime import clock, progress
from warehouse import alerts, keeping
from warehouse.alerts import EvidenceState, Message
from warehouse.db import session, transaction
from warehouse.lock import refresh_lock


def notify_urls(configured: list[str]) -> list[str]:
    """alerts.notify plus EVIDENCE_NOTIFY (space separated), without repeats."""
    urls = [*configured, *(environment.get("EVIDENCE_NOTIFY") or "").split()]
    return list(dict.fromkeys(u for u in urls if u.strip()))


def mask_url(url: str) -> str:
    """scheme://host[:port]/*** : tokens, passwords, paths and queries never shown."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "<unparseable notify URL>"
    secret = parts.username or parts.password or parts.path.strip("/") or parts.query
    return f"{parts.scheme}://{host}{port}" + ("/***" if secret else "")


def channel_key(url: str) -> str:
    return hashlib.sha256(url.encode("utf-8")).hexdigest()


def raise_and_deliver(
    db_path: Path,
    settings: AlertSettings,
    before: EvidenceState,
    now: datetime,
    run_id: str | None = None,
) -> list[Message]:
    """Open, resend and close alerts, compare the evidence with `before`, keep every
    message (queued for every channel), and deliver what is owed; the messages raised."""
    urls = notify_urls(settings.notify)
    with session(db_path, now=now) as con:
        with transaction(con):
            messages = source_alerts(con, settings.after_failures, settings.resend_after, now)
            messages += dead_alerts(con)
            after = alerts.evidence_state(con)
            texts = alerts.snapshot_texts(con, changed_snapshots(before, after))
            messages += evidence_messages(
                before, after, alerts.quotes_by_claim(con), alerts.source_urls(con), texts, now
            )
            messages += review_by_messages(keeping.due_review_dates(con, now))
            alerts.keep(con, messages, _channels(urls), now, run_id)
    deliver(db_path, urls, now)
    tell(messages, urls)
    return messages


# A notify endpoint is someone's server: it may answer a byte at a time for ever. A
# message gets this long, and all of a run's deliveries that long together; what is
# left is retried next run. A channel that ran out of time gets no more this run.
SEND_TIMEOUT_S = 5.0
DELIVERY_BUDGET_S = 15.0


def deliver(db_path: Path, urls: list[str], now: datetime) -> int:
    """Send the deliveries owed to the configured channels, within SEND_TIMEOUT_S each
    and DELIVERY_BUDGET_S in all; returns those made."""
    by_key = {channel_key(u): u for u in urls}
    if not by_key:  # no channel, nothing owed to one
        return 0
    with session(db_path, now=now) as con:
        pending = alerts.unsent(con, list(by_key))
    results: list[tuple[int, bool, str | None]] = []
    slow: set[str] = set()  # channels that ran out of time: left for the next run
    deadline = time.monotonic() + DELIVERY_BUDGET_S
    with Courier() as courier:
        for o in pending:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            if o.channel in slow:
                continue
            ok, error, timed_out = _send(courier, by_key[o.channel], o.title, o.body, left)
            if timed_out:
                slow.add(o.channel)
            results.append((o.delivery_id, ok, error))
    if len(results) < len(pending):
        progress(f"{len(pending) - len(results)} alert message(s) left for the next run")
    pending = [o for o in pending if o.delivery_id in {r[0] for r in results}]
    if results:
        with session(db_path, now=now) as con:
            alerts.mark_delivery(con, results, now)
    failed: dict[str, int] = defaultdict(int)
    for (_, ok, error), out in zip(results, pending, strict=True):
        if not ok:
            failed[error or mask_url(by_key[out.channel])] += 1
    for error, count in failed.items():
        progress(f"{count} alert message(s) not delivered: {error}; retried next run")
    return sum(ok for _, ok, _ in results)


def tell(messages: list[Message], urls: list[str]) -> None:
    """Say on stderr what was raised: each title when no channel will carry it."""
    if not messages:
        return
    if urls:
        progress(f"{len(messages)} alert(s) raised, queued for {len(urls)} notify URL(s)")
        return
    for m in messages:
        progress(f"alert: {m.title}")
    progress(
        f"{len(messages)} alert(s) raised and kept (`evidence alerts`); "
        "no notify URL set (alerts.notify)"
    )


def _channels(urls: list[str]) -> list[tuple[str, str]]:
    return [(channel_key(u), mask_url(u)) for u in urls]


def _send(
    courier: Courier, url: str, title: str, body: str, budget_s: float
) -> tuple[bool, str | None, bool]:
    """One message within SEND_TIMEOUT_S (and no more than `budget_s`); (delivered, error
    with the URL's secrets masked, timed out)."""
    limit = min(SEND_TIMEOUT_S, budget_s)
    ok, error, timed_out = courier.send(url, title, body, limit)
    if ok:
        return True, None, False
    return False, f"delivery to {mask_url(url)}: {error}", timed_out


def send(url: str, title: str, body: str) -> tuple[bool, str | None]:
    """One message to one Apprise URL, within SEND_TIMEOUT_S; (delivered, error with
    secrets masked)."""
    with Courier() as courier:
        ok, error, _ = _send(courier, url, title, body, SEND_TIMEOUT_S)
    return ok, error


def notify_flow_failure(flow: object, flow_run: object, state: object) -> None:
    """on_failure hook of the refresh flow: a crash of the flow itself reaches every
    notify channel, and is kept with the other messages in its database, when that
    exists and no other process holds it (a config error writes nothing: the settings or
    the catalog must load)."""
    params = getattr(flow_run, "parameters", {}) or {}
    config_dir = Path(params.get("config_dir") or "config")
    try:
        settings: Settings | None = load_catalog(config_dir).settings
    except EvidenceError:
        settings = None
    urls = notify_urls(settings.alerts.notify if settings is not None else [])
    error = getattr(state, "message", None) or "the refresh flow failed"
    name = getattr(flow_run, "name", "?")
    message = Message(
        kind=AlertKind.FLOW_FAILED,
        record_id=None,
        title=f"flow-failed: evidence-refresh run {name}",
        body=str(error)[:2000],
    )
    try:
        now = clock.now()
    except EvidenceError:  # a bad EVIDENCE_NOW may be the crash itself
        now = datetime.now(UTC)
    kept = False
    if settings is not None:
        try:
            db = resolve_db(params.get("db_path"), settings)  # not a database: not kept
            if db.exists():
                with refresh_lock(db), session(db, now=now) as con, transaction(con):
                    alerts.keep(con, [message], _channels(urls), now, str(flow_run.id))  # type: ignore[attr-defined]
                kept = True
                deliver(db, urls, now)
        except Exception as e:  # the hook of a crash: it must not raise one of its own
            progress(f"could not keep the failed run's message: {first_line(e)}")
    if not kept:
        for url in urls:
            ok, failure = send(url, message.title, message.body)
            if not ok:
                progress(f"could not report the failed run: {failure}")
    tell([message], urls)
