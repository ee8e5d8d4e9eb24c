"""Delivering alerts: the messages of the rules (rules.py) and of evidence that moved
(messages.py) go to Apprise URLs through an outbox in the database, so a
channel that fails is retried on the next run; it never fails the refresh.
Notify URLs hold secrets: only their sha256 and a masked form are ever stored
or printed.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from urllib.parse import urlsplit

from flows.alerting.messages import changed_snapshots, evidence_messages
from flows.alerting.rules import source_alerts
from flows.catalog import AlertSettings, load_settings
from flows.runtime import progress
from warehouse import alerts
from warehouse.alerts import EvidenceState
from warehouse.db import session, transaction
from warehouse.errors import EvidenceError


def notify_urls(configured: list[str]) -> list[str]:
    """alerts.notify plus EVIDENCE_NOTIFY (space separated), without repeats."""
    urls = [*configured, *os.environ.get("EVIDENCE_NOTIFY", "").split()]
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
    db_path: Path, settings: AlertSettings, before: EvidenceState, now: datetime
) -> int:
    """Open, resend and close alerts, compare the evidence with `before`, queue every
    message for every channel, and deliver what is owed; returns messages delivered."""
    urls = notify_urls(settings.notify)
    channels = [(channel_key(u), mask_url(u)) for u in urls]
    with session(db_path, now=now) as con:
        with transaction(con):
            messages = source_alerts(con, settings.after_failures, settings.resend_after, now)
            after = alerts.evidence_state(con)
            texts = alerts.snapshot_texts(con, changed_snapshots(before, after))
            messages += evidence_messages(
                before, after, alerts.quotes_by_claim(con), alerts.source_urls(con), texts
            )
            alerts.enqueue(con, messages, channels, now)
        pending = alerts.unsent(con, [key for key, _ in channels])
    by_key = {channel_key(u): u for u in urls}
    results = [(o.notification_id, *send(by_key[o.channel], o.title, o.body)) for o in pending]
    with session(db_path, now=now) as con:
        alerts.mark_delivery(con, results, now)
    failed: dict[str, int] = defaultdict(int)
    for (_, ok, error), out in zip(results, pending, strict=True):
        if not ok:
            failed[error or mask_url(by_key[out.channel])] += 1
    for error, count in failed.items():
        progress(f"{count} alert message(s) not delivered: {error}; retried next run")
    if messages and not urls:
        progress(f"{len(messages)} alert(s) raised; no notify URL set (alerts.notify)")
    return sum(ok for _, ok, _ in results)


def send(url: str, title: str, body: str) -> tuple[bool, str | None]:
    """One message to one Apprise URL; (delivered, error with secrets masked)."""
    import apprise

    logging.getLogger("apprise").setLevel(logging.CRITICAL)  # its logs can name the URL
    sender = apprise.Apprise()
    if not sender.add(url):
        return False, f"not a notify URL apprise understands: {mask_url(url)}"
    if sender.notify(title=title, body=body):
        return True, None
    return False, f"delivery to {mask_url(url)} failed"


def notify_flow_failure(flow: object, flow_run: object, state: object) -> None:
    """on_failure hook of the refresh flow: a crash of the flow itself reaches every
    notify channel."""
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
