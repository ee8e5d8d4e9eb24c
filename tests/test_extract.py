"""Extractors on real sentences: main text, quoted numbers, statuses. Pure functions."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from extractors.numbers import extract_numbers
from extractors.statuses import extract_statuses
from extractors.text import extract_main_text, fallback_text
from extractors.values import NumberKind, Status

FETCHED = datetime(2026, 11, 30, tzinfo=UTC)


def numbers(text: str) -> list[tuple]:
    return [
        (n.kind.value, n.value, n.value_end, n.currency or n.unit, n.qualifier)
        for n in extract_numbers(text, FETCHED)
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("with $4,000 in GPU credits", [("money", 4000.0, None, "USD", None)]),
        ("costs EUR 30 a month", [("money", 30.0, None, "EUR", "per month")]),
        ("only $0.75/hour on demand", [("money", 0.75, None, "USD", "per hour")]),
        ("prizes of $2.5k each", [("money", 2500.0, None, "USD", None)]),
        ("1,904 teams entered", [("count", 1904.0, None, "teams", None)]),
        ("5M tokens per day", [("count", 5e6, None, "tokens", "per day")]),
        ("50+ seats remain", [("count", 50.0, None, "seats", "at least")]),
        ("about 51% of papers", [("percent", 51.0, None, "%", "about")]),
        ("reviews take within 2-3 weeks", [("duration", 2.0, 3.0, "week", "within")]),
        ("up to 40 hours of GPU time", [("duration", 40.0, None, "hour", "up to")]),
        ("256GB of storage", [("number", 256.0, None, "GB", None)]),
        ("three finalists share it", [("count", 3.0, None, "finalists", None)]),
        ("runs on an H100 or a v5e-4 pod at NeurIPS 2026", []),
        ("GPT-4 was used in 2026.", []),
    ],
)
def test_quoted_numbers(text: str, expected: list[tuple]) -> None:
    assert numbers(text) == expected


@pytest.mark.parametrize(
    ("text", "kind", "start", "end"),
    [
        ("Deadline: 3 March 2027.", NumberKind.DATE, date(2027, 3, 3), date(2027, 3, 3)),
        ("Due 2027-01-15.", NumberKind.DATE, date(2027, 1, 15), date(2027, 1, 15)),
        (
            "Opens June 1 to June 30, 2027.",
            NumberKind.DATE_RANGE,
            date(2027, 6, 1),
            date(2027, 6, 30),
        ),
        (
            "Ran July 15 to August 2, 2026.",
            NumberKind.DATE_RANGE,
            date(2026, 7, 15),
            date(2026, 8, 2),
        ),
        ("Held 15–20 July 2026.", NumberKind.DATE_RANGE, date(2026, 7, 15), date(2026, 7, 20)),
        # year-less dates against the fetch date (2026-11-30): nearest, last, next
        ("Closes on May 4.", NumberKind.DATE, date(2027, 5, 4), date(2027, 5, 4)),
        ("Opened on May 4.", NumberKind.DATE, date(2026, 5, 4), date(2026, 5, 4)),
        ("Paused until 15 January.", NumberKind.DATE, date(2027, 1, 15), date(2027, 1, 15)),
        ("Updated on 28 November.", NumberKind.DATE, date(2026, 11, 28), date(2026, 11, 28)),
    ],
)
def test_dates(text: str, kind: NumberKind, start: date, end: date) -> None:
    (n,) = extract_numbers(text, FETCHED)
    assert (n.kind, n.date_from, n.date_to) == (kind, start, end)


def test_each_number_keeps_its_sentence() -> None:
    text = "First sentence has 3 seats. Second one has $40 per seat."
    found = extract_numbers(text, FETCHED)
    assert [n.sentence for n in found] == [
        "First sentence has 3 seats.",
        "Second one has $40 per seat.",
    ]


@pytest.mark.parametrize(
    ("text", "statuses"),
    [
        ("Those slots were fully claimed within days.", [Status.EXHAUSTED]),
        ("Tickets are sold out.", [Status.EXHAUSTED]),
        ("We are no longer accepting applications.", [Status.CLOSED]),
        ("Join the waitlist to hear first.", [Status.WAITLIST]),
        ("Applications are open until June.", [Status.OPEN]),
        ("Applications are not open yet.", []),
        ("Applications opened on May 1.", []),
        ("The programme has been discontinued.", [Status.DISCONTINUED]),
    ],
)
def test_statuses(text: str, statuses: list[Status]) -> None:
    assert [s.status for s in extract_statuses(text)] == statuses


def test_short_notice_page_comes_out_without_navigation() -> None:
    html = (
        "<html><head><title>Credits</title></head><body><nav>Home About Pricing</nav>"
        "<main><p>The programme is paused until further notice.</p></main>"
        "<footer>Copyright Example</footer></body></html>"
    )
    page = extract_main_text(html)
    assert page.title == "Credits"
    assert page.text == "The programme is paused until further notice."


def test_fallback_keeps_cells_apart_and_blocks_on_lines() -> None:
    rows = "<tr><td>Free</td><td>$0</td></tr><tr><td>Pro</td><td>$20</td></tr>"
    html = f"<div><p>Plan</p><table>{rows}</table></div>"
    text = fallback_text(html)
    assert text.splitlines() == ["Plan", "Free | $0", "Pro | $20"]


def test_tables_are_kept_in_the_main_text() -> None:
    rows = "".join(f"<tr><td>Tier {i}</td><td>${i * 100}</td></tr>" for i in range(1, 6))
    body = "<p>" + "Long article text about the programme and its rules. " * 10 + "</p>"
    article = f"<article><h1>Prizes</h1>{body}<table>{rows}</table>{body}</article>"
    html = f"<html><body>{article}</body></html>"
    text = extract_main_text(html).text
    assert "$300" in text and "Tier 3" in text


def test_empty_and_garbage_input_do_not_raise() -> None:
    assert extract_main_text("").text == ""
    assert isinstance(extract_main_text("<<<>>>\x00\x01").text, str)


def test_negation_stops_at_the_clause() -> None:
    text = "The education tier is not yet open: join the waitlist to hear first."
    assert [s.status for s in extract_statuses(text)] == [Status.WAITLIST]


@pytest.mark.parametrize(
    ("text", "value", "currency"),
    [
        ("a pool of €2.499,00 in total", 2499.0, "EUR"),
        ("€12,50 a month", 12.5, "EUR"),
        ("$1,000 each", 1000.0, "USD"),
        ("€1.000.000 fund", 1e6, "EUR"),
        ("$2.5 per run", 2.5, "USD"),
    ],
)
def test_continental_and_us_money(text: str, value: float, currency: str) -> None:
    (n,) = extract_numbers(text, FETCHED)
    assert (n.kind, n.value, n.currency) == (NumberKind.MONEY, value, currency)


def test_markup_the_html_parser_rejects_still_gives_text() -> None:
    page = extract_main_text("<p>Open until 15 December</p><![0")
    assert "Open until 15 December" in page.text
