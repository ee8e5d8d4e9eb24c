"""The domain's words are written once, as the enums of extractors/values.py and
evidence_base/words.py: the SQL that stores and compares them uses exactly their values,
so that a grade, a freshness, a role, a check's outcome or a due reason added on one side
only fails here."""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import Path

import pytest

from evidence_base.words import AlertKind, DueReason, Role
from extractors.grading import urgency
from extractors.values import CheckOutcome, Freshness, Grade, Outcome

WAREHOUSE = Path(__file__).resolve().parent.parent / "warehouse"
SQL = sorted((WAREHOUSE / "sql").glob("*.sql"))
LITERAL = r"'([^']*)'"


def read(name: str) -> str:
    """A SQL file without its comments."""
    path = WAREHOUSE / name
    return re.sub(r"--[^\n]*", "", path.read_text(encoding="utf-8"))


def case_values(sql: str, alias: str) -> set[str]:
    """The literals a `CASE ... END AS alias` gives (after THEN and ELSE), every one of
    them in the file."""
    found: set[str] = set()
    for case in re.findall(rf"CASE\b((?:(?!\bCASE\b).)*?)\bEND\s+AS\s+{alias}\b", sql, re.S):
        found |= set(re.findall(rf"\b(?:THEN|ELSE)\s+{LITERAL}", case))
    return found


def compared(sql: str, column: str) -> set[str]:
    """The literals a column is compared with: `col = 'x'`, `col <> 'x'`, `col IN ('x',
    'y')`, `CASE col WHEN 'x'`."""
    found: set[str] = set()
    col = rf"\b(?:\w+\.)?{column}\b"
    for op in re.findall(rf"{col}\s*(?:=|<>|!=)\s*{LITERAL}", sql):
        found.add(op)
    for listed in re.findall(rf"{col}\s+(?:NOT\s+)?IN\s*\(([^)]*)\)", sql):
        found |= set(re.findall(LITERAL, listed))
    for case in re.findall(rf"CASE\s+{col}\s+((?:WHEN\s+{LITERAL}.*?)+?)\bEND\b", sql, re.S):
        found |= set(re.findall(rf"WHEN\s+{LITERAL}", case[0]))
    return found


def values(enum: type[StrEnum]) -> set[str]:
    return {m.value for m in enum}


GRADING = ("sql/grade.sql", "sql/grade_rules.sql", "sql/grade_store.sql")


def test_grade_sql_gives_every_grade_and_only_those() -> None:
    sql = "\n".join(read(name) for name in GRADING)
    assert case_values(sql, "grade") == values(Grade)
    assert compared(sql, "grade") <= values(Grade)


def test_grade_sql_knows_every_role_and_outcome_and_only_those() -> None:
    sql = "\n".join(read(name) for name in GRADING)
    assert compared(sql, "role") == values(Role)
    outcomes = compared(sql, "outcome") | set(re.findall(rf"coalesce\(k\.outcome, {LITERAL}", sql))
    assert outcomes == values(CheckOutcome)


def test_freshness_is_made_of_its_words_and_compared_with_them() -> None:
    made = read("migrations/001_init.sql")
    macro = re.search(r"CREATE MACRO freshness_of\b.*?;", made, re.S)
    assert macro is not None
    assert set(re.findall(rf"\b(?:THEN|ELSE)\s+{LITERAL}", macro.group())) == values(Freshness)
    for path in SQL:
        sql = read(f"sql/{path.name}")
        assert compared(sql, "freshness") <= values(Freshness), path.name


def test_status_leaves_its_order_to_the_code() -> None:
    sql = read("sql/status.sql")
    assert "ORDER BY" not in sql  # extractors.grading.urgency orders it
    assert compared(sql, "grade") <= values(Grade)
    assert compared(sql, "freshness") <= values(Freshness)


def test_due_sources_gives_every_due_reason_and_only_those() -> None:
    sql = read("sql/due_sources.sql")
    assert case_values(sql, "why") == values(DueReason)
    assert compared(sql, "why") <= values(DueReason)


@pytest.mark.parametrize("path", SQL, ids=lambda p: p.name)
def test_every_query_compares_words_the_enums_hold(path: Path) -> None:
    sql = read(f"sql/{path.name}")
    assert compared(sql, "grade") <= values(Grade)
    assert compared(sql, "role") <= values(Role)
    assert compared(sql, "freshness") <= values(Freshness)
    assert compared(sql, "outcome") <= values(CheckOutcome) | values(Outcome)
    assert compared(sql, "kind") <= values(AlertKind)


def test_the_helpers_see_what_they_look_for() -> None:
    sql = (
        "SELECT CASE WHEN x THEN 'a' WHEN y THEN 'b' ELSE 'c' END AS grade, "
        "CASE grade WHEN 'd' THEN 1 WHEN 'e' THEN 2 END, k.role = 'f' "
        "FROM t WHERE outcome IN ('g', 'h') AND s.freshness <> 'i'"
    )
    assert case_values(sql, "grade") == {"a", "b", "c"}
    assert compared(sql, "grade") == {"d", "e"}
    assert compared(sql, "role") == {"f"}
    assert compared(sql, "outcome") == {"g", "h"}
    assert compared(sql, "freshness") == {"i"}


def test_grades_rank_weakest_first() -> None:
    assert sorted(Grade, key=lambda g: g.rank) == [
        Grade.CONTRADICTED,
        Grade.UNVERIFIED,
        Grade.REPORTED,
        Grade.DOCUMENTED,
    ]


# a check that makes a claim of each grade (none: no check at all)
MAKES = {
    Grade.DOCUMENTED: ("primary", "confirmed"),
    Grade.CONTRADICTED: ("primary", "changed"),
    Grade.REPORTED: ("third-party", "confirmed"),
    Grade.UNVERIFIED: None,
}


def test_the_sql_record_rule_takes_the_weakest_by_rank() -> None:
    """The record rule of grade_rules.sql and Grade.rank agree on every pair of grades."""
    from datetime import UTC, datetime

    from warehouse.grading import WouldBeCheck, grade_offline

    at = datetime(2026, 11, 4, tzinfo=UTC)
    for a in Grade:
        for b in Grade:
            checks = [
                WouldBeCheck("r", claim, "s", *MAKES[grade], at, "run")
                for claim, grade in (("a", a), ("b", b))
                if MAKES[grade] is not None
            ]
            graded = grade_offline(checks, [("r", "a"), ("r", "b")], ["r", "none"])
            assert graded.claims == {("r", "a"): a, ("r", "b"): b}
            assert graded.records["r"] is min(a, b, key=lambda g: g.rank), (a, b)
            assert graded.records["none"] is Grade.UNVERIFIED  # a record with no claims


def test_what_needs_a_person_first() -> None:
    records = [
        ("documented", "fresh"),
        ("reported", "stale"),
        ("contradicted", "fresh"),
        ("unverified", "fresh"),
        ("documented", "unchecked"),
    ]
    assert sorted(records, key=lambda r: urgency(*r)) == [
        ("contradicted", "fresh"),
        ("reported", "stale"),
        ("documented", "unchecked"),
        ("unverified", "fresh"),
        ("documented", "fresh"),
    ]


def test_the_words_are_the_strings() -> None:
    assert Grade.DOCUMENTED == "documented" and f"{Role.THIRD_PARTY}" == "third-party"
    assert {Freshness.FRESH: 1}["fresh"] == 1  # a row's string finds the member's entry
