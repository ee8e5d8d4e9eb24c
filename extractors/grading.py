"""The grade rules of docs/grading.md as pure functions, for grading a catalog offline
(`evidence check`, `evidence plan`) against checks that were never stored, and the one
order of what needs a person first.

The refresh grades in SQL (warehouse/sql/grade.sql); tests/test_check.py holds
both to the same grades.
"""

from __future__ import annotations

from collections.abc import Iterable

from evidence_base.words import Role
from extractors.values import CheckOutcome, Freshness, Grade


def grade_claim(checks: Iterable[tuple[str, str] | tuple[str, str, object, object]]) -> Grade:
    """A claim's grade from (role, outcome) of each of its sources' newest snapshots, or
    (role, outcome, fetched_at, run): the newest evidence decides. Among the primaries
    that confirm it or show it changed, those of the run of the one fetched most recently
    decide (documented if one confirms it); `absent` is no evidence either way."""
    seen = [(*c, None, None)[:4] for c in checks]
    primaries = [
        c
        for c in seen
        if c[0] == Role.PRIMARY and c[1] in (CheckOutcome.CONFIRMED, CheckOutcome.CHANGED)
    ]
    if primaries:
        newest = max(primaries, key=lambda c: (c[2] is not None, c[2] or 0))
        deciding = {c[1] for c in primaries if c[3] == newest[3]}
        if CheckOutcome.CONFIRMED in deciding:
            return Grade.DOCUMENTED
        return Grade.CONTRADICTED
    if any(c[0] == Role.THIRD_PARTY and c[1] == CheckOutcome.CONFIRMED for c in seen):
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
