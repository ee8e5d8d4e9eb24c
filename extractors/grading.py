"""The grade rules of docs/grading.md as pure functions, for grading a catalog offline
(`evidence check`, `evidence plan`) against checks that were never stored.

The refresh grades in SQL (warehouse/sql/grade.sql); tests/test_check.py holds
both to the same grades.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum


class Grade(StrEnum):
    DOCUMENTED = "documented"
    REPORTED = "reported"
    UNVERIFIED = "unverified"
    CONTRADICTED = "contradicted"


# weakest first: a record's grade is its weakest claim's
_WEAKEST_FIRST = (Grade.CONTRADICTED, Grade.UNVERIFIED, Grade.REPORTED, Grade.DOCUMENTED)


def grade_claim(checks: Iterable[tuple[str, str]]) -> Grade:
    """A claim's grade from (role, outcome) of each of its sources' newest snapshots."""
    seen = set(checks)
    if ("primary", "confirmed") in seen:
        return Grade.DOCUMENTED
    if ("primary", "changed") in seen:
        return Grade.CONTRADICTED
    if ("third-party", "confirmed") in seen:
        return Grade.REPORTED
    return Grade.UNVERIFIED


def grade_record(claim_grades: Iterable[Grade]) -> Grade:
    """The weakest of its claims' grades; a record with no claims is unverified."""
    grades = set(claim_grades)
    if not grades:
        return Grade.UNVERIFIED
    return next(g for g in _WEAKEST_FIRST if g in grades)
