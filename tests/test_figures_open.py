"""Every number written with digits is a figure unless it is one of the closed classes
(extractors/figures/open.py): units the grammar has never seen are read, the closed
classes are not, whatever rule read them."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from extractors.numbers import extract_numbers
from extractors.values import NumberKind

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def read(text: str) -> list[tuple[str, str, str | None]]:
    return [(n.kind.value, n.raw, n.unit) for n in extract_numbers(text, NOW)]


@pytest.mark.parametrize(
    ("text", "figures"),
    [
        (
            "Retries wait 1 s, then 2 s, then 4 s.",
            [
                ("duration", "1 s", "second"),
                ("duration", "2 s", "second"),
                ("duration", "4 s", "second"),
            ],
        ),
        ("Applicants need a 3.2 GPA.", [("number", "3.2 GPA", "gpa")]),
        ("The lab funds 3 FTE.", [("count", "3 FTE", "fte")]),
        ("A run may take 3 hrs at most.", [("duration", "3 hrs", "hour")]),
    ],
)
def test_a_unit_the_grammar_never_saw_is_read_from_the_word_after(
    text: str, figures: list[tuple[str, str, str | None]]
) -> None:
    assert read(text) == figures


@pytest.mark.parametrize(
    "text",
    [
        "In 1999 we started.",  # a bare year
        "Claude 3.5 Sonnet is here.",  # a model's name
        "Tier 1 support is free.",  # a tier
        "Step 2 takes long.",  # a place in an order
        "Meet at 9:30 am or at 8 pm.",  # times of day
        "See [3] for more.",  # a citation
        "Visit example.com/v2/items for more.",  # a URL
        "Set `retries = 5 tries` in the file.",  # code
        "An HTTP 429 response means slow down.",  # an HTTP code
        "Region us-east-1 is cheap.",  # a region
        "Use port 8080 locally.",  # a port
        "Braun, 38, manages artists.",  # an age
        "Call +49 (0)40 890 85-433 today.",  # a phone number
        "See § 291a Absatz 3 Nr. 4.",  # a law's paragraph
        "The LC 500 Convertible looks good.",  # a product between capitals
        "Read The 7 Habits again.",  # a title
        "It runs at 4K resolution.",  # a resolution
        "The 3 sun rose.",  # more than one, not written as a plural
        "Gemma 3 is open.",  # a model's name
    ],
)
def test_a_closed_class_is_no_figure(text: str) -> None:
    assert read(text) == []


@pytest.mark.parametrize(
    "text", ["Error 1015 occurs when you are rate limited.", "Port 8080 listeners restart."]
)
def test_a_code_the_grammar_read_as_a_count_is_dropped(text: str) -> None:
    assert [n for n in extract_numbers(text, NOW) if n.kind is NumberKind.COUNT] == []


def test_a_number_nothing_says_the_unit_of_stays_out() -> None:
    # a careful reader labels it with the unit the context gives; a guess would be wrong
    assert read("The limit is 400 but jobs may run longer.") == []


def test_a_first_column_of_row_numbers_is_a_lists_numbering() -> None:
    text = "| # | Provider | Free tier |\n|---|---|---|\n| 1 | Acme | 3 projects |\n"
    assert read(text) == [("count", "3 projects", "projects")]


def test_a_column_with_no_unit_counts_what_every_other_count_column_counts() -> None:
    text = (
        "| Plan | Requests/min | Requests/day | Burst |\n|---|---|---|---|\n"
        "| Free | 10 | 1,000 | 20 |\n"
    )
    units = [(n.raw, n.unit, n.qualifier) for n in extract_numbers(text, NOW)]
    assert units == [
        ("10", "requests", "per minute"),
        ("1,000", "requests", "per day"),
        ("20", "requests", None),
    ]


def test_a_rate_table_by_the_hour_reads_its_acronyms() -> None:
    text = "| Model | TPM | TPH |\n|---|---|---|\n| m-1 | 60K | 1M |\n"
    units = [(n.raw, n.unit, n.qualifier) for n in extract_numbers(text, NOW)]
    assert units == [("60K", "tokens", "per minute"), ("1M", "tokens", "per hour")]
