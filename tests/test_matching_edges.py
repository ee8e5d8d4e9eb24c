"""Claim matching at its edges (extractors/claims.py): folding offsets on awkward text,
the literal path's guards, and the closest passage's pre-check and widening."""

from __future__ import annotations

import pytest

from extractors.claims import (
    CLOSEST_MIN_CHARS,
    _fold_offsets,
    _fold_offsets_by_char,
    closest_passage,
    fold,
    match_claim,
    normalize_text,
)
from extractors.values import CheckOutcome, ClaimCheck


@pytest.mark.parametrize(
    "text",
    [
        "a\0b 5,000 credits",  # NUL: the fast way's own marker
        "soft\u00adhyphen and zero\u200bwidth, 5,000",  # deleted characters
        "İstanbul gets 5,000",  # a capital that lowers to two characters
        "5\u202f000 credits  and  more",  # a narrow no-break space between thousands
        "  $5,000,000  in   credits ",
        "   ",
    ],
)
def test_offsets_on_awkward_text(text: str) -> None:
    offsets = _fold_offsets(text)
    assert offsets == _fold_offsets_by_char(text)
    assert len(offsets) == len(fold(text))
    norm = normalize_text(text)
    assert fold(norm.span(0, len(norm.folded))) == norm.folded


def test_a_span_of_nothing_is_empty() -> None:
    norm = normalize_text("credits for teams")
    assert (norm.span(3, 3), norm.span(4, 2)) == ("", "")
    assert norm.span(0, 7) == "credits"


def test_an_empty_quote_is_absent() -> None:
    assert match_claim("  ", "anything at all") == ClaimCheck(CheckOutcome.ABSENT)


def test_a_quote_with_three_letters_and_a_number_can_be_changed() -> None:
    assert match_claim("abc 5", "we have abc 6 here").outcome is CheckOutcome.CHANGED
    # fewer letters: the quote must be there as written
    assert match_claim("ab 5", "we have ab 6 here").outcome is CheckOutcome.ABSENT


@pytest.mark.parametrize(
    ("quote", "page", "outcome"),
    [
        ("abc def", "5abc def", CheckOutcome.CONFIRMED),  # no digit at the quote's ends
        ("abc def", "abc def5", CheckOutcome.CONFIRMED),
        ("ab 5", "ab 55", CheckOutcome.ABSENT),  # a digit at its end: not inside a number
        ("5 ab", "15 ab", CheckOutcome.ABSENT),
        ("5 ab", "1.5 ab", CheckOutcome.ABSENT),
        ("ab 5", "ab 5.5", CheckOutcome.ABSENT),
        ("ab 5", "ab 5.", CheckOutcome.CONFIRMED),
    ],
)
def test_the_literal_path_guards_only_digits(quote: str, page: str, outcome: CheckOutcome) -> None:
    assert match_claim(quote, page).outcome is outcome


def closest(quote: str, page: str) -> tuple[str, int] | None:
    return closest_passage(fold(quote), normalize_text(page))


def test_the_closest_passage_widens_to_whole_words() -> None:
    assert closest(
        "teams get up to 300 credits each month", "the teams get up to 300 credit each monthly fee"
    ) == ("teams get up to 300 credit each monthly", 97)
    # from the page's first character, on a page ending in a letter
    assert closest("credits are given to every team", "credits are given to every teammate") == (
        "credits are given to every teammate",
        100,
    )
    # back to the start of a word begun one or more characters before
    page = "we saw participating teams receive cloud credits today"
    for cut in (1, 2, 3):
        quote = "participating teams receive cloud credits"[cut:]
        assert closest(quote, page)[0] == "participating teams receive cloud credits"
    glued = "nparticipating teams receive cloud credits"  # from the second character
    assert closest("participating teams receive cloud credits", glued)[0] == glued


def test_a_far_passage_is_no_hint() -> None:
    page = (
        "registration is open. the deadline was moved. it was extended by a week. friday is "
        "a holiday for teams everywhere in the world today."
    )
    assert closest("registration deadline extended until friday for teams", page) is None


def test_the_closest_passage_needs_most_of_the_longest_words() -> None:
    # letters near enough, but the five longest words misspelt: not tried
    quote = "extraordinary international registration participants applications teams month"
    page = "extraordinery internacional registracion participents aplications teams month"
    assert closest(quote, page) is None
    # the five longest words count, not the five shortest
    quote = "extraordinary international registration participants applications teams month grant"
    page = "extraordinery internacional registracion participents aplications teams month grant"
    assert closest(quote, page) is None
    # two of the five longest on the page: not tried; three: tried
    quote = "extraordinary international registration participants applications"
    two = "extraordinary international registracion participents aplications"
    three = "extraordinary international registration participents aplications"
    assert closest(quote, two) is None
    assert closest(quote, three) is not None
    # the sixth longest word does not count
    quote6 = quote + " deadline"
    assert closest(quote6, two + " deadline") is None


def test_quotes_shorter_than_the_minimum_have_no_closest_passage() -> None:
    quote = "teams get 5k"
    assert len(quote) == CLOSEST_MIN_CHARS
    assert closest(quote, "all teams get 5 k each") is not None
    assert closest(quote[1:], "all teams get 5 k each") is None


def test_a_closest_passage_is_bounded_in_the_page_s_own_characters() -> None:
    """What folding drops (zero-width marks) cannot widen a hint into a wall of text."""
    from extractors.claims import closest_passage, fold, normalize_text

    quote = fold("Applications for the Nimbus research grant are open until May")
    padded = (
        "Intro. Applications"
        + "\u200b" * 60_000
        + " for the Nimbus research grant are closed until June."
    )
    assert closest_passage(quote, normalize_text(padded, fold(padded))) is None
    plain = "Intro. Applications for the Nimbus research grant are closed until June."
    found = closest_passage(quote, normalize_text(plain, fold(plain)))
    assert found is not None and len(found[0]) < 100
