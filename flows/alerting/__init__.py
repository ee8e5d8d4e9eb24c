"""Alerts people can trust: unreachable sources and evidence that moved, without storms.

A source's alert opens after `alerts.after_failures` failed refreshes in a row and is
sent once; while open it is resent every `alerts.resend_after`; the first success closes
it with a recovery message (rules.py). Evidence alerts say what moved (messages.py).
Every message is kept, and goes through an outbox to the notify URLs (delivery.py). What
moved in a run (moves.py) is said the same in the alerts, the run's report (report.py)
and its Prefect artifacts (artifacts.py).
"""

from flows.alerting.artifacts import publish
from flows.alerting.delivery import (
    channel_key,
    deliver,
    mask_url,
    notify_flow_failure,
    notify_urls,
    raise_and_deliver,
    send,
)
from flows.alerting.messages import changed_snapshots, evidence_messages
from flows.alerting.moves import (
    ClaimMove,
    ConditionMove,
    RecordMove,
    ValueMove,
    claim_moves,
    condition_moves,
    history_text,
    record_moves,
    value_moves,
)
from flows.alerting.report import Failure, RunReport, failures_by_url
from flows.alerting.rules import source_alerts

__all__ = [
    "ClaimMove",
    "ConditionMove",
    "Failure",
    "RecordMove",
    "RunReport",
    "ValueMove",
    "changed_snapshots",
    "channel_key",
    "claim_moves",
    "condition_moves",
    "deliver",
    "evidence_messages",
    "failures_by_url",
    "history_text",
    "mask_url",
    "notify_flow_failure",
    "notify_urls",
    "publish",
    "raise_and_deliver",
    "record_moves",
    "send",
    "source_alerts",
    "value_moves",
]
