"""When a source's alert opens, is resent, reopens and closes: the rules of
docs/keeping.md, "Alerts", with the flapping rule (a source that reopens within `resend_after`
of closing reopens silently, and its next recovery is silent too). A resend needs a new
failure (a source not fetched has nothing new to say) and stops when the source dies:
its `dead:` message, dated by the first failure, is the last until it answers again."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from evidence_base.words import AlertKind
from flows.catalog import dead_source_step
from warehouse import alerts
from warehouse.alerts import Message, SourceHealth
from warehouse.db import Connection


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
            # One message per state: a source not fetched since its last message has
            # nothing new to say, and a dead one's `dead:` message said it for good.
            fresh = alert is None or not is_open or h.consecutive_failures != alert.failures
            due = (
                fresh
                and h.dead_since is None
                and (
                    alert is None
                    or alert.last_notified_at is None
                    or (now - alert.last_notified_at >= resend_after)
                )
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


def dead_alerts(con: Connection) -> list[Message]:
    """One `dead:` message for each source found dead since it was last said."""
    return [
        Message(
            kind=AlertKind.DEAD,
            record_id=d.record_id,
            source_id=d.source_id,
            title=f"dead: {d.record_id} {d.source_id} has failed for good since "
            f"{d.failing_since.date().isoformat()}",
            body=f"Record: {d.record_id}\nSource: {d.source_id} {d.url}\n"
            f"Last outcome: {d.last_outcome}"
            + (f" {d.last_http_status}" if d.last_http_status else "")
            + f" ({d.consecutive_failures} failed refreshes)\n"
            f"Failing since: {d.failing_since.isoformat()}\n"
            f"Dead since: {d.dead_since.isoformat()}\n"
            f"Its pages no longer back a grade. Next: {_next_step(d)}.",
        )
        for d in alerts.dead_sources(con)
    ]


def _next_step(d: alerts.DeadSource) -> str:
    if not d.config_file:
        return f"fix or remove the url of {d.source_id} in its record file"
    return dead_source_step(Path(d.config_file), d.record_id, d.source_id)


def _unreachable(h: SourceHealth, since: datetime) -> Message:
    return Message(
        kind=AlertKind.UNREACHABLE,
        record_id=h.record_id,
        source_id=h.source_id,
        title=f"unreachable: {h.record_id} {h.source_id} failed {h.consecutive_failures} "
        "refreshes in a row",
        body=f"Record: {h.record_id}\nSource: {h.source_id} {h.url}\n"
        f"Failures in a row: {h.consecutive_failures}\n"
        f"Last error: {h.last_error or h.last_outcome} ({h.last_outcome})\n"
        f"Failing since: {since.isoformat()}",
    )


def _recovered(h: SourceHealth, failures: int, since: datetime, now: datetime) -> Message:
    return Message(
        kind=AlertKind.RECOVERED,
        record_id=h.record_id,
        source_id=h.source_id,
        title=f"recovered: {h.record_id} {h.source_id} answers again",
        body=f"Record: {h.record_id}\nSource: {h.source_id} {h.url}\n"
        f"Failures in a row before it recovered: {failures}\n"
        f"Unreachable from {since.isoformat()} to {now.isoformat()}",
    )
