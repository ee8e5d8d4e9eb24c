"""The error classes of issue 32, one rule each (extractors/numbers.py, subjects.py): the
unit a count counts, decimal percentages, currencies beyond the usual few, a year from
the page's own date, names, and what a figure measures."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from extractors.numbers import extract_numbers
from extractors.page import extract_page
from extractors.values import NumberKind, QuotedNumber

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def one(text: str, raw: str, page_date: date | None = None) -> QuotedNumber:
    found = [n for n in extract_numbers(text, NOW, page_date) if raw in n.raw]
    assert found, (text, [n.raw for n in extract_numbers(text, NOW, page_date)])
    return found[0]


@pytest.mark.parametrize(
    ("text", "raw", "unit", "subject"),
    [
        ("We work with more than 40 remote teams.", "40", "teams", "remote teams"),
        ("She ate 3 hard-boiled eggs for lunch.", "3", "eggs", "hard-boiled eggs"),
        (
            "The chain has 263 daily news organizations.",
            "263",
            "organizations",
            "daily news organizations",
        ),
        ("Those include 1,000 maintenance and cleaning workers.", "1,000", "workers", None),
        ("It owns more than 90 other publications.", "90", "publications", None),
    ],
)
def test_a_count_counts_the_head_of_its_phrase(
    text: str, raw: str, unit: str, subject: str | None
) -> None:
    n = one(text, raw)
    assert (n.kind, n.unit) == (NumberKind.COUNT, unit)
    if subject:
        assert n.subject == subject


def test_a_measure_keeps_its_modifier_and_names_what_it_measures() -> None:
    n = one("They shipped 2,000 metric tons of rice.", "2,000")
    assert (n.kind, n.value, n.unit, n.subject) == (NumberKind.NUMBER, 2000, "metric tons", "rice")


@pytest.mark.parametrize(
    "text", ["It ran 4K streaming all day.", "It is the LC 500 grand tourer.", "The 3 sun."]
)
def test_more_than_one_of_something_is_written_as_a_plural(text: str) -> None:
    assert [n for n in extract_numbers(text, NOW) if n.kind is NumberKind.COUNT] == []


def test_a_decimal_percentage_keeps_its_decimals() -> None:
    assert one("It had a yield of 2.315% this year.", "2.315%").value == 2.315
    assert one("A stake of 25.2% was sold.", "25.2%").value == 25.2
    assert one("The price is €2.499,00 now.", "2.499").value == 2499.0  # money groups


@pytest.mark.parametrize(
    ("text", "raw", "value", "currency"),
    [
        ("He earns Rs 18 lakh a year.", "Rs 18 lakh", 1_800_000, "INR"),
        ("The flat costs ₹2 crore.", "₹2 crore", 20_000_000, "INR"),
        ("Tickets are CHF 40 each.", "CHF 40", 40, "CHF"),
        ("It costs R$ 300 a month.", "R$ 300", 300, "BRL"),
        ("A ticket is ¥1,200.", "¥1,200", 1200, "JPY"),
        ("They raised HK$5 million.", "HK$5 million", 5_000_000, "HKD"),
        ("It cost 40 francs.", "40 francs", 40, "CHF"),
    ],
)
def test_currencies_beyond_the_usual_few(text: str, raw: str, value: float, currency: str) -> None:
    n = one(text, raw)
    assert (n.kind, n.value, n.currency) == (NumberKind.MONEY, value, currency)


def test_a_date_without_its_year_takes_the_pages_year() -> None:
    n = one("The vote was on March 3.", "March 3", page_date=date(2019, 3, 20))
    assert n.date_from == date(2019, 3, 3)
    assert one("The vote was on March 3.", "March 3").date_from == date(2026, 3, 3)


def test_a_page_dated_by_its_metadata_dates_its_figures() -> None:
    html = """<html><head><meta property="article:published_time" content="2019-11-18">
    </head><body><article><h1>Layoffs</h1><p>About 1,000 maintenance workers were told on
    Monday that their jobs will be terminated on Dec. 9, according to a group of
    employees who spoke to reporters about the notice and the plans.</p></article></body>
    </html>"""
    page = extract_page(html, "https://example.org/a", NOW)
    assert page.published_on == date(2019, 11, 18)
    (dec9,) = [n for n in page.numbers if n.raw == "Dec. 9"]
    assert dec9.date_from == date(2019, 12, 9)  # "will be terminated on": ahead of the page


def test_runs_of_dates_and_years_the_page_names() -> None:
    text = (
        "The band will play a 2020 tour, which kicks off June 9th in Florida and concludes"
        " October 10th in Texas.\n\nTour Dates\n\nJune 9 – West Palm Beach\n\nJune 10 – Tampa"
        "\n\nOctober 10 – Houston"
    )
    found = {(n.raw, n.date_from) for n in extract_numbers(text, NOW, date(2019, 11, 19))}
    assert ("October 10th", date(2020, 10, 10)) in found  # after June 9th, the same run
    assert ("June 9", date(2020, 6, 9)) in found  # of two near readings, the named year
    assert ("October 10", date(2020, 10, 10)) in found  # a list of dates runs on


def test_from_one_figure_to_another_is_a_change_not_a_range() -> None:
    found = extract_numbers("Its valuation was slashed from $47 billion to $8 billion.", NOW)
    assert [(n.value, n.value_end, n.subject) for n in found] == [
        (47e9, None, "valuation"),
        (8e9, None, "valuation"),
    ]
    assert [n.value for n in extract_numbers("It costs $10 to $20 a seat.", NOW)] == [10]


@pytest.mark.parametrize(
    "text",
    ["Type 2 diabetes is common.", "WeWork’s office has an A100 rack.", "See group 2 cells."],
)
def test_figures_inside_names_are_not_figures(text: str) -> None:
    assert [n.raw for n in extract_numbers(text, NOW) if n.kind is NumberKind.COUNT] == []


@pytest.mark.parametrize(
    ("text", "raw", "subject"),
    [
        ("Teams get 500 GPU hours per month on shared nodes.", "500", None),
        ("Problematic cannabis use rose by 37 percent.", "37 percent", "Problematic cannabis use"),
        ("The plan will reduce coal-fired fine dusts by 90%.", "90%", "coal-fired fine dusts"),
        (
            "They increase solar module efficiency from around 20% now.",
            "20%",
            "solar module efficiency",
        ),
        ("The stock is $8.5 today.", "$8.5", "stock"),
        ("Plague is fatal in up to 90 per cent of people infected.", "90 per cent", "people"),
        ("It's a 24-hour trip from the USA.", "24-hour", "trip"),
        ("The firm bid $16.50 per share for Tribune.", "$16.50", "share"),
        ("It has 540 Nm of torque.", "540 Nm", "torque"),
        ("It earned $2.53 per share last year.", "$2.53", None),
    ],
)
def test_a_subject_names_what_the_figure_measures(text: str, raw: str, subject: str | None) -> None:
    assert one(text, raw).subject == subject


def test_a_list_newest_first_stays_in_its_year() -> None:
    text = "Updates\n\nDecember 12: a new plan\n\nNovember 3: the old plan\n\nOctober 1: a draft"
    found = [n.date_from for n in extract_numbers(text, NOW, date(2026, 12, 14))]
    assert found == [date(2026, 12, 12), date(2026, 11, 3), date(2026, 10, 1)]
    text = "Dates\n\nDecember 28 – Boston\n\nJanuary 3 – Miami"  # over a new year
    assert [n.date_from for n in extract_numbers(text, NOW, date(2026, 11, 14))] == [
        date(2026, 12, 28),
        date(2027, 1, 3),
    ]


@pytest.mark.parametrize(
    ("text", "figures"),
    [
        ("Rooms range from $150 to $200 a night.", [(150, 200)]),
        ("It costs anywhere from $200 to $500.", [(200, 500)]),
        ("Inflation fell 3% to 2% this year.", [(3, None), (2, None)]),  # a fall, not a range
        ("The price rose from $10 to $12.", [(10, None), (12, None)]),
    ],
)
def test_from_one_value_to_another_a_range_or_a_change(text: str, figures: list) -> None:
    assert [(n.value, n.value_end) for n in extract_numbers(text, NOW)] == figures


def test_prices_below_one_and_kitchen_measures() -> None:
    assert one("Input costs $0.125 per 1M tokens.", "$0.125").value == 0.125
    assert one("The grant is Rs. 18 lakh per year.", "Rs. 18 lakh").value == 1_800_000
    assert [(n.value, n.unit) for n in extract_numbers("Add 4 oz butter and 2 tsp salt.", NOW)] == [
        (4, "oz"),
        (2, "tsp"),
    ]
