"""A catalog's claims and records graded by the refresh's own rules (sql/grade_rules.sql)
against checks that were never stored: what `evidence check` and `evidence plan` would
see. The rules run in an in-memory database over tables of the would-be checks, so that
the grades offline and the grades of a refresh are one set of rules, not two."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

import duckdb

from evidence_base.words import Role
from extractors.values import CheckOutcome, Grade
from warehouse.db import field_values, insert_rows, sql_file


@dataclass(frozen=True, slots=True)
class WouldBeCheck:
    """One claim checked on one source's newest stored snapshot, as a refresh would."""

    record_id: str
    claim_id: str
    source_id: str
    role: Role
    outcome: CheckOutcome
    checked_at: datetime | None  # when the page was fetched: the newest evidence decides
    run_id: str | None  # the refresh that fetched it
    via: str | None = None  # live, or archived (a dead source's archived copy counts)
    dead_since: datetime | None = None  # when its source died; None while it lives


@dataclass(frozen=True, slots=True)
class Grades:
    claims: dict[tuple[str, str], Grade]  # (record_id, claim_id) -> grade
    records: dict[str, Grade]


def grade_offline(
    checks: Iterable[WouldBeCheck], claims: Iterable[tuple[str, str]], records: Iterable[str]
) -> Grades:
    """Every claim and record graded from the checks a refresh would make."""
    made = list(checks)
    pairs = list(claims)
    with duckdb.connect(":memory:") as con:
        con.execute("SET TimeZone = 'UTC'")
        con.execute(sql_file("grading_offline.sql"))
        # each table's rows bound by column name (insert_rows): one statement a table
        insert_rows(con, "grading_checks", [field_values(c) for c in made])
        con.execute(
            "INSERT INTO grading_claims SELECT unnest($1::VARCHAR[]), unnest($2::VARCHAR[])",
            [[r for r, _ in pairs], [c for _, c in pairs]],
        )
        con.execute("INSERT INTO grading_records SELECT unnest($1::VARCHAR[]), 0", [list(records)])
        con.execute(sql_file("grade_rules.sql"))
        con.execute("INSERT INTO graded_claims SELECT * FROM claim_grade_rule")
        claims_graded = con.execute("SELECT record_id, claim_id, grade FROM graded_claims")
        by_claim = {(r, c): Grade(g) for r, c, g in claims_graded.fetchall()}
        records_graded = con.execute("SELECT record_id, grade FROM record_grade_rule")
        by_record = {r: Grade(g) for r, g in records_graded.fetchall()}
    return Grades(by_claim, by_record)
