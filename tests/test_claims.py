from __future__ import annotations

import pytest

from extractors.claims import match_claim, normalize_text
from extractors.values import CheckOutcome

ARTICLE = (
    "A community challenge on Hugging Face has AI coding agents reproduce claims from every "
    "ICML 2026 paper, with $4,000 in GPU credits for the best runs. The challenge ran from "
    "July 15 – August 2, 2026. First\u00a0place: $2,000. The organizers noted that those slots "
    "were \u201cfully claimed\u201d within days of launch."
)


@pytest.mark.parametrize(
    ("quote", "outcome", "values"),
    [
        ("$4,000 in GPU credits for the best runs", "confirmed", (4000.0,)),
        ("$4000 in gpu credits for the best runs", "confirmed", (4000.0,)),
        ("$4,000  in GPU\ncredits for the best runs", "confirmed", (4000.0,)),
        ("First place: $2,000", "confirmed", (2000.0,)),  # nbsp on the page
        ("July 15 - August 2, 2026", "confirmed", (15.0, 2.0, 2026.0)),  # en dash on the page
        ('"fully claimed" within days', "confirmed", ()),  # typographic quotes on the page
        ("$5,000 in GPU credits for the best runs", "changed", (4000.0,)),
        ("First place: $2,500", "changed", (2000.0,)),
        ("Second place: $1,000", "absent", ()),
        ("slots were exhausted", "absent", ()),
    ],
)
def test_match_claim_on_a_real_article(quote: str, outcome: str, values: tuple) -> None:
    check = match_claim(quote, ARTICLE)
    assert check.outcome == CheckOutcome(outcome)
    assert check.found_values == values
    if outcome != "absent":
        assert check.found_text and check.found_text in ARTICLE


def test_changed_keeps_the_numbers_found_and_the_original_text() -> None:
    check = match_claim("$2,000 per team", "Each winner gets $2,500 per team, paid in credits.")
    assert check.outcome is CheckOutcome.CHANGED
    assert check.found_values == (2500.0,)
    assert check.found_text == "$2,500 per team"


def test_a_number_does_not_match_inside_a_longer_number() -> None:
    assert match_claim("$2,000", "a prize of $12,000").outcome is CheckOutcome.ABSENT
    assert match_claim("300 seats", "1300 seats").outcome is CheckOutcome.CHANGED


def test_a_bare_number_quote_is_never_changed() -> None:
    # "$2,000" has no words to anchor it: any other amount is not the same claim.
    assert match_claim("$2,000", "it costs $9 a month").outcome is CheckOutcome.ABSENT


def test_confirmed_wins_over_an_earlier_changed_occurrence() -> None:
    page = "Last year: 300 seats. This year: 300 seats. Next: 500 seats."
    assert match_claim("This year: 300 seats", page).outcome is CheckOutcome.CONFIRMED


def test_normalize_keeps_offsets_into_the_original() -> None:
    text = "Up\u00a0to  \u201c$5,000\u201d"
    norm = normalize_text(text)
    assert norm.folded == 'up to "$5000"'
    assert norm.span(0, len(norm.folded)) == text


def test_an_absent_quote_gets_the_closest_passage_never_a_match() -> None:
    from extractors.claims import match_claim

    page = (
        "The challenge opened in July. Each of the teams gets $4,500 in GPU credit for its "
        "best runs this year. Results follow in August."
    )
    check = match_claim("Teams get $4,000 in GPU credits for the best runs", page)
    assert check.outcome.value == "absent" and check.found_text is None
    assert check.closest_text == "teams gets $4,500 in GPU credit for its best runs"
    assert check.closest_score is not None and 70 <= check.closest_score < 100
    # an unrelated page has nothing near; a short quote is found or not
    unrelated = match_claim("Teams get $4,000 in GPU credits", "Rain is expected on Sunday.")
    assert unrelated.closest_text is None and unrelated.closest_score is None
    assert match_claim("$9", page).closest_text is None
    # a confirmed quote carries no hint
    assert match_claim("$4,500 in GPU credit", page).closest_text is None
