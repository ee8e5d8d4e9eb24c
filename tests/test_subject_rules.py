"""The subject of a figure, rule by rule (extractors/subjects.py); test_provenance.py
measures the same code on hand-labelled real sentences."""

from __future__ import annotations

import pytest

from extractors.subjects import _phrase, _phrase_before, _skip_determiners, subject_of
from extractors.values import NumberKind

K = NumberKind


def subject(sentence: str, raw: str, kind: NumberKind, unit: str | None = None) -> str | None:
    start = sentence.index(raw)
    return subject_of(sentence, start, start + len(raw), kind, unit)


@pytest.mark.parametrize(
    ("sentence", "raw", "kind", "unit", "expected"),
    [
        # a rate has no subject of its own
        ("It earned $2.53 per share last year.", "$2.53 per share", K.MONEY, None, None),
        ("It earned $2.53 PER share last year.", "$2.53 PER share", K.MONEY, None, None),
        ("It earned $2.53 perhaps more.", "$2.53", K.MONEY, None, "perhaps"),
        # a counted noun closes the figure and starts the phrase
        ("We read 2,226 Papers on robotics.", "2,226 Papers", K.COUNT, "papers", "Papers"),
        ("We got 40 GPU hours free.", "40 GPU hours", K.COUNT, "hours", "GPU hours free"),
        ("Over 40 remote teams joined.", "40 remote teams", K.COUNT, "teams", "remote teams"),
        ("There were 35,908 judged in all.", "35,908 judged", K.COUNT, "judged", None),
        ("There were 12 the.", "12 the", K.COUNT, "the", None),
        ("The 12 seats quickly went.", "12 seats", K.COUNT, "seats", "seats"),
        # "of" after the figure: what it is of
        ("It pays $4,000 of the prize pool to teams.", "$4,000", K.MONEY, None, "prize pool"),
        ("It pays $4,000 worth of cloud credits.", "$4,000", K.MONEY, None, "cloud credits"),
        ("It pays $4,000 of the.", "$4,000", K.MONEY, None, None),
        # "of" before the figure: what the figure measures
        ("A diameter of 3,200 miles is huge.", "3,200 miles", K.COUNT, "miles", "diameter"),
        ("A Prize Pool of up to $50,000 is open.", "$50,000", K.MONEY, None, "Prize Pool"),
        ("A maximum of 10 years applies.", "10 years", K.DURATION, "years", None),
        ("A MAXIMUM of 10 years applies.", "10 years", K.DURATION, "years", None),
        ("A period of 10 years applies.", "10 years", K.DURATION, "years", "period"),
        ("A fine of 10 years applies.", "10 years", K.DURATION, "years", None),
        ("A fine of $500 applies.", "$500", K.MONEY, None, "fine"),
        ("Made of 500 parts in all.", "500 parts", K.COUNT, "parts", "parts"),
        # money "in" something: what it is, unless spent on or given for it
        ("Teams get $4,000 in the GPU credits.", "$4,000", K.MONEY, None, "GPU credits"),
        ("They invested $4,000 in GPU credits.", "$4,000", K.MONEY, None, None),
        ("Prizes for $4,000 in credits.", "$4,000", K.MONEY, None, None),
        ("Prizes FOR $4,000 in credits.", "$4,000", K.MONEY, None, None),
        ("Teams get $4,000 in the.", "$4,000", K.MONEY, None, None),
        # the words just after money, a percentage, a plain number or a measure
        ("Teams get $4,000 cloud credits each.", "$4,000", K.MONEY, None, "cloud credits"),
        ("A 5% fee is charged.", "5%", K.PERCENT, None, "fee"),
        ("A 30.8 GW solar farm.", "30.8 GW", K.COUNT, "gw", "solar farm"),
        ("It has 12 Seats.", "12", K.NUMBER, None, "Seats"),
        ("It has 12 the seats.", "12", K.NUMBER, None, None),
        ("It has 12, seats.", "12", K.NUMBER, None, None),
        ("Wait 5 days more.", "5 days", K.DURATION, "days", None),
        ("It is 12 days later.", "12", K.COUNT, None, None),  # a count with no unit
        ("On March 3, 2026 teams met.", "March 3, 2026", K.DATE, None, None),
    ],
)
def test_subject_of(
    sentence: str, raw: str, kind: NumberKind, unit: str | None, expected: str | None
) -> None:
    assert subject(sentence, raw, kind, unit) == expected


@pytest.mark.parametrize(
    ("text", "rest"),
    [
        ("the region's 2,226 papers", "papers"),
        ("The Region’s papers", "papers"),
        ("THE papers", "papers"),
        ("1.5 papers", "papers"),
        ("these each papers", "papers"),
        ("bold papers", "bold papers"),
        ("papers", "papers"),
    ],
)
def test_skip_determiners(text: str, rest: str) -> None:
    assert _skip_determiners(text) == rest


@pytest.mark.parametrize(
    ("text", "first", "words"),
    [
        ("GPU cloud compute credits extra words", True, ["GPU", "cloud", "compute", "credits"]),
        ("monthly fee", True, ["monthly", "fee"]),  # first word ending -ly: an adjective
        ("fee monthly", True, ["fee"]),  # later: an adverb
        ("only fee", True, []),
        ("fees weekly", True, ["fees"]),
        (" yearly fee", False, []),
        (" early fee", False, []),  # five letters ending -ly: an adverb
        ("fees fixed", True, ["fees"]),  # five letters ending -ed: a verb
        (" holy fee", False, ["holy", "fee"]),  # four letters: not an adverb
        ("attempted papers", True, ["attempted", "papers"]),
        ("papers attempted", True, ["papers"]),
        (" used papers", False, ["used", "papers"]),  # four letters
        (" judged papers", False, []),
        ("credits, then more", True, ["credits"]),
        ("credits.", True, ["credits"]),
        ("credits) more", True, ["credits"]),
        ("\u201ccredits\u201d more", True, ["credits"]),  # a word in quotes is the word
        ("credits\u201d more", True, ["credits"]),
        ("credits' more", True, ["credits"]),
        ("TAX.", True, ["TAX"]),
        (" credits pool", False, ["credits", "pool"]),
        ("credits pool", False, []),  # glued to the figure: not a phrase of its own
        ("", True, []),
    ],
)
def test_phrase(text: str, first: bool, words: list[str]) -> None:
    assert _phrase(text, first=first) == words


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("a prize pool", ["prize", "pool"]),
        ("the big GPU prize pool", ["GPU", "prize", "pool"]),  # three words at most
        ("Winning prize pool", ["prize", "pool"]),
        ("a DESIGNED prize", ["prize"]),
        ("an UPDATED", ["UPDATED"]),
        ("the reading", []),
        ("the READING", []),
        ("spelling", []),
        ("a pool-ed $x", []),
    ],
)
def test_phrase_before(text: str, words: list[str]) -> None:
    assert _phrase_before(text) == words
