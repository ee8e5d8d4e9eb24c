"""Alerts people can trust: unreachable sources and evidence that moved, without storms.

A source's alert opens after `alerts.after_failures` failed refreshes in a row and is
sent once; while open it is resent every `alerts.resend_after`; the first success closes
it with a recovery message (rules.py). Evidence alerts say what moved (messages.py).
Every message goes through an outbox to the notify URLs (delivery.py).
"""

from flows.alerting.delivery import (
    channel_key,
    mask_url,
    notify_flow_failure,
    notify_urls,
    raise_and_deliver,
    send,
)
from flows.alerting.messages import GRADE_RANK, changed_snapshots, evidence_messages
from flows.alerting.rules import source_alerts

__all__ = [
    "GRADE_RANK",
    "changed_snapshots",
    "channel_key",
    "evidence_messages",
    "mask_url",
    "notify_flow_failure",
    "notify_urls",
    "raise_and_deliver",
    "send",
    "source_alerts",
]
