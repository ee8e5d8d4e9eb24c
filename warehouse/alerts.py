"""Alert state and the notification outbox: every line of their SQL."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

import duckdb

from evidence_base.words import AlertKind
from extractors.values import CheckOutcome, Freshness, Grade
from warehouse.db import (
    columns_of,
    field_values,
    insert_rows,
    rows_as,
    sql_file,
    transaction,
)

APP_SHELL = "over HTTP the page is an app shell with no text"
MAX_ATTEMPTS = 20  # a message a channel refused this often is given up on


@dataclass(frozen=True, slots=True)
class Message:
    """One alert message: kept, then queued once per notify channel."""

    kind: AlertKind
    record_id: str | None
    title: str
    body: str
    source_id: str | None = None  # the source it is about, when it is about one


class CheckState(NamedTuple):
    """A current claim check, as evidence alerts compare it."""

    outcome: CheckOutcome
    values: tuple[float, ...]
    found_text: str | None = None  # the words found on the page
    snapshot_id: int | None = None  # the snapshot it was made on
    found_status: str | None = None  # a status claim's other status, when `changed`
    claim_status: str | None = None  # the claim's own `status:`
    counts: bool = True  # false: its source is dead, its page no longer counts
    figure: int | None = None  # the claim's `figure:` (which of its quote's figures)


class ValueState(NamedTuple):
    """One value a source has shown for a claim (a row of `claim_values`)."""

    value: float | None
    status: str | None
    text: str | None
    first_seen_at: datetime
    last_seen_at: datetime
    current: bool

    @property
    def said(self) -> str:
        """As people read it: the figure as written, or the status."""
        if self.status is not None:
            return self.status
        return self.text or (f"{self.value:g}" if self.value is not None else "(none)")

    def same(self, other: ValueState) -> bool:
        if self.value is None and self.status is None:  # a date: its words
            return (other.value, other.status, other.text) == (None, None, self.text)
        return (self.value, self.status) == (other.value, other.status)


@dataclass(frozen=True, slots=True)
class EvidenceState:
    """What evidence alerts compare before and after grading."""

    records: dict[str, tuple[Grade, Freshness]]  # record -> (grade, freshness) as last graded
    checks: dict[tuple[str, str, str], CheckState]  # (record, claim, source) -> its check
    held: dict[tuple[str, str, int], str]  # (record, source, snapshot) -> reason
    shells: dict[tuple[str, str], str]  # (record, source) needing `render: browser` -> why
    # (record, claim, source) -> every value it has shown, oldest first
    values: dict[tuple[str, str, str], tuple[ValueState, ...]] = field(default_factory=dict)
    # (record, claim) -> (condition, detail), for claims with `expect:`
    conditions: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)

    def current_value(self, key: tuple[str, str, str]) -> ValueState | None:
        shown = self.values.get(key, ())
        return shown[-1] if shown and shown[-1].current else None


@dataclass(frozen=True, slots=True)
class SourceHealth:
    record_id: str
    source_id: str
    url: str
    consecutive_failures: int
    reachable: bool
    last_outcome: str | None
    last_error: str | None
    dead_since: datetime | None


@dataclass(frozen=True, slots=True)
class AlertRow:
    alert_id: int
    record_id: str
    source_id: str
    opened_at: datetime
    closed_at: datetime | None
    failures: int
    last_notified_at: datetime | None
    recovery_sent_at: datetime | None
    notified_open_at: datetime | None


@dataclass(frozen=True, slots=True)
class Outgoing:
    delivery_id: int
    channel: str
    kind: str
    title: str
    body: str


@dataclass(frozen=True, slots=True)
class DeadSource:
    """A source found dead, not yet said."""

    record_id: str
    source_id: str
    url: str
    dead_since: datetime
    failing_since: datetime  # the first failure of the streak that killed it
    last_outcome: str | None
    last_http_status: int | None
    consecutive_failures: int
    config_file: str | None


def dead_sources(con: duckdb.DuckDBPyConnection) -> list[DeadSource]:
    return rows_as(DeadSource, con.execute(sql_file("dead_sources.sql")))


def source_health(con: duckdb.DuckDBPyConnection) -> list[SourceHealth]:
    return rows_as(SourceHealth, con.execute(sql_file("alert_sources.sql")))


def latest_alerts(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, str], AlertRow]:
    """The newest alert of every source (open or closed)."""
    alerts = rows_as(
        AlertRow,
        con.execute(
            f"SELECT {columns_of(AlertRow)} FROM store.alerts QUALIFY"  # noqa: S608 (field names)
            " row_number() OVER (PARTITION BY record_id, source_id ORDER BY alert_id DESC) = 1"
        ),
    )
    return {(a.record_id, a.source_id): a for a in alerts}


def open_alert(
    con: duckdb.DuckDBPyConnection, h: SourceHealth, now: datetime, notified: bool
) -> None:
    con.execute(
        "INSERT INTO store.alerts (alert_id, record_id, source_id, url, opened_at, failures,"
        " last_error, last_notified_at, notified_open_at)"
        " VALUES (nextval('store.alert_ids'), ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            h.record_id,
            h.source_id,
            h.url,
            now,
            h.consecutive_failures,
            h.last_error,
            now if notified else None,
            now if notified else None,
        ],
    )


def update_alert(
    con: duckdb.DuckDBPyConnection,
    alert_id: int,
    h: SourceHealth,
    notified_at: datetime | None,
    reopen: bool = False,
) -> None:
    con.execute(
        "UPDATE store.alerts SET failures = ?, last_error = ?,"
        " last_notified_at = coalesce(?, last_notified_at),"
        " notified_open_at = coalesce(?, notified_open_at),"
        " closed_at = CASE WHEN ? THEN NULL ELSE closed_at END"
        " WHERE alert_id = ?",
        [h.consecutive_failures, h.last_error, notified_at, notified_at, reopen, alert_id],
    )


def close_alert(
    con: duckdb.DuckDBPyConnection, alert_id: int, now: datetime, recovery_sent: bool
) -> None:
    con.execute(
        "UPDATE store.alerts SET closed_at = ?,"
        " recovery_sent_at = CASE WHEN ? THEN ? ELSE recovery_sent_at END WHERE alert_id = ?",
        [now, recovery_sent, now, alert_id],
    )


def keep(
    con: duckdb.DuckDBPyConnection,
    messages: Sequence[Message],
    channels: Sequence[tuple[str, str]],
    now: datetime,
    run_id: str | None = None,
) -> None:
    """Keep each message, and queue it for each channel, given as (channel key, masked
    URL)."""
    if not messages:
        return
    ids = [
        r[0]
        for r in con.execute(
            "SELECT nextval('store.notification_ids') FROM range(?)", [len(messages)]
        ).fetchall()
    ]
    insert_rows(
        con,
        "store.messages",
        [
            {"notification_id": i, **field_values(m), "raised_at": now, "run_id": run_id}
            for i, m in zip(ids, messages, strict=True)
        ],
    )
    deliveries = [(i, key, masked) for key, masked in channels for i in ids]
    if deliveries:
        con.executemany(
            "INSERT INTO store.deliveries (delivery_id, notification_id, channel, channel_masked)"
            " VALUES (nextval('store.notification_ids'), ?, ?, ?)",
            deliveries,
        )


def unsent(con: duckdb.DuckDBPyConnection, channel_keys: Sequence[str]) -> list[Outgoing]:
    """Deliveries not yet made to channels still configured, oldest first."""
    if not channel_keys:
        return []
    return rows_as(
        Outgoing,
        con.execute(
            "SELECT d.delivery_id, d.channel, m.kind, m.title, m.body"
            " FROM store.deliveries d JOIN store.messages m USING (notification_id)"
            " WHERE d.sent_at IS NULL AND d.attempts < ? AND list_contains(?, d.channel)"
            " ORDER BY d.delivery_id",
            [MAX_ATTEMPTS, list(channel_keys)],
        ),
    )


def mark_delivery(
    con: duckdb.DuckDBPyConnection, results: Sequence[tuple[int, bool, str | None]], now: datetime
) -> None:
    with transaction(con):
        for delivery_id, ok, error in results:
            con.execute(
                "UPDATE store.deliveries SET attempts = attempts + 1, last_attempt_at = ?,"
                " sent_at = CASE WHEN ? THEN ? ELSE NULL END, last_error = ?"
                " WHERE delivery_id = ?",
                [now, ok, now, error, delivery_id],
            )


def note_run(con: duckdb.DuckDBPyConnection, run_id: str, now: datetime) -> None:
    """A refresh run begins (`evidence alerts` shows the messages of the newest)."""
    con.execute("INSERT INTO store.runs (run_id, started_at) VALUES (?, ?)", [run_id, now])


def evidence_state(con: duckdb.DuckDBPyConnection) -> EvidenceState:
    """What evidence alerts compare before and after grading."""
    records = {
        record_id: (Grade(grade), Freshness(freshness))
        for record_id, grade, freshness in con.execute(
            # as of each record's last grading (the view's freshness moves with the clock)
            "SELECT record_id, arg_max(grade, rowid), arg_max(freshness, rowid)"
            " FROM store.grade_history GROUP BY record_id"
        ).fetchall()
    }
    checks = {
        (record_id, claim_id, source_id): CheckState(
            CheckOutcome(outcome),
            tuple(values or ()),
            found_text,
            snapshot_id,
            found_status,
            claim_status,
            counts,
            figure,
        )
        for (
            record_id,
            claim_id,
            source_id,
            outcome,
            values,
            found_text,
            snapshot_id,
            found_status,
            claim_status,
            counts,
            figure,
        ) in con.execute(
            "SELECT k.record_id, k.claim_id, k.source_id, k.outcome, k.found_values, "
            "k.found_text, k.snapshot_id, k.found_status, c.status, k.counts, c.figure"
            " FROM claim_checks k LEFT JOIN store.claims c USING (record_id, claim_id)"
        ).fetchall()
    }
    values: dict[tuple[str, str, str], tuple[ValueState, ...]] = {}
    for record_id, claim_id, source_id, *value in con.execute(
        "SELECT record_id, claim_id, source_id, value, status, text, first_seen_at, "
        "last_seen_at, current FROM store.claim_values ORDER BY value_id"
    ).fetchall():
        key = (record_id, claim_id, source_id)
        values[key] = (*values.get(key, ()), ValueState(*value))
    conditions = {
        (record_id, claim_id): (condition, detail)
        for record_id, claim_id, condition, detail in con.execute(
            "SELECT record_id, claim_id, condition, detail FROM store.claim_conditions"
        ).fetchall()
    }
    held = {
        (record_id, source_id, snapshot_id): reason
        for record_id, source_id, snapshot_id, reason in con.execute(
            "SELECT record_id, source_id, snapshot_id, reason FROM store.held_snapshots"
        ).fetchall()
    }
    shells = {
        (record_id, source_id): APP_SHELL
        for record_id, source_id in con.execute(
            "SELECT l.record_id, l.source_id FROM store.latest_snapshots l"
            " JOIN store.snapshots s USING (snapshot_id) JOIN store.pages p USING (content_hash)"
            " WHERE s.render = 'http' AND p.app_shell"
        ).fetchall()
    }
    return EvidenceState(
        records=records,
        checks=checks,
        held=held,
        shells=shells,
        values=values,
        conditions=conditions,
    )


def snapshot_texts(con: duckdb.DuckDBPyConnection, ids: Iterable[int]) -> dict[int, str]:
    """The main text of each of these snapshots."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = con.execute(
        "SELECT snapshot_id, coalesce(text, '') FROM snapshots WHERE list_contains(?, snapshot_id)",
        [wanted],
    ).fetchall()
    return dict(rows)


def quotes_by_claim(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, str], str]:
    """(record, claim) -> quote, for messages."""
    rows = con.execute("SELECT record_id, claim_id, quote FROM store.claims").fetchall()
    return {(record_id, claim_id): quote for record_id, claim_id, quote in rows}


def source_urls(con: duckdb.DuckDBPyConnection) -> dict[tuple[str, str], str]:
    rows = con.execute("SELECT record_id, source_id, url FROM store.sources").fetchall()
    return {(record_id, source_id): url for record_id, source_id, url in rows}
