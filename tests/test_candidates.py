"""Candidate claims on small pages: what `suggest` offers first, what it cuts, and that
every quote it offers is confirmed on the same text (no refresh, no Prefect: the rules)."""

from __future__ import annotations

from datetime import UTC, datetime

from extractors.candidates import candidates
from extractors.claims import match_claim
from extractors.page import extract_page
from extractors.values import CheckOutcome

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def offered(*paragraphs: str) -> list:
    html = (
        "<html><body><main>" + "".join(f"<p>{p}</p>" for p in paragraphs) + "</main></body></html>"
    )
    page = extract_page(html, None, NOW)
    found = candidates(page)
    for c in found:  # every quote offered is found as written
        assert match_claim(c.quote, page.text).outcome is CheckOutcome.CONFIRMED, c.quote
    return found


def test_money_and_limits_come_before_furniture_and_narrative() -> None:
    found = offered(
        "It is a 5 min read. Two officers were there. The grant was set up two decades ago.",
        "Each team gets up to $5,000 in cloud credits for the best runs of the challenge.",
        "Applications are open until the end of the programme for every research team.",
    )
    quotes = [c.quote for c in found]
    assert (
        quotes[0]
        == "Each team gets up to $5,000 in cloud credits for the best runs of the challenge"
    )
    assert found[0].what == "money 5000 USD (up to) of cloud credits"
    assert found[0].slug == "cloud-credits"
    assert any(c.what == "status open" and c.slug == "open" for c in found)
    assert not any("min read" in q for q in quotes)  # furniture is not offered
    order = {c.quote: i for i, c in enumerate(found)}
    spelled = next(q for q in quotes if q.startswith("Two officers"))
    assert order[spelled] > order[quotes[0]]  # a spelled-out count ranks below
    assert all(c.score > 0 for c in found)
    assert [c.score for c in found] == sorted((c.score for c in found), reverse=True)


def test_one_quote_a_figure_and_a_limit_on_how_many() -> None:
    found = offered(
        "Teams get $2,000 in credits for the best runs.",
        "Once more: teams get $2,000 in credits for the best runs this year.",
        *(f"Room {i} holds {10 + i} seats for the workshop in the main hall." for i in range(20)),
    )
    assert sum(c.what.startswith("money 2000 USD") for c in found) == 1
    assert len(found) == 12  # the default limit
    page = extract_page(
        "<p>Room 1 holds 11 seats for the workshop in the main hall.</p>", None, NOW
    )
    assert len(candidates(page, limit=0)) == 0


def test_no_quote_leaves_a_bracket_open() -> None:
    found = offered(
        "The moon has a diameter of 3,200 miles (5,150 km across) at its widest.",
        "Its surface (about 17 percent of it dunes, 65 percent plains and the rest hills "
        "that rise up to 1,500 meters above the plains around them, as the radar shows) is mapped.",
    )
    (moon,) = [c for c in found if c.what.startswith("number 3200")]
    assert moon.quote == "The moon has a diameter of 3,200 miles"
    assert moon.what == "number 3200 miles of diameter"
    assert len(found) >= 3
    assert all(c.quote.count("(") == c.quote.count(")") for c in found), found


def test_a_short_clause_is_widened_and_a_year_comma_kept() -> None:
    found = offered("On Nov. 18, 2019, NASA said that it was adding five companies to the list.")
    (date,) = [c for c in found if c.what.startswith("date")]
    assert date.quote.startswith("On Nov. 18, 2019")
    assert len(date.quote) >= 16


def test_quoted_speech_ranks_below_the_same_figure_stated() -> None:
    found = offered(
        '"We will hand out 300 seats," she said at the opening of the event.',
        "The workshop offers 250 places to students from every university.",
    )
    assert found[0].what.startswith("count 250 places")
