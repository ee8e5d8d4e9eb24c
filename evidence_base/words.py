"""The words of the domain that no layer makes but every layer says: a source's role,
how a page is loaded, the kinds of alert, why a source is due.

Each is a StrEnum: its members are the strings themselves, in SQL, in files and on
screen (tests/test_vocabulary.py holds the SQL's literals to them). The words the
extractors produce (a grade, a freshness, a check's outcome, a fetch's) stay with the
values they make, in extractors/values.py.
"""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    """What a source is to the record it backs."""

    PRIMARY = "primary"  # the organisation's own page
    THIRD_PARTY = "third-party"  # write-ups, news, aggregators


class Render(StrEnum):
    """How a page is loaded: its body as fetched, or the document a browser rendered."""

    HTTP = "http"
    BROWSER = "browser"


class AlertKind(StrEnum):
    """The kinds of alert message, in the order `evidence alerts --kind` offers them."""

    UNREACHABLE = "unreachable"
    RECOVERED = "recovered"
    GRADE = "grade"
    CHANGED = "changed"
    CONDITION = "condition"
    STALE = "stale"
    REVIEW = "review"
    DEAD = "dead"
    FLOW_FAILED = "flow-failed"


class DueReason(StrEnum):
    """Why a `refresh --due` fetches a source (warehouse/sql/due_sources.sql): the words
    a run counts by; the SQL adds the figures to some (`failing (3 in a row): ...`)."""

    NEVER_FETCHED = "never fetched"
    CLAIMS_CHANGED = "its claims changed"
    FAILING = "failing"
    GOING_STALE = "its record would go stale before the next run"
    LIKELY_CHANGED = "likely changed"
    LEARNING = "learning how often it changes"
