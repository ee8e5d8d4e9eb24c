"""The ranking arithmetic and clause cutting of extractors/candidates.py on figures made by
hand, so that each rule's effect is seen alone (test_candidates.py reads real pages)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

import pytest

from extractors.candidates import (
    MAX_QUOTE,
    MIN_QUOTE,
    STATUS_WEIGHT,
    Candidate,
    _clause,
    _figure,
    _score,
    _slug_number,
    candidates,
)
from extractors.claims import fold
from extractors.page import PageExtraction
from extractors.values import NumberKind, QuotedNumber, Status, StatusMention

K = NumberKind


def page(
    text: str, numbers: Sequence[QuotedNumber], statuses: Sequence[StatusMention] = ()
) -> list[Candidate]:
    extraction = PageExtraction(None, text, "test", tuple(numbers), tuple(statuses), fold(text))
    return candidates(extraction)


def number(sentence: str, raw: str, kind: NumberKind = K.COUNT, **kw: object) -> QuotedNumber:
    return QuotedNumber(kind, kw.pop("value", 5.0), raw, sentence, **kw)  # type: ignore[arg-type]


S = "Every research team of the programme gets 5 seats in the lab for a week."


@pytest.mark.parametrize(
    ("kind", "weight"),
    [
        (K.MONEY, 6.0),
        (K.DATE_RANGE, 5.0),
        (K.PERCENT, 4.0),
        (K.COUNT, 4.0),
        (K.DURATION, 3.0),
        (K.NUMBER, 2.0),
        (K.DATE, 1.5),
    ],
)
def test_each_kind_has_its_weight(kind: NumberKind, weight: float) -> None:
    (c,) = page(S, [number(S, "5 seats", kind)])
    assert c.score == pytest.approx(weight)


def test_a_subject_and_a_qualifier_add_and_a_spelled_figure_takes_away() -> None:
    (c,) = page(S, [number(S, "5 seats", subject="seats", unit="seats")])
    assert c.score == pytest.approx(5.0)
    (c,) = page(S, [number(S, "5 seats", qualifier="up to")])
    assert c.score == pytest.approx(4.5)
    text = S.replace("5 seats", "five seats")
    (c,) = page(text, [number(text, "five seats")])
    assert c.score == pytest.approx(2.5)


def test_later_sentences_rank_a_little_lower_down_to_a_floor() -> None:
    lines = [f"Research team {i} of the programme gets {i} seats in the lab." for i in range(40)]
    text = " ".join(lines)
    figures = [number(lines[i], f"{i} seats", value=float(i)) for i in (0, 10, 30, 39)]
    scores = {c.quote.split()[2]: c.score for c in page(text, figures)}
    assert scores == pytest.approx({"0": 4.0, "10": 3.9, "30": 3.7, "39": 3.7})
    # a figure whose sentence is not one of the page's own counts as the first
    fragment = "gets 5 seats in the lab for a week"
    (c,) = page(" ".join([*lines[:20], S]), [number(fragment, "5 seats")])
    assert (c.quote, c.score) == (fragment, pytest.approx(4.0))


@pytest.mark.parametrize(
    ("sentence", "kind", "penalty"),
    [
        ("The lab was built 5 years ago by the research team of the programme.", K.DURATION, 2.0),
        ("Five days later the research team of the programme had 5 seats.", K.COUNT, 0.0),
        ("The research team of the programme had 5 seats three weeks later.", K.COUNT, 2.0),
        ("The research team had 5 seats for the programme, and much later more.", K.COUNT, 0.0),
        ("The lab was built 5 years ago by the research team of the programme.", K.MONEY, 0.0),
        # the words just after the figure's first place in the sentence
        ("The 5 seats given long ago went to the lab, and 5 seats more are open.", K.COUNT, 2.0),
        # "ago" starting 28 characters after the figure: in the 30 looked at, but not whole
        ("The research team of the programme had 5 seats " + "w" * 26 + " ago.", K.COUNT, 0.0),
        ("The research team of the programme had 5 seats " + "w" * 25 + " ago.", K.COUNT, 2.0),
    ],
)
def test_narrative_time_just_after_a_count_or_duration_ranks_lower(
    sentence: str, kind: NumberKind, penalty: float
) -> None:
    raw = "5 years" if "years" in sentence else "5 seats"
    (c,) = page(sentence, [number(sentence, raw, kind)])
    weights = {K.DURATION: 3.0, K.COUNT: 4.0, K.MONEY: 6.0}
    assert c.score == pytest.approx(weights[kind] - penalty)


def test_a_status_has_its_own_weight() -> None:
    text = "Applications for the research programme are closed for this year."
    mention = StatusMention(Status.CLOSED, "are closed", text)
    (c,) = page(text, [], [mention])
    assert c == Candidate(
        "Applications for the research programme are closed for this year",
        STATUS_WEIGHT,
        "status closed",
        "closed",
    )


def test_a_figure_with_no_quote_does_not_stop_the_next() -> None:
    lost = number(S, "9 desks")  # not in its sentence: no clause
    other = "Applications for the research programme are open to all teams."
    statuses = [StatusMention(Status.OPEN, "no such phrase", other)]
    statuses.append(StatusMention(Status.OPEN, "are open", other))
    found = page(f"{S} {other}", [lost, number(S, "5 seats")], statuses)
    assert sorted(c.what for c in found) == ["count 5", "status open"]


def test_a_score_of_exactly_nothing_is_not_offered() -> None:
    text = S.replace("5 seats", "five seats")
    assert page(text, [number(text, "five seats", K.DATE)]) == []  # 1.5 - 1.5


def test_of_two_figures_with_one_quote_and_one_score_the_first_stays() -> None:
    seats, desks = number(S, "5 seats", unit="seats"), number(S, "5 seats", unit="desks")
    (c,) = page(S, [seats, desks])
    assert c.what == "count 5 seats"


def test_quotes_with_no_score_left_are_not_offered() -> None:
    furniture = "It is a 5 min read for every research team of the programme."
    assert page(furniture, [number(furniture, "5 min", K.DURATION)]) == []


def test_a_table_row_is_offered_up_to_its_cell() -> None:
    """A row is quoted as the page shows it, its label and cells up to the figure."""
    row = "Team A | 5 seats | in the lab for a week, every research team of the year"
    (c,) = page(row, [number(row, "5 seats")])
    assert (c.quote, c.figure) == ("Team A | 5 seats", None)


def test_a_quote_not_found_as_written_is_not_offered() -> None:
    assert (
        page("Something else entirely is written here on the page.", [number(S, "5 seats")]) == []
    )


def test_the_best_score_of_a_repeated_quote_is_kept() -> None:
    low = number(S, "5 seats")
    high = number(S, "5 seats", subject="seats")
    for order in ([low, high], [high, low]):
        (c,) = page(S, order)
        assert c.score == pytest.approx(5.0)
        assert c.what == "count 5 of seats"


def test_one_quote_a_figure_best_first() -> None:
    other = "Teams of the programme get 5 seats and a desk in the lab this year."
    for first, second in ((S, other), (other, S)):
        found = page(f"{first} {second}", [number(second, "5 seats"), number(first, "5 seats")])
        assert [c.quote for c in found] == [first.rstrip(".")]  # the earlier sentence
        assert found[0].what == "count 5"


@pytest.mark.parametrize(
    ("quote", "base", "score"),
    [
        ("Teams get 5 seats in the lab for the whole week", 4.0, 4.0),
        ("Comments: 5 seats in the lab for the whole week", 4.0, -2.0),
        ("Teams get 5 “seats” in the lab for the whole week", 4.0, 2.5),
        ("In 2019 teams got 5 seats", 4.0, 3.0),  # short, with a year
        ("In 2019 the research teams got 5 seats", 4.0, 4.0),  # 30 characters or more
        ("In 1899 teams got 5 seats", 4.0, 4.0),
        ("In 2019 the team got 5 seats!", 4.0, 3.0),  # 29 characters
        ("In 2019 the teams got 5 seats!", 4.0, 4.0),  # 30
        ("In 20190 teams got 5 seats", 4.0, 4.0),
        ("In “2019” teams got 5 seats", 4.0, 1.5),
    ],
)
def test_score_adjustments(quote: str, base: float, score: float) -> None:
    assert _score(quote, base) == pytest.approx(score)


@pytest.mark.parametrize(
    ("sentence", "raw", "quote"),
    [
        # the clause around the figure, cut at ; : , — – and brackets
        (
            "The lab is open to all; every team gets 5 seats in the lab for a week, and more.",
            "5 seats",
            "every team gets 5 seats in the lab for a week",
        ),
        (
            "Seats: each research team of the programme gets 5 seats — a week at most.",
            "5 seats",
            "each research team of the programme gets 5 seats",
        ),
        # a short clause is widened, one neighbour at a time, until it is long enough
        ("Alpha beta gamma delta epsilon zeta, eta theta iota kappa lambda mu, 5 seats, "
         "nu xi omicron pi rho sigma tau, upsilon phi chi psi omega.", "5 seats",
         "eta theta iota kappa lambda mu, 5 seats"),
        ("One two, three four five six seven eight nine ten eleven twelve, 5 seats, short, "
         "tail.", "5 seats",
         "three four five six seven eight nine ten eleven twelve, 5 seats, short, tail"),
        ("Head, 5 seats, one two three four five six seven eight nine ten eleven twelve, "
         "tail end of it all here.", "5 seats",
         "Head, 5 seats, one two three four five six seven eight nine ten eleven twelve"),
        ("A much longer clause that comes before it here, 5 seats, short tail.", "5 seats",
         "A much longer clause that comes before it here, 5 seats, short tail"),
        ("Ab cd ef gh ij kl, 5 seats, mn op qr st uv wx.", "5 seats",
         "Ab cd ef gh ij kl, 5 seats, mn op qr st uv wx"),
        ("Only 5 seats.", "5 seats", "Only 5 seats"),  # nothing to widen to
        # a comma in a figure or before a year does not cut
        ("The fund has 1,904 seats for every research team of the programme.", "1,904 seats",
         "The fund has 1,904 seats for every research team of the programme"),
        # case-blind search for a status phrase, the sentence's own case kept
        ("Applications for the research programme ARE CLOSED for this year.", "are closed",
         "Applications for the research programme ARE CLOSED for this year"),
        ("No figure in this sentence at all, none.", "5 seats", None),
        ("5 seats.", "5 seats", "5 seats"),  # the figure alone
        ("The lab opens daily at 5 p.m.", "5 p.m.", None),  # its stop taken for the end
        # a cut just before the figure starts its clause
        ("Notes, 5 seats for every research team of the programme this year.", "5 seats",
         "5 seats for every research team of the programme this year"),
        # a clause of exactly MIN_QUOTE characters is not widened
        ("Head words, teams get 5 seats in the lab now, tail words.", "5 seats",
         "teams get 5 seats in the lab now"),
        ("X-rays for 5 seats in the lab for every team of the programme.", "5 seats",
         "X-rays for 5 seats in the lab for every team of the programme"),
        # widened past an opening bracket: cut at the last one left open, where the
        # figure's first place is before it, and the separators before it dropped
        ("Team (a) gets 5 seats (or desks for all", "5 seats", "Team (a) gets 5 seats"),
        ("The 5 seats (or 5 seats", "5 seats", "The 5 seats"),
        ("The 5 seats, (or so", "5 seats", "The 5 seats"),
        ("The 5 seats TAX (or so", "5 seats", "The 5 seats TAX"),
        # a figure only inside an unclosed bracket is a restatement
        ("The moon is 3,200 miles (5,150 km wide, or so the research says", "5,150 km", None),
        ("The moon is 3,200 miles wide (5,150 km", "3,200 miles", "The moon is 3,200 miles wide"),
        # a bracket closed within the quote stays
        ("Ends with a bracket (the research team gets 5 seats).", "5 seats",
         "Ends with a bracket (the research team gets 5 seats)"),
        ("A research team (of the programme) gets 5 seats) in the lab.", "5 seats",
         "A research team (of the programme) gets 5 seats"),
    ],
)  # fmt: skip
def test_clauses(sentence: str, raw: str, quote: str | None) -> None:
    assert _clause(sentence, raw) == quote


def test_a_clause_of_exactly_the_longest_quote_is_kept_whole() -> None:
    clause = "Teams get 5 seats " + "x" * (MAX_QUOTE - 18)
    assert len(clause) == MAX_QUOTE
    assert _clause(clause, "5 seats") == clause
    assert _clause(clause + "x", "5 seats") != clause + "x"


def test_a_short_clause_widens_right_on_a_tie() -> None:
    # widened right the quote would be as long as its left neighbour: right it goes
    left, right = "left side words here abcdefghij", "right side words abcde"
    assert len(left) == len("5 seats, ") + len(right)
    sentence = f"P1, {left}, 5 seats, {right}, R3 tail."
    assert _clause(sentence, "5 seats") == f"5 seats, {right}"
    assert _clause(f"P1, {left}x, 5 seats, {right}, R3 tail.", "5 seats") == f"5 seats, {right}"
    assert (
        _clause(f"P1, {left[1:]}, 5 seats, {right}, R3 tail.", "5 seats") == f"{left[1:]}, 5 seats"
    )


def test_a_long_clause_is_cut_to_the_words_around_the_figure() -> None:
    words = " ".join(f"word{i}" for i in range(60))
    sentence = f"{words} gets 5 seats {words}."
    quote = _clause(sentence, "5 seats")
    assert quote is not None and "5 seats" in quote
    assert MIN_QUOTE <= len(quote) <= MAX_QUOTE
    assert quote in sentence
    # cut at word boundaries on both sides
    at = sentence.index(quote)
    assert sentence[at - 1] == " " and sentence[at + len(quote)] == " "
    # the figure sits near the middle
    assert abs(quote.index("5 seats") - MAX_QUOTE // 2) < 12
    # at the start of a long clause, nothing is cut before it
    start = f"5 seats {words}."
    assert _clause(start, "5 seats").startswith("5 seats word0")
    end = f"{words} gets 5 seats"
    assert _clause(end, "5 seats").endswith("gets 5 seats")


@pytest.mark.parametrize(
    ("n", "what", "slug"),
    [
        (QuotedNumber(K.MONEY, 4000.0, "$4,000", "", currency="USD", subject="GPU credits"),
         "money 4000 USD of GPU credits", "gpu-credits"),
        (QuotedNumber(K.MONEY, 40e9, "$40-50 billion", "", value_end=50e9, currency="USD",
                      qualifier="up to"),
         "money 4e+10-5e+10 USD (up to)", "money"),
        (QuotedNumber(K.COUNT, 5.0, "5 seats", "", unit="seats", subject="Seats"),
         "count 5 seats", "seats"),
        (QuotedNumber(K.PERCENT, 2.5, "2.5%", "", unit="%"), "percent 2.5 %", "percent"),
        (QuotedNumber(K.DATE, None, "March 4, 2021", "", date_from=date(2021, 3, 4),
                      date_to=date(2021, 3, 4)), "date 2021-03-04", "date"),
        (QuotedNumber(K.DATE_RANGE, None, "March 2027", "", date_from=date(2027, 3, 1),
                      date_to=date(2027, 3, 31)), "date_range 2027-03-01 to 2027-03-31",
         "date-range"),
        (QuotedNumber(K.NUMBER, 3.0, "3 ★", "", unit="★"), "number 3 ★", "number"),
    ],
)  # fmt: skip
def test_figures_and_slugs(n: QuotedNumber, what: str, slug: str) -> None:
    assert (_figure(n), _slug_number(n)) == (what, slug)
