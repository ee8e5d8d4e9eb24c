"""The figure grammar, the status phrases and the matcher, field by field on small
sentences: what each rule is for, written as the reading it must give (the cases the
mutation run showed no test would notice broken)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from extractors.claims import closest_passage, fold, match_claim, normalize_text
from extractors.numbers import extract_numbers
from extractors.sentences import sentence_around, split_sentences
from extractors.statuses import extract_statuses
from extractors.values import CheckOutcome, reading_hash

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def read(sentence: str) -> list[tuple]:
    return [
        (n.kind.value, n.value, n.value_end, n.unit, n.currency, n.qualifier)
        for n in extract_numbers(sentence, NOW)
    ]


@pytest.mark.parametrize(
    ("sentence", "figures"),
    [
        ("We raised $10-20 million in grants.", [("money", 1e7, 2e7, None, "USD", None)]),
        ("It costs $40-50 billion.", [("money", 4e10, 5e10, None, "USD", None)]),
        ("Get ~$5 per month.", [("money", 5.0, None, "month", "USD", "about")]),
        ("Pay €2.499,00 a year.", [("money", 2499.0, None, "year", "EUR", "per year")]),
        ("It is 12 EUR per seat.", [("money", 12.0, None, "seat", "EUR", "per seat")]),
        ("It is US$3,000 each.", [("money", 3000.0, None, None, "USD", None)]),
        ("It costs 49.95 Euro.", [("money", 49.95, None, None, "EUR", None)]),
        ("It costs 20 dollars.", [("money", 20.0, None, None, "USD", None)]),
        ("It costs £1.5m in all.", [("money", 1.5e6, None, None, "GBP", None)]),
        ("Up to 2 to 3 percent of it.", [("percent", 2.0, 3.0, "%", None, "up to")]),
        ("Use up to 40 GPU hours.", [("duration", 40.0, None, "hour", None, "up to")]),
        ("Reviewed within 2-3 weeks.", [("duration", 2.0, 3.0, "week", None, "within")]),
        ("A 43-year-old man said so.", []),
        ("It has 256 GB of storage.", [("number", 256.0, None, "GB", None, None)]),
        ("It tops out at 30 mph.", [("number", 30.0, None, "mph", None, None)]),
        ("A 5.5-inches screen.", [("number", 5.5, None, "inches", None, None)]),
        ("It covers 87 square miles.", [("number", 87.0, None, "square miles", None, None)]),
        ("We got 1,904 applications.", [("count", 1904.0, None, "applications", None, None)]),
        ("It has 3 million users.", [("count", 3e6, None, "users", None, None)]),
        ("More than 500+ teams.", [("count", 500.0, None, "teams", None, "more than")]),
        ("We saw 2500+ teams.", [("count", 2500.0, None, "teams", None, "at least")]),
        ("In 2020 applications rose.", []),  # a year, not a count
        ("He is one of them.", []),
        ("She bought an iPhone 11 Pro today.", []),
        ("Read The 7 Habits again.", []),
        ("Ask the 10 Democrats now.", [("count", 10.0, None, "democrats", None, None)]),
        ("It has 2 only.", []),
        ("Five teams won.", [("count", 5.0, None, "teams", None, None)]),
    ],
)
def test_each_figure_with_all_its_fields(sentence: str, figures: list[tuple]) -> None:
    assert read(sentence) == figures
    assert all(n.sentence == sentence for n in extract_numbers(sentence, NOW))


@pytest.mark.parametrize(
    ("sentence", "first", "last"),
    [
        ("Apply until 15 January.", date(2027, 1, 15), None),  # forward: the next one
        ("Apply until 15 December.", date(2026, 12, 15), None),
        ("Apply until 1 December.", date(2026, 12, 1), None),  # today counts as next
        ("Open since 15 December.", date(2025, 12, 15), None),  # back: the last one
        ("Open since 1 December.", date(2026, 12, 1), None),
        ("It opened 15 December.", date(2025, 12, 15), None),  # a verb in -ed looks back
        ("A red 15 February sale.", date(2027, 2, 15), None),  # "red" is no verb: nearest
        ("It was held on 15 February.", date(2027, 2, 15), None),  # "was" too far back
        ("It was 15 February.", date(2026, 2, 15), None),
        ("Due 15 June.", date(2027, 6, 15), None),
        ("See you on 15 June.", date(2026, 6, 15), None),  # nearest of last and next
        ("See you on 2027-03-04.", date(2027, 3, 4), None),
        ("Held on Oct. 26, 2019 downtown.", date(2019, 10, 26), None),
        ("Held on 31 June.", None, None),  # no such day
        ("In December 2026 we met.", date(2026, 12, 1), date(2026, 12, 31)),
        ("In February 2028 we met.", date(2028, 2, 1), date(2028, 2, 29)),
        ("Held Oct. 5–7, 2018 here.", date(2018, 10, 5), date(2018, 10, 7)),
        ("Open June 1-30, 2027.", date(2027, 6, 1), date(2027, 6, 30)),
        ("Open 15-20 July 2026.", date(2026, 7, 15), date(2026, 7, 20)),
        ("Open 3 March to 5 April 2027.", date(2027, 3, 3), date(2027, 4, 5)),
        ("Open Feb. 27-30, 2027.", date(2027, 2, 27), None),  # no 30 February: one date
        ("Open Oct. 30–3 then.", date(2026, 10, 30), None),  # an end before its start
    ],
)
def test_dates_and_ranges(sentence: str, first: date | None, last: date | None) -> None:
    found = [n for n in extract_numbers(sentence, NOW) if n.date_from is not None]
    if first is None:
        assert found == []
        return
    (n,) = found
    assert (n.date_from, n.date_to) == (first, last or first)
    assert n.kind.value == ("date" if last is None or "December" in sentence
                            or "February 2028" in sentence else "date_range")  # fmt: skip
    assert n.sentence == sentence


def test_lower_case_may_with_a_year_is_a_verb() -> None:
    assert extract_numbers("They may 2027 be paid.", NOW) == []


def test_sentences_end_at_stops_but_not_at_abbreviations() -> None:
    text = "Held Oct. 26 in town. W. M. Keck paid. Next one!\nNew line Inc.\nLast"
    assert split_sentences(text) == [
        "Held Oct. 26 in town.",
        "W. M. Keck paid.",
        "Next one!",
        "New line Inc.",
        "Last",
    ]


def test_sentence_around_words() -> None:
    text = "First one. The fee is $5 a month. Third here."
    assert sentence_around(text, "$5") == "The fee is $5 a month."
    assert sentence_around(text, "one. The") == "First one. The fee is $5 a month."
    assert sentence_around(text, "absent") is None
    assert sentence_around(text, None) is None


@pytest.mark.parametrize(
    ("text", "statuses"),
    [
        ("Applications are now open.", [("open", "are now open")]),
        ("Applications are not open yet.", []),
        ("We aren't accepting applications.", [("closed", "aren't accepting applications")]),
        (
            "We are no longer accepting applications.",
            [("closed", "are no longer accepting applications")],
        ),
        ("Not yet, but applications are open.", [("open", "are open")]),
        ("Never mind the waitlist: apply now.", [("open", "apply")]),
    ],
)
def test_status_phrases_and_their_negation(text: str, statuses: list[tuple]) -> None:
    found = extract_statuses(text)
    assert [(s.status.value, s.phrase) for s in found] == statuses
    assert all(s.sentence == text for s in found)
    assert [(s.status.value, s.phrase) for s in extract_statuses(text, fold(text))] == statuses


def test_a_figure_quote_is_found_whole_never_inside_a_longer_number() -> None:
    on_page = match_claim("2026", "It opens in 2026.")
    assert on_page.outcome is CheckOutcome.CONFIRMED and on_page.found_values == (2026.0,)
    assert match_claim("2026", "Item 12026 sold.").outcome is CheckOutcome.ABSENT
    assert match_claim("2026", "Item 20260 sold.").outcome is CheckOutcome.ABSENT
    assert match_claim("2026", "Item 2026.5 sold.").outcome is CheckOutcome.ABSENT
    assert match_claim("v 2", "Use v 2 now.").outcome is CheckOutcome.CONFIRMED
    assert match_claim("v 2", "Use v 25 now.").outcome is CheckOutcome.ABSENT


def test_the_closest_passage_is_whole_words_and_only_when_near() -> None:
    text = "Intro text here. Teams get $2,000 in credits for the best runs. Bye."
    page = normalize_text(text)
    found = closest_passage(fold("Teams receive $2,000 in credits for the best runs"), page)
    assert found is not None
    passage, score = found
    assert "Teams get $2,000 in credits for the best runs" in passage
    start = text.index(passage)  # whole words of the page, as written
    assert (start == 0 or not text[start - 1].isalnum()) and passage[0].isalnum()
    end = start + len(passage)
    assert (end == len(text) or not text[end].isalnum()) and passage[-1].isalnum()
    assert 70 <= score < 100
    assert closest_passage(fold("nothing like this sentence at all"), page) is None
    assert closest_passage(fold("short one"), page) is None  # under 12 characters: no hint


def test_reading_hash_tells_title_from_text() -> None:
    assert reading_hash("T", "body") == reading_hash("T", "body")
    assert reading_hash("T", "body") != reading_hash(None, "body")
    assert reading_hash("Tb", "ody") != reading_hash("T", "body")
    assert reading_hash(None, "body") != reading_hash(None, "Body")
    assert reading_hash(None, "body") == reading_hash("", "body")  # no title is an empty one
    assert reading_hash("T", "body") != reading_hash("", "body")


def test_the_closest_passage_is_never_a_run_of_letters_without_end() -> None:
    """Widened to whole words a word's length at most: a page's endless run of letters
    (base64, a hostile page) gives no passage to quote, nor to write into a record."""
    text = "Intro. Teams get $2,000 in credits for the best run" + "s" * 60_000 + " Bye."
    assert (
        closest_passage(
            fold("Teams receive $2,000 in credits for the best runs"), normalize_text(text)
        )
        is None
    )
