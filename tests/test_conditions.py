"""What must hold of a claim's value: `expect:` evaluated as a pure function."""

from __future__ import annotations

import pytest

from extractors.conditions import (
    Amount,
    Condition,
    Expect,
    SourceValue,
    evaluate_condition,
)
from extractors.values import Status

WARN, FAIL = Condition.WARN, Condition.FAIL


def v(value: float | None = None, **kw: object) -> SourceValue:
    return SourceValue(source_id=str(kw.pop("source", "nimbus-free")), value=value, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("expect", "values", "condition", "detail"),
    [
        (Expect(at_least=400), [v(300)], WARN, "300 is below at_least 400 on nimbus-free"),
        (Expect(at_least=300), [v(300)], Condition.PASS, "holds on nimbus-free"),
        (Expect(at_least=400, severity=FAIL), [v(300)], FAIL, "below at_least 400"),
        (Expect(at_most=50), [v(55)], WARN, "55 is above at_most 50"),
        (Expect(between=(10, 20)), [v(21)], WARN, "21 is outside between [10, 20]"),
        (Expect(between=(10, 20)), [v(10)], Condition.PASS, "holds"),
        (Expect(equals=4000), [v(4000.0000000001)], Condition.PASS, "holds"),
        (Expect(equals=4000), [v(2500)], WARN, "2500 is not equals 4000"),
        (
            Expect(status_in=(Status.OPEN, Status.WAITLIST)),
            [v(status=Status.CLOSED)],
            WARN,
            "closed is not in status_in [open, waitlist] on nimbus-free",
        ),
        (
            Expect(status_in=(Status.OPEN, Status.WAITLIST)),
            [v(status=Status.WAITLIST)],
            Condition.PASS,
            "holds",
        ),
        (
            Expect(down_by_more_than=Amount(10, percent=True)),
            [v(3500, before=4000, text="$3,500", before_text="$4,000")],
            WARN,
            "$4,000 -> $3,500 is down by more than 10%",
        ),
        (
            Expect(down_by_more_than=Amount(10, percent=True)),
            [v(3700, before=4000)],
            Condition.PASS,
            "holds",
        ),
        (
            Expect(up_by_more_than=Amount(2)),
            [v(58, before=55)],
            WARN,
            "55 -> 58 is up by more than 2",
        ),
        (Expect(up_by_more_than=Amount(2)), [v(50, before=55)], Condition.PASS, "holds"),
        (Expect(up_by_more_than=Amount(2)), [v(58)], Condition.PASS, "holds"),  # a first value
        (Expect(at_least=1), [], Condition.PASS, "no primary source gives a value yet"),
    ],
)
def test_conditions(
    expect: Expect, values: list[SourceValue], condition: Condition, detail: str
) -> None:
    result = evaluate_condition(expect, values)
    assert result.condition is condition
    assert detail in result.detail


def test_the_worst_source_decides_and_every_broken_one_is_said() -> None:
    expect = Expect(at_least=300, severity=FAIL)
    result = evaluate_condition(
        expect, [v(500, source="a"), v(200, source="b"), v(100, source="c")]
    )
    assert result.condition is FAIL
    assert "200 is below at_least 300 on b" in result.detail
    assert "100 is below at_least 300 on c" in result.detail
    assert "on a" not in result.detail


def test_another_currency_or_unit_never_passes_silently() -> None:
    expect = Expect(at_least=100, severity=FAIL)
    eur = evaluate_condition(expect, [v(3500, currency="EUR", text="€3,500")], currency="USD")
    assert eur.condition is WARN  # whatever the severity: it cannot be compared
    assert eur.detail == "€3,500 is in EUR, not USD, on nimbus-free"
    gb = evaluate_condition(expect, [v(500, unit="GB")], unit="hour")
    assert gb.condition is WARN and "is in GB, not hour" in gb.detail
    same = evaluate_condition(expect, [v(500, unit="hour", currency=None)], unit="hour")
    assert same.condition is Condition.PASS


@pytest.mark.parametrize(
    ("text", "size", "percent"), [("10%", 10, True), (" 2.5 % ", 2.5, True), (3, 3, False)]
)
def test_amounts(text: object, size: float, percent: bool) -> None:
    assert Amount.parse(text) == Amount(size, percent)


@pytest.mark.parametrize("text", ["ten", "-5", "-1%", True, "nan"])
def test_bad_amounts(text: object) -> None:
    with pytest.raises(ValueError, match=r"bad change|0 or more"):
        Amount.parse(text)


def test_an_expect_is_kept_and_read_back_whole() -> None:
    expect = Expect(
        at_least=1,
        at_most=9,
        between=(2, 8),
        equals=5,
        status_in=(Status.OPEN,),
        up_by_more_than=Amount(10, True),
        down_by_more_than=Amount(3),
        severity=FAIL,
    )
    assert Expect.from_json(expect.to_json()) == expect
