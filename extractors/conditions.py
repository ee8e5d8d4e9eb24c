"""What must hold of a claim's value (`expect:`): evaluated as a pure function.

The vocabulary is dbt's and Soda's: bounds (`at_least`, `at_most`, `between`,
`equals`), a set of statuses (`status_in`), a move against the value before
(`change: {up_by_more_than | down_by_more_than}`, a number in the figure's unit or a
share "N%"), and a severity (`warn`, `error`). A claim's values on its primary sources
go in; one outcome (`pass`, `warn`, `fail`) and a detail for people come out.

A value in another currency or unit than the claim's own cannot be compared with the
condition's bounds: it never passes silently, it is `warn` with a detail saying so.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from extractors.values import Status


class Condition(StrEnum):
    """A claim's condition after a check (docs/views.md, `claim_status.condition`)."""

    PASS = "pass"
    WARN = "warn"
    FAIL = "fail"

    @property
    def rank(self) -> int:
        return _RANK[self]

    @property
    def broken(self) -> bool:
        return self is not Condition.PASS


_RANK = {Condition.PASS: 0, Condition.WARN: 1, Condition.FAIL: 2}


@dataclass(frozen=True, slots=True)
class Amount:
    """A change's size: a number in the figure's unit, or a share of the value before."""

    size: float
    percent: bool = False

    @classmethod
    def parse(cls, value: object) -> Amount:
        """10 -> 10 in the unit; "10%" -> a tenth of the value before."""
        if isinstance(value, bool):
            raise ValueError(f"bad change {value!r}: write a number or a share like '10%'")
        if isinstance(value, int | float):
            size, percent = float(value), False
        else:
            text = str(value).strip()
            percent = text.endswith("%")
            try:
                size = float(text.removesuffix("%").strip().replace(",", ""))
            except ValueError:
                raise ValueError(
                    f"bad change {value!r}: write a number or a share like '10%'"
                ) from None
        if not math.isfinite(size) or size < 0:
            raise ValueError(f"bad change {value!r}: the size of a change is 0 or more")
        return cls(size, percent)

    def __str__(self) -> str:
        return f"{self.size:g}%" if self.percent else f"{self.size:g}"

    def exceeded_by(self, before: float, after: float) -> bool:
        """Whether |after - before| is more than this amount."""
        moved = abs(after - before)
        if self.percent:
            if before == 0:
                return moved > 0
            return moved / abs(before) * 100 > self.size
        return moved > self.size


@dataclass(frozen=True, slots=True)
class Expect:
    """What must hold of a claim's value; None: that test is not asked for."""

    at_least: float | None = None
    at_most: float | None = None
    between: tuple[float, float] | None = None
    equals: float | None = None
    status_in: tuple[Status, ...] | None = None
    up_by_more_than: Amount | None = None
    down_by_more_than: Amount | None = None
    severity: Condition = Condition.WARN  # what a broken condition is: warn or fail

    def to_json(self) -> str:
        """As the catalog keeps it in the warehouse (read back by `from_json`)."""
        return json.dumps(
            {
                "at_least": self.at_least,
                "at_most": self.at_most,
                "between": list(self.between) if self.between is not None else None,
                "equals": self.equals,
                "status_in": list(self.status_in) if self.status_in is not None else None,
                "up_by_more_than": _amount_text(self.up_by_more_than),
                "down_by_more_than": _amount_text(self.down_by_more_than),
                "severity": self.severity.value,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Expect:
        d = json.loads(text)
        between = d.get("between")
        status_in = d.get("status_in")
        up, down = d.get("up_by_more_than"), d.get("down_by_more_than")
        return cls(
            at_least=d.get("at_least"),
            at_most=d.get("at_most"),
            between=(float(between[0]), float(between[1])) if between else None,
            equals=d.get("equals"),
            status_in=tuple(Status(s) for s in status_in) if status_in is not None else None,
            up_by_more_than=Amount.parse(up) if up is not None else None,
            down_by_more_than=Amount.parse(down) if down is not None else None,
            severity=Condition(d.get("severity", "warn")),
        )

    @property
    def numeric(self) -> bool:
        """Whether any test reads a figure (rather than a status)."""
        return any(
            t is not None
            for t in (
                self.at_least,
                self.at_most,
                self.between,
                self.equals,
                self.up_by_more_than,
                self.down_by_more_than,
            )
        )


def _amount_text(amount: Amount | None) -> str | None:
    return None if amount is None else str(amount)


@dataclass(frozen=True, slots=True)
class SourceValue:
    """A claim's value on one primary source, and the value it showed before (if any)."""

    source_id: str
    value: float | None = None
    unit: str | None = None
    currency: str | None = None
    status: Status | None = None
    text: str | None = None  # as the page wrote it
    before: float | None = None  # the source's previous distinct value
    before_text: str | None = None


@dataclass(frozen=True, slots=True)
class ConditionResult:
    condition: Condition
    detail: str


def evaluate_condition(
    expect: Expect,
    values: Sequence[SourceValue],
    unit: str | None = None,
    currency: str | None = None,
) -> ConditionResult:
    """The claim's condition over its primary sources' values: the worst of theirs.

    `unit` and `currency` are the claim's own (its quote's figure): a value in another is
    `warn`, whatever the severity. No value on any primary source is nothing to break.
    """
    problems: list[tuple[Condition, str]] = []
    seen = 0
    for v in values:
        if v.value is None and v.status is None:
            continue
        seen += 1
        problems.extend(_problems(expect, v, unit, currency))
    if not problems:
        if not seen:
            return ConditionResult(Condition.PASS, "no primary source gives a value yet")
        return ConditionResult(Condition.PASS, "holds on " + _sources(values))
    worst = max((c for c, _ in problems), key=lambda c: c.rank)
    ordered = sorted(problems, key=lambda p: -p[0].rank)
    return ConditionResult(worst, "; ".join(dict.fromkeys(d for _, d in ordered)))


def _sources(values: Sequence[SourceValue]) -> str:
    return ", ".join(v.source_id for v in values if v.value is not None or v.status is not None)


def _problems(
    expect: Expect, v: SourceValue, unit: str | None, currency: str | None
) -> list[tuple[Condition, str]]:
    broken = expect.severity
    where = f"on {v.source_id}"
    out: list[tuple[Condition, str]] = []
    if expect.status_in is not None:
        if v.status is None:
            out.append((Condition.WARN, f"no status found {where}"))
        elif v.status not in expect.status_in:
            allowed = ", ".join(expect.status_in)
            out.append((broken, f"{v.status} is not in status_in [{allowed}] {where}"))
    if not expect.numeric:
        return out
    if v.value is None:
        return [*out, (Condition.WARN, f"no figure found {where}")]
    shown = v.text or f"{v.value:g}"
    if currency is not None and v.currency != currency:
        other = v.currency or "no currency"
        return [*out, (Condition.WARN, f"{shown} is in {other}, not {currency}, {where}")]
    if _unit_differs(unit, v.unit):
        return [*out, (Condition.WARN, f"{shown} is in {v.unit}, not {unit}, {where}")]
    value = v.value
    if expect.at_least is not None and value < expect.at_least:
        out.append((broken, f"{value:g} is below at_least {expect.at_least:g} {where}"))
    if expect.at_most is not None and value > expect.at_most:
        out.append((broken, f"{value:g} is above at_most {expect.at_most:g} {where}"))
    if expect.between is not None:
        low, high = expect.between
        if not low <= value <= high:
            out.append((broken, f"{value:g} is outside between [{low:g}, {high:g}] {where}"))
    if expect.equals is not None and not math.isclose(value, expect.equals, rel_tol=1e-9):
        out.append((broken, f"{value:g} is not equals {expect.equals:g} {where}"))
    if v.before is not None:
        was = v.before_text or f"{v.before:g}"
        up, down = expect.up_by_more_than, expect.down_by_more_than
        if up is not None and value > v.before and up.exceeded_by(v.before, value):
            out.append((broken, f"{was} -> {shown} is up by more than {up} {where}"))
        if down is not None and value < v.before and down.exceeded_by(v.before, value):
            out.append((broken, f"{was} -> {shown} is down by more than {down} {where}"))
    return out


def _unit_differs(claim_unit: str | None, unit: str | None) -> bool:
    """A unit the page gives that is not the claim's ("GB" for "hours"); a unit left out
    on either side is not a difference (the quote's words carry it)."""
    if claim_unit is None or unit is None:
        return False
    return claim_unit.strip().lower() != unit.strip().lower()
