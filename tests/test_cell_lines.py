"""Tables of one cell a line (extractors/figures/cell_lines.py): read as tables, each
cell in its column's unit; lists, stat cards and prose are left as they are."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from extractors.figures.cell_lines import cell_tables
from extractors.numbers import extract_numbers
from extractors.values import NumberKind

NOW = datetime(2026, 12, 1, tzinfo=UTC)

PLANS = """Our plans
Plan
Price ($/month)
Seats
Storage (GB)
Free
0
1
5
Team
29
10
100
Enterprise
Custom
Unlimited
1,000
Questions? Write to us."""


def test_each_cell_takes_its_columns_unit() -> None:
    read = [
        (n.kind, n.value, n.unit, n.currency, n.qualifier, n.sentence)
        for n in extract_numbers(PLANS, NOW)
    ]
    team = "| Team | 29 | 10 | 100 |"
    assert (NumberKind.MONEY, 29.0, None, "USD", "per month", team) in read
    assert (NumberKind.COUNT, 10.0, "seats", None, None, team) in read
    assert (NumberKind.NUMBER, 100.0, "GB", None, None, team) in read
    assert len(read) == 7  # every number of the three rows; none of the words


def test_a_rate_limit_table_reads_its_acronyms() -> None:
    text = "Model\nRPM\nTPM\nmodel-a\n5\n250,000\nmodel-b\n15\n1,000,000\nThat is all."
    read = [(n.raw, n.unit, n.qualifier) for n in extract_numbers(text, NOW)]
    assert read == [
        ("5", "requests", "per minute"),
        ("250,000", "tokens", "per minute"),
        ("15", "requests", "per minute"),
        ("1,000,000", "tokens", "per minute"),
    ]


def test_lines_that_are_no_table_stay_lines() -> None:
    steps = ["How to apply", "Steps", "Sign up", "1.", "Verify", "2.", "Pay", "3."]
    cards = ["45", "paid seats", "12", "countries"]
    prose = ["We grew fast.", "Revenue rose.", "Teams", "3 of them.", "More", "4 of them."]
    for lines in (steps, cards, prose):
        assert cell_tables(lines) == lines


def test_one_row_is_no_table() -> None:
    lines = ["Plan", "Seats", "Team", "10", "The end."]
    assert cell_tables(lines) == lines


@given(st.lists(st.text(max_size=12), max_size=30))
def test_the_lines_are_kept_or_joined_never_lost(lines: list[str]) -> None:
    out = cell_tables(lines)
    assert len(out) <= len(lines)
    joined = " ".join(out)
    assert all(line.strip() in joined for line in lines)
