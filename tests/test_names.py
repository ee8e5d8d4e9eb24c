"""Figures inside names: a digit of a model, product or version ("A100", "RTX 4090",
"GPT-4", "Windows 11", "iPhone 15", "Python 3.11") is no figure, for the grammar's
quoted numbers and for a claim check's numbers alike (one rule, `in_name`)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from extractors.claims import match_claim
from extractors.numbers import extract_numbers, in_name, name_numbers
from extractors.values import CheckOutcome, NumberKind

NOW = datetime(2026, 12, 1, tzinfo=UTC)

# (quote, the page with only the real figure changed, its figure there, the name's digits)
CASES = [
    ("500 GPU hours per month on A100 nodes", "300 GPU hours per month on A100 nodes", 300, "100"),
    ("H100 GPUs for 48 hours", "H100 GPUs for 24 hours", 24, "100"),
    ("RTX 4090 cards for $1,599 each", "RTX 4090 cards for $1,799 each", 1799, "4090"),
    ("GPT-4 access for 30 days", "GPT-4 access for 14 days", 14, "4"),
    ("Windows 11 users get 20% off", "Windows 11 users get 25% off", 25, "11"),
    ("iPhone 15 owners get 3 months free", "iPhone 15 owners get 6 months free", 6, "15"),
    (
        "Python 3.11 runners: 2,000 minutes a month",
        "Python 3.11 runners: 3,000 minutes a month",
        3000,
        "3.11",
    ),
]


@pytest.mark.parametrize(("quote", "page", "figure", "name"), CASES)
def test_a_check_finds_only_the_real_figure(
    quote: str, page: str, figure: float, name: str
) -> None:
    assert match_claim(quote, f"Good news. {quote}. More soon.").outcome is CheckOutcome.CONFIRMED
    check = match_claim(quote, f"Good news. {page}. More soon.")
    assert check.outcome is CheckOutcome.CHANGED
    assert check.found_values == (float(figure),)
    # and a page whose name changed is not the claim's page with other numbers
    renamed = page.replace(name, "9" * len(name.replace(".", "")), 1)
    assert match_claim(quote, renamed).outcome is CheckOutcome.ABSENT


@pytest.mark.parametrize(("quote", "page", "figure", "name"), CASES)
def test_no_quoted_number_is_a_name(quote: str, page: str, figure: float, name: str) -> None:
    values = [n.value for n in extract_numbers(f"{page}.", NOW)]
    assert float(figure) in values
    assert float(name) not in values


def test_what_leads_up_to_a_figure_is_no_name() -> None:
    for text, figure in [
        ("Over 500 teams joined", 500),
        ("In March 2027, 40 teams", 40),
        ("USD 500 per team", 500),
        ("Get Up To 40 Hours of compute", 40),
        ("The 3 finalists", 3),
        ("A100 80GB cards", 80),  # a model and its memory: the memory is a figure
        ("Storage 100 GB", 100),  # table cells and title-case headings
        ("Free Tier 500 GPU hours", 500),
        ("Participants 2,226 researchers", 2),
        ("Applications Open Until 15 January", 15),
        ("RAM 16 GB", 16),
    ]:
        at = text.index(str(figure))
        assert not in_name(text, at), text
    assert name_numbers("on A100 nodes, RTX 4090 and Windows 11") == {4, 19, 36}
    assert name_numbers("python version 3.11, a PlayStation 5, macOS 14") == {15, 35, 44}
    assert name_numbers("rtx 4090 in lower case, Gen 2") == {28}  # a family needs its capital


def test_a_count_after_a_name_is_not_one() -> None:
    kinds = {n.kind for n in extract_numbers("Windows 11 users and 40 teams.", NOW)}
    assert kinds == {NumberKind.COUNT}
    (only,) = extract_numbers("Windows 11 users and 40 teams.", NOW)
    assert only.value == 40 and only.unit == "teams"
