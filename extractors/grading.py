"""The grade rules of docs/grading.md as pure functions, for grading a catalog offline
(`evidence check`, `evidence plan`) against checks that were never stored, and the one
order of what needs a person first.

The refresh grades in SQL (warehouse/sql/grade.sql); tests/test_check.py holds
both to the same grades.
"""

from __future__ import annotations

from collections.abc import Iterable

from extractors.values import CheckOutcome, Freshness, Grade, Role


def grade_claim(checks: Iterable[tuple[str, str]]) -> Grade:
    """A claim's grade from (role, outcome) of each of its sources' newest snapshots."""
    seen = set(checks)
    if (Role.PRIMARY, CheckOutcome.CONFIRMED) in seen:
        return Grade.DOCUMENTED
    if (Role.PRIMARY, CheckOutcome.CHANGED) in seen:
        return Grade.CONTRADICTED
    if (Role.THIRD_PARTY, CheckOutcome.CONFIRMED) in seen:
        return Grade.REPORTED
    return Grade.UNVERIFIED


def grade_record(claim_grades: Iterable[Grade]) -> Grade:
    """The weakest of its claims' grades; a record with no claims is unverified."""
    return min(claim_grades, key=lambda g: g.rank, default=Grade.UNVERIFIED)


def urgency(grade: str, freshness: str) -> tuple[int, int]:
    """How soon a record needs a person, lowest first: contradicted, then not fresh, then
    the rest; within each, the weakest grade first. `evidence status`, `evidence review`
    and the site's index all order records by it."""
    g = Grade(grade)
    first = 0 if g is Grade.CONTRADICTED else 1 if freshness != Freshness.FRESH else 2
    return first, g.rank
