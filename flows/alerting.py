"""Alerts people can trust: unreachable sources and evidence that moved, without storms.

A source's alert opens after `alerts.after_failures` failed refreshes in a row and
is sent once; while open it is resent every `alerts.resend_after`; the first
success closes it with a recovery message. An alert that reopens within
`resend_after` of closing (a flapping source) reopens silently, and its next
recovery is silent too. Evidence alerts: one message per record per change (a
grade falls, a claim turns `changed`, a record goes stale, a page is held for
review). Messages go to Apprise URLs through an outbox in the database, so a
channel that fails is retried on the next run; it never fails the refresh.
Notify URLs hold secrets: only their sha256 and a masked form are ever stored
or printed.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
from collections import defaultdict
from collections.abc import Mapping
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

from extractors.numbers import sentence_around
from flows.config import AlertSettings, load_settings
from flows.console import progress
from warehouse import alerts
from warehouse.alerts import CheckState, EvidenceState, Message, SourceHealth
from warehouse.db import Connection, session, transaction
from warehouse.errors import EvidenceError

GRADE_RANK = {"documented": 3, "reported": 2, "unverified": 1, "contradicted": 0}
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


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


# --- unreachable sources ---------------------------------------------------


def source_alerts(
    con: Connection, after_failures: int, resend_after: timedelta, now: datetime
) -> list[Message]:
    """Open, resend, reopen or close each source's alert; the messages to send."""
    messages = []
    latest = alerts.latest_alerts(con)
    for h in alerts.source_health(con):
        alert = latest.get((h.record_id, h.source_id))
        is_open = alert is not None and alert.closed_at is None
        if h.consecutive_failures >= after_failures:
            due = (
                alert is None
                or alert.last_notified_at is None
                or (now - alert.last_notified_at >= resend_after)
            )
            reopens = (
                alert is not None
                and alert.closed_at is not None
                and now - alert.closed_at < resend_after
            )
            if alert is not None and (is_open or reopens):
                alerts.update_alert(
                    con, alert.alert_id, h, now if due else None, reopen=not is_open
                )
                if due:
                    messages.append(_unreachable(h, alert.opened_at if is_open else now))
            else:
                alerts.open_alert(con, h, now, notified=True)
                messages.append(_unreachable(h, now))
        elif h.reachable and alert is not None and is_open:
            owed = alert.notified_open_at is not None and (
                alert.recovery_sent_at is None or alert.recovery_sent_at < alert.notified_open_at
            )
            alerts.close_alert(con, alert.alert_id, now, recovery_sent=owed)
            if owed:
                messages.append(_recovered(h, alert.failures, alert.opened_at, now))
    return messages


def _unreachable(h: SourceHealth, since: datetime) -> Message:
    return Message(
        "unreachable",
        h.record_id,
        f"unreachable: {h.record_id} {h.source_id} failed {h.consecutive_failures} "
        "refreshes in a row",
        f"Record: {h.record_id}\nSource: {h.source_id} {h.url}\n"
        f"Failures in a row: {h.consecutive_failures}\n"
        f"Last error: {h.last_error or h.last_outcome} ({h.last_outcome})\n"
        f"Failing since: {since.isoformat()}",
    )


def _recovered(h: SourceHealth, failures: int, since: datetime, now: datetime) -> Message:
    return Message(
        "recovered",
        h.record_id,
        f"recovered: {h.record_id} {h.source_id} answers again",
        f"Record: {h.record_id}\nSource: {h.source_id} {h.url}\n"
        f"Failures in a row before it recovered: {failures}\n"
        f"Unreachable from {since.isoformat()} to {now.isoformat()}",
    )


# --- evidence that moved ----------------------------------------------------


def evidence_messages(
    before: EvidenceState,
    after: EvidenceState,
    quotes: dict[tuple[str, str], str],
    urls: dict[tuple[str, str], str],
    texts: Mapping[int, str] | None = None,
) -> list[Message]:
    """One message per record per change, comparing states around a grading (`texts`:
    the main text of the snapshots the changed checks were made on, see
    `changed_snapshots`, for the sentences they quote)."""
    texts = texts or {}
    messages = []
    old_records, new_records = before.records, after.records
    for record, (grade, freshness) in new_records.items():
        if record not in old_records:
            continue  # a record seen for the first time has nothing to fall from
        old_grade, old_freshness = old_records[record]
        if GRADE_RANK.get(grade, 0) < GRADE_RANK.get(old_grade, 0):
            moved = _moved_checks(before, after, record)
            why = (
                "\n".join(
                    f"Moved by: {claim} on {source} {urls.get((record, source), '')}: "
                    f"{was} -> {now}"
                    for claim, source, was, now in moved
                )
                if moved
                else "Moved by: no claim check changed; a source stopped counting "
                "(see `evidence sources`)"
            )
            by = f" ({', '.join(f'{c} on {s}' for c, s, _, _ in moved[:3])})" if moved else ""
            messages.append(
                Message(
                    "grade",
                    record,
                    f"grade: {record} fell from {old_grade} to {grade}{by}",
                    f"Record: {record}\nGrade: {old_grade} -> {grade}\n{why}\n"
                    + _sources(record, urls),
                )
            )
        if freshness == "stale" and old_freshness != "stale":
            messages.append(
                Message(
                    "stale",
                    record,
                    f"stale: {record} is stale",
                    f"Record: {record}\nFreshness: {old_freshness} -> stale "
                    "(no source backing its grade has answered within the window)\n"
                    + _sources(record, urls),
                )
            )
    changes: dict[str, list[str]] = defaultdict(list)
    for (record, claim, source), check, old in _new_changes(before, after):
        quote = quotes.get((record, claim), "")
        was = (
            old.values
            if old is not None and old.outcome == "changed"
            else tuple(float(n) for n in _NUMBER.findall(quote.replace(",", "")))
        )
        line = (
            f"{claim} on {source} {urls.get((record, source), '')}: "
            f'{_numbers(was)} -> {_numbers(check.values)} (quote: "{quote}")'
        )
        said = _sentence(texts, old, quote) if old is not None else None
        says = _sentence(texts, check, check.found_text)
        if said:
            line += f'\n  Before: "{said}"'
        if says:
            line += f'\n  After: "{says}"'
        changes[record].append(line)
    for record, lines in changes.items():
        claims = ", ".join(sorted({line.split(" ", 1)[0] for line in lines}))
        messages.append(
            Message(
                "changed",
                record,
                f"changed: {record} {claims} now shows other numbers",
                f"Record: {record}\n" + "\n".join(lines),
            )
        )
    for (record, source, _snapshot), reason in after.held.items():
        if (record, source, _snapshot) not in before.held:
            messages.append(
                Message(
                    "review",
                    record,
                    f"review: {record} {source} page held for review",
                    f"Record: {record}\nSource: {source} {urls.get((record, source), '')}\n"
                    f"Why: {reason}\nThe previous page still counts; "
                    f"`evidence accept {record} {source}` lets the new one count.",
                )
            )
    for (record, source), reason in after.shells.items():
        if (record, source) not in before.shells:
            messages.append(
                Message(
                    "review",
                    record,
                    f"review: {record} {source} needs render: browser",
                    f"Record: {record}\nSource: {source} {urls.get((record, source), '')}\n"
                    f"Why: {reason}\nAdd `render: browser` to this source in its record "
                    "file: its claims cannot be checked over HTTP.",
                )
            )
    return messages


def _numbers(values: tuple[float, ...]) -> str:
    return ", ".join(f"{v:g}" for v in values) or "(none)"


def _new_changes(
    before: EvidenceState, after: EvidenceState
) -> list[tuple[tuple[str, str, str], CheckState, CheckState | None]]:
    """Checks that turned `changed`, or changed to other numbers, in this run."""
    found = []
    for key, check in after.checks.items():
        old = before.checks.get(key)
        if check.outcome != "changed" or key[0] not in before.records:
            continue
        if old is not None and old.outcome == "changed" and old.values == check.values:
            continue
        found.append((key, check, old))
    return found


def changed_snapshots(before: EvidenceState, after: EvidenceState) -> set[int]:
    """The snapshots whose text the `changed:` messages quote, before and after."""
    ids: set[int] = set()
    for _, check, old in _new_changes(before, after):
        for c in (check, old):
            if c is not None and c.snapshot_id is not None:
                ids.add(c.snapshot_id)
    return ids


def _sentence(texts: Mapping[int, str], check: CheckState, words: str | None) -> str | None:
    """The sentence of the check's snapshot holding `words` (what it found, or the quote
    a confirmed check found)."""
    if check.snapshot_id is None or check.snapshot_id not in texts:
        return None
    text = texts[check.snapshot_id]
    return sentence_around(text, check.found_text or words) or sentence_around(text, words)


def _moved_checks(
    before: EvidenceState, after: EvidenceState, record: str
) -> list[tuple[str, str, str, str]]:
    """(claim, source, outcome before, outcome now) of the record's checks that moved."""
    moved = []
    for (rec, claim, source), check in sorted(after.checks.items()):
        if rec != record:
            continue
        old = before.checks.get((rec, claim, source))
        was = old.outcome if old is not None else "unchecked"
        if was != check.outcome:
            moved.append((claim, source, was, check.outcome))
    return moved


def _sources(record: str, urls: dict[tuple[str, str], str]) -> str:
    lines = [f"  {source}: {url}" for (r, source), url in sorted(urls.items()) if r == record]
    return "Sources:\n" + "\n".join(lines)


# --- delivery ---------------------------------------------------------------


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
