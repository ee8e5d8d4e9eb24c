"""The one order of what needs a person first. The grade rules themselves are SQL, one
set for the refresh and for a catalog graded offline (warehouse/sql/grade_rules.sql)."""

from __future__ import annotations

from extractors.values import Freshness, Grade


def urgency(grade: str, freshness: str) -> tuple[int, int]:
    """How soon a record needs a person, lowest first: contradicted, then not fresh, then
    the rest; within each, the weakest grade first. `evidence status`, `evidence review`
    and the site's index all order records by it."""
    g = Grade(grade)
    first = 0 if g is Grade.CONTRADICTED else 1 if freshness != Freshness.FRESH else 2
    return first, g.rank
