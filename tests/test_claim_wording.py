"""Claim checks on figures written another way for the same value (docs/grading.md,
"Claim checks"): confirmed with the page's wording; another value or currency stays changed;
a figure of another kind is not in the quote's place."""

from __future__ import annotations

import pytest

from extractors.claims import match_claim
from extractors.values import CheckOutcome

QUOTE = "$4,000 in GPU credits for the best runs"


@pytest.mark.parametrize(
    "written",
    ["$4,000", "$4000", "$4K", "$4k", "$4 thousand", "US$4,000", "4,000 USD", "USD 4,000",
     "4,000 dollars", "$4.000", "$ 4,000"],
)  # fmt: skip
def test_the_same_money_written_another_way_is_confirmed(written: str) -> None:
    page = f"Each month teams get {written} in GPU credits for the best runs, as before."
    check = match_claim(QUOTE, page)
    assert check.outcome is CheckOutcome.CONFIRMED, written
    # the page's wording ("$4,000 ..." is on a page that writes "US$4,000 ...": as it is)
    assert check.found_text in (f"{written} in GPU credits for the best runs", QUOTE)
    assert check.found_values == (4000.0,)


@pytest.mark.parametrize(
    ("quote", "page", "wording"),
    [
        ("25% of teams are funded", "Now 25 per cent of teams are funded.", "25 per cent"),
        ("25% of teams are funded", "Now 25 percent of teams are funded.", "25 percent"),
        ("25 per cent of teams are funded", "Now 25% of teams are funded.", "25%"),
        ("$2.5 million in prizes", "It has $2,500,000 in prizes.", "$2,500,000"),
        ("$2,500,000 in prizes", "It has US$2.5M in prizes.", "US$2.5M"),
        ("₹2 crore in grants", "It has ₹20,000,000 in grants.", "₹20,000,000"),
        ("Rs 18 lakh in grants", "It has INR 1,800,000 in grants.", "INR 1,800,000"),
        ("CHF 40 per seat", "It is 40 CHF per seat.", "40 CHF"),
        ("R$ 300 per seat", "It is R$300 per seat.", "R$300"),
    ],
)
def test_other_writings_of_the_same_value(quote: str, page: str, wording: str) -> None:
    check = match_claim(quote, page)
    assert check.outcome is CheckOutcome.CONFIRMED, (quote, page)
    assert check.found_text is not None and check.found_text.startswith(wording)


@pytest.mark.parametrize(
    ("page", "outcome", "values"),
    [
        ("Teams get $5K in GPU credits for the best runs.", "changed", (5000.0,)),
        ("Teams get $4 million in GPU credits for the best runs.", "changed", (4e6,)),
        ("Teams get €4,000 in GPU credits for the best runs.", "changed", (4000.0,)),
        ("Teams get 4,000 EUR in GPU credits for the best runs.", "changed", (4000.0,)),
        ("Teams get £4K in GPU credits for the best runs.", "changed", (4000.0,)),
        # a bare number is not money, nor a share a count: not in the figure's place
        ("Teams get 4,000 in GPU credits for the best runs.", "absent", ()),
        ("Teams get 4,000% in GPU credits for the best runs.", "absent", ()),
        ("Teams get $4,000 of GPU credits for the best runs.", "absent", ()),
    ],
)
def test_another_value_or_currency_is_not_the_same(page: str, outcome: str, values: tuple) -> None:
    check = match_claim(QUOTE, page)
    assert check.outcome is CheckOutcome(outcome), page
    assert check.found_values == values


def test_a_share_needs_a_share_and_a_bare_number_takes_any_sign() -> None:
    assert match_claim("25% of teams", "Now 25 of teams.").outcome is CheckOutcome.ABSENT
    assert match_claim("25 of teams", "Now 25% of teams.").outcome is CheckOutcome.ABSENT
    check = match_claim("4000 credits each month", "You get $4000 credits each month.")
    assert check.outcome is CheckOutcome.CONFIRMED  # the quote's words are on the page


def test_each_figure_of_a_quote_is_read_on_its_own() -> None:
    quote = "$4,000 for first place and 25% of the pool for second"
    page = "It pays $4K for first place and 25 per cent of the pool for second."
    check = match_claim(quote, page)
    assert check.outcome is CheckOutcome.CONFIRMED
    assert check.found_values == (4000.0, 25.0)
    changed = match_claim(
        quote, "It pays $4K for first place and 30 per cent of the pool for second."
    )
    assert changed.outcome is CheckOutcome.CHANGED and changed.found_values == (4000.0, 30.0)


@pytest.mark.parametrize(
    ("quote", "page"),
    [
        ("sedan sales are down 12.3", "Now sedan sales are down 12.3 percent."),
        ("Completion rose to 25", "Completion rose to 25% this year."),
        ("The fund raised $4", "The fund raised $4 million."),
    ],
)
def test_a_quote_on_the_page_as_it_is_is_confirmed(quote: str, page: str) -> None:
    check = match_claim(quote, page)
    assert check.outcome is CheckOutcome.CONFIRMED and check.found_text == quote


def test_a_price_below_one_is_not_its_thousandfold() -> None:
    check = match_claim("Input costs $0.125 per 1M tokens", "Input costs $125 per 1M tokens.")
    assert check.outcome is CheckOutcome.CHANGED and check.found_values == (125.0, 1e6)
