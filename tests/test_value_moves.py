"""Every moved value told: in the run's report, its artifact and its alerts, a status
claim that flips says `open -> closed`, a figure that moves again says `$55 -> $58`
(its grade moved or not), and conditions alert when they break and when they hold."""

from __future__ import annotations

from datetime import UTC, datetime

from evidence_cli.report import report_text
from extractors.values import Freshness, Grade
from flows.alerting import (
    RunReport,
    condition_moves,
    evidence_messages,
    history_text,
    value_moves,
)
from flows.alerting.artifacts import changes_report
from warehouse.alerts import CheckState, EvidenceState, ValueState
from warehouse.queries import RecordSummary

D1, D2, D3 = (datetime(2026, 11, d, 6, tzinfo=UTC) for d in (2, 20, 30))
URLS = {("acme", "p"): "https://acme.example/pricing"}
ACME = RecordSummary(
    record_id="acme",
    grade=Grade.CONTRADICTED,
    freshness=Freshness.FRESH,
    fetched=1,
    failed=0,
    sources_confirming=0,
    stale_on=None,
)


def value(text: str, v: float | None, first: datetime, last: datetime, current: bool) -> ValueState:
    return ValueState(v, None, text, first, last, current)


def state(checks: dict, values: dict, conditions: dict | None = None) -> EvidenceState:
    return EvidenceState(
        records={"acme": ("contradicted", "fresh")},
        checks=checks,
        held={},
        shells={},
        values=values,
        conditions=conditions or {},
    )


def test_a_figure_that_moves_again_on_a_changed_claim_is_told() -> None:
    key = ("acme", "credits", "p")
    before = state(
        {key: CheckState("changed", (55.0,), "$55 a month", 1)},
        {key: (value("$50", 50, D1, D1, False), value("$55", 55, D2, D2, True))},
    )
    after = state(
        {key: CheckState("changed", (58.0,), "$58 a month", 2)},
        {
            key: (
                value("$50", 50, D1, D1, False),
                value("$55", 55, D2, D2, False),
                value("$58", 58, D3, D3, True),
            )
        },
    )
    (move,) = value_moves(before, after)
    assert move.line() == "credits on p: $55 -> $58"
    assert history_text(move.history) == (
        "$50 2026-11-02 to 2026-11-02; $55 2026-11-20 to 2026-11-20; $58 since 2026-11-30"
    )
    (message,) = evidence_messages(before, after, {("acme", "credits"): "$50 a month"}, URLS)
    assert message.title == "changed: acme credits $55 -> $58"
    assert "History: $50 2026-11-02 to 2026-11-02; $55" in message.body
    report = RunReport(run_id="r", records=[ACME], moved=[], claims=[], failures=[], values=[move])
    assert "acme: credits on p: $55 -> $58" in report_text(report)
    assert "acme / credits on p: $55 -> $58" in changes_report(report)


def test_a_status_that_flips_says_open_to_closed() -> None:
    key = ("acme", "applications", "p")
    before = state(
        {key: CheckState("confirmed", (), "Applications are open", 1, None, "open")},
        {key: (ValueState(None, "open", "Applications are open", D1, D2, True),)},
    )
    after = state(
        {key: CheckState("changed", (), "Applications are closed", 2, "closed", "open")},
        {
            key: (
                ValueState(None, "open", "Applications are open", D1, D2, False),
                ValueState(None, "closed", "Applications are closed", D3, D3, True),
            )
        },
    )
    (message,) = [
        m
        for m in evidence_messages(
            before, after, {("acme", "applications"): "Applications are open"}, URLS
        )
        if m.kind == "changed"
    ]
    assert message.title == "changed: acme applications open -> closed"
    assert "open 2026-11-02 to 2026-11-20; closed since 2026-11-30" in message.body
    (move,) = value_moves(before, after)
    assert move.line() == "applications on p: open -> closed"


def test_a_value_back_after_an_absence_is_no_move_and_a_first_value_is_none() -> None:
    key = ("acme", "credits", "p")
    before = state({}, {key: (value("$55", 55, D1, D1, False),)})  # absent at the last run
    after = state({}, {key: (value("$55", 55, D1, D3, True),)})
    assert value_moves(before, after) == []
    assert value_moves(state({}, {}), after) == []


def test_conditions_alert_when_they_break_and_hold_again_never_while_broken() -> None:
    key = ("acme", "gpu-hours")
    broken = {key: ("fail", "300 is below at_least 400 on p")}
    first = condition_moves(state({}, {}), state({}, {}, broken))
    assert [m.line() for m in first] == [
        "acme/gpu-hours: condition fail: 300 is below at_least 400 on p"
    ]  # on the first check too
    assert condition_moves(state({}, {}, broken), state({}, {}, broken)) == []
    held = condition_moves(state({}, {}, broken), state({}, {}, {key: ("pass", "holds on p")}))
    messages = evidence_messages(
        state({}, {}, broken), state({}, {}, {key: ("pass", "holds on p")}), {}, URLS
    )
    assert [m.title for m in messages] == ["recovered: acme gpu-hours condition holds again"]
    assert held[0].line() == "acme/gpu-hours: condition holds again (fail -> pass)"
    messages = evidence_messages(
        state({}, {}, {key: ("pass", "holds")}), state({}, {}, broken), {}, URLS
    )
    assert [(m.kind, m.title) for m in messages] == [
        ("condition", "condition: acme gpu-hours fail: 300 is below at_least 400 on p")
    ]
    report = RunReport(
        run_id="r", records=[ACME], moved=[], claims=[], failures=[], conditions=first
    )
    assert report_text(report).splitlines()[0].startswith("acme/gpu-hours: condition fail")


def test_a_corrected_figure_is_no_value_move_of_the_page() -> None:
    # the quote "5 seats and 10 GPUs" read its first figure (5); the keeper sets
    # `figure: 2` as the page goes from 10 to 3 GPUs: the page moved 10 -> 3 (the claim's
    # own check says so), never 5 -> 3
    key = ("acme", "gpus", "p")
    before = state(
        {key: CheckState("confirmed", (5.0, 10.0), "5 seats and 10 GPUs", 1, figure=None)},
        {key: (value("5", 5, D1, D2, True),)},
    )
    after = state(
        {key: CheckState("changed", (5.0, 3.0), "5 seats and 3 GPUs", 2, figure=2)},
        {key: (value("5", 5, D1, D2, False), value("3", 3, D3, D3, True))},
    )
    assert value_moves(before, after) == []
    # the same figure read again: a move of the page
    again = state(
        {key: CheckState("changed", (5.0, 1.0), "5 seats and 1 GPU", 3, figure=2)},
        {key: (*after.values[key][:1], value("3", 3, D3, D3, False), value("1", 1, D3, D3, True))},
    )
    (move,) = value_moves(after, again)
    assert move.line() == "gpus on p: 3 -> 1"
