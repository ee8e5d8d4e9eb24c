"""Dates and sentences at their edges (extractors/numbers.py): year-less dates resolved
against the fetch, day ranges, and the sentence around a figure."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from extractors.figures.dates import lean, parse_date, resolve_year
from extractors.numbers import extract_numbers
from extractors.sentences import sentence_around
from extractors.values import NumberKind

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def dates(text: str) -> list[tuple]:
    return [
        (n.kind.value, n.raw, n.date_from, n.date_to)
        for n in extract_numbers(text, NOW)
        if n.kind in (NumberKind.DATE, NumberKind.DATE_RANGE)
    ]


@pytest.mark.parametrize(
    ("today", "month", "day", "lean", "resolved"),
    [
        (date(2026, 1, 10), 12, 20, 0, date(2025, 12, 20)),  # the nearest is last year's
        (date(2026, 12, 1), 1, 5, 0, date(2027, 1, 5)),  # the nearest is next year's
        (date(2026, 6, 1), 6, 20, 0, date(2026, 6, 20)),
        (date(2026, 6, 1), 5, 20, 1, date(2027, 5, 20)),  # forward: the next one
        (date(2026, 6, 1), 6, 1, 1, date(2026, 6, 1)),  # today is not past
        (date(2026, 6, 1), 7, 20, -1, date(2025, 7, 20)),  # back: the last one
        (date(2026, 6, 1), 6, 1, -1, date(2026, 6, 1)),
    ],
)
def test_year_less_dates(today: date, month: int, day: int, lean: int, resolved: date) -> None:
    assert resolve_year(month, day, today, lean) == resolved


@pytest.mark.parametrize(
    ("before", "expected"),
    [
        ("apply until", 1),
        ("the deadline is due", 1),
        ("until the", 0),  # only the word just before the date points forward
        ("the event used", -1),
        ("it was", -1),
        ("we saw red", 0),  # three letters ending in "ed" are no past tense
        ("", 0),
    ],
)
def test_the_words_before_a_date_lean_it(before: str, expected: int) -> None:
    assert lean(before) == expected


@pytest.mark.parametrize(
    ("text", "today", "parsed"),
    [
        ("2026-03-05.", date(2026, 12, 1), date(2026, 3, 5)),
        ("March 5th", date(2026, 3, 10), date(2026, 3, 5)),  # nearest, not the next
        ("March 5TH, 2027", date(2026, 3, 10), date(2027, 3, 5)),
        ("5 2026", date(2026, 3, 10), None),  # no month
        ("March 2026", date(2026, 3, 10), None),  # no day
        ("February 30, 2026", date(2026, 3, 10), None),
    ],
)
def test_parse_date(text: str, today: date, parsed: date | None) -> None:
    assert parse_date(text, today) == parsed


def span(kind: str, raw: str, first: tuple, last: tuple) -> list[tuple]:
    return [(kind, raw, date(*first), date(*last))]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("The event runs Oct. 5-5, 2026.", span("date", "Oct. 5", (2026, 10, 5), (2026, 10, 5))),
        ("The event runs Oct. 5-31, 2026.",
         span("date_range", "Oct. 5-31, 2026", (2026, 10, 5), (2026, 10, 31))),
        ("The event runs June 1-30th, 2027.",
         span("date_range", "June 1-30th, 2027", (2027, 6, 1), (2027, 6, 30))),
        ("Apply until Oct. 5-7.", span("date_range", "Oct. 5-7", (2027, 10, 5), (2027, 10, 7))),
        ("The event ran Oct. 5-7.", span("date_range", "Oct. 5-7", (2026, 10, 5), (2026, 10, 7))),
        ("Apply until July 15 - July 20.",
         span("date_range", "July 15 - July 20", (2027, 7, 15), (2027, 7, 20))),
        ("It is on 15TH-20 July 2026.",
         span("date_range", "15TH-20 July 2026", (2026, 7, 15), (2026, 7, 20))),
        ("It is on 15th-20th July 2026.",
         span("date_range", "15th-20th July 2026", (2026, 7, 15), (2026, 7, 20))),
        ("It is on 32-20 July 2026.", span("date", "20 July 2026", (2026, 7, 20), (2026, 7, 20))),
        ("It runs 31 July - 2 August 2026.",
         span("date_range", "31 July - 2 August 2026", (2026, 7, 31), (2026, 8, 2))),
        ("It starts in Sept. 2027.", span("date", "Sept. 2027", (2027, 9, 1), (2027, 9, 30))),
        ("It starts in December 2027.",
         span("date", "December 2027", (2027, 12, 1), (2027, 12, 31))),
    ],
)  # fmt: skip
def test_day_ranges_and_months(text: str, found: list) -> None:
    assert dates(text) == found


TEXT = "First one is here. Second has it all. Third has it too. Last."


@pytest.mark.parametrize(
    ("words", "sentence"),
    [
        ("First", "First one is here."),
        ("Second", "Second has it all."),
        ("has it", "Second has it all."),  # the first place the words are
        ("it all", "Second has it all."),  # ending just before the stop
        ("it all.", "Second has it all."),  # ending where the space after the stop begins
        ("all. Third", "Second has it all. Third has it too."),
        ("Last", "Last."),
        ("nowhere", None),
        ("", None),
    ],
)
def test_sentence_around(words: str, sentence: str | None) -> None:
    assert sentence_around(TEXT, words) == sentence


def test_a_sentence_longer_than_the_limit_is_read_in_pieces() -> None:
    text = "$5,000 in credits " + "and more words " * 200 + "for 7 teams"
    found = [(n.kind.value, n.value) for n in extract_numbers(text, NOW)]
    assert found[0] == ("money", 5000.0)
    assert ("count", 7.0) in found
