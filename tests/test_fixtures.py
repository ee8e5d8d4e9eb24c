"""Figures and statuses on saved pages, against what a careful reader wrote beside them.

Reports precision and recall over every fixture (pytest -s shows them) and holds floors.
"""

from __future__ import annotations

import math
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
import yaml

from extractors.page import extract_page
from extractors.values import QuotedNumber

PAGES = Path(__file__).parent / "fixtures" / "pages"
NAMES = sorted(p.stem for p in PAGES.glob("*.html"))
FLOOR_PRECISION = 0.9
FLOOR_RECALL = 0.9


def expected(name: str) -> dict:
    return yaml.safe_load((PAGES / f"{name}.yaml").read_text(encoding="utf-8"))


def read(name: str) -> tuple[list[QuotedNumber], list[str]]:
    spec = expected(name)
    fetched = spec["fetched_at"]
    at = datetime(fetched.year, fetched.month, fetched.day, tzinfo=UTC)
    page = extract_page((PAGES / f"{name}.html").read_text(encoding="utf-8"), None, at)
    return list(page.numbers), sorted({s.status.value for s in page.statuses})


def same(found: QuotedNumber, want: dict) -> bool:
    if found.kind.value != want["kind"]:
        return False
    for key in ("value", "value_end"):
        if key in want or key == "value_end":
            got, exp = getattr(found, key), want.get(key)
            if (got is None) != (exp is None) or (
                got is not None and not math.isclose(got, exp, rel_tol=1e-9)
            ):
                return False
    for key in ("unit", "currency", "qualifier"):
        if key in want and getattr(found, key) != want[key]:
            return False
    for key in ("date_from", "date_to"):
        if key in want and getattr(found, key) != _as_date(want[key]):
            return False
    return True


def _as_date(value: date | str) -> date:
    return value if isinstance(value, date) else date.fromisoformat(value)


def score(name: str) -> tuple[int, int, int, list[str]]:
    """(true positives, found, wanted, problems) for one page's numbers and statuses."""
    numbers, statuses = read(name)
    spec = expected(name)
    wanted = list(spec["numbers"])
    unmatched = list(numbers)
    problems = []
    hits = 0
    for want in wanted:
        match = next((n for n in unmatched if same(n, want)), None)
        if match is None:
            problems.append(f"missed {want}")
        else:
            unmatched.remove(match)
            hits += 1
    problems += [
        f"extra {n.kind.value} {n.value} {n.unit or n.currency} {n.raw!r}" for n in unmatched
    ]
    want_statuses = sorted(spec.get("statuses") or [])
    status_hits = len(set(statuses) & set(want_statuses))
    if statuses != want_statuses:
        problems.append(f"statuses {statuses} != {want_statuses}")
    return (
        hits + status_hits,
        len(numbers) + len(statuses),
        len(wanted) + len(want_statuses),
        problems,
    )


def test_precision_and_recall_over_every_fixture() -> None:
    assert NAMES
    totals = [0, 0, 0]
    report = []
    for name in NAMES:
        hit, found, wanted, problems = score(name)
        totals = [totals[0] + hit, totals[1] + found, totals[2] + wanted]
        report += [f"{name}: {p}" for p in problems]
    precision = totals[0] / totals[1]
    recall = totals[0] / totals[2]
    print(
        f"\nfixtures: precision {precision:.2f} recall {recall:.2f} "
        f"({totals[0]} right, {totals[1]} found, {totals[2]} wanted)"
    )
    print("\n".join(report))
    assert precision >= FLOOR_PRECISION, report
    assert recall >= FLOOR_RECALL, report


@pytest.mark.parametrize("name", NAMES)
def test_statuses_of_each_fixture(name: str) -> None:
    _, statuses = read(name)
    assert statuses == sorted(expected(name).get("statuses") or [])
