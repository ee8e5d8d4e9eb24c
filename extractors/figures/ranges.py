"""Two figures that tell a change, not a range: "from $47 billion to $8 billion",
"increased from 8 to 32 vCPUs"."""

from __future__ import annotations

import re
from dataclasses import replace

from extractors.figures.grammar import FoldedMatch, fold_case
from extractors.figures.words import value_of
from extractors.lexicon import (
    CHANGE_VERBS,
)
from extractors.values import QuotedNumber

# A figure that goes on from the one before it: "from $47 billion to $8 billion",
# "rose by 37 percent, from 0.90 percent to 1.23 percent".
GOES_ON = re.compile(r"(?:\bto|,\s*from)\s+$", re.I)


_FROM = re.compile(r"\bfrom\s+(?:(?:about|around|roughly|nearly|almost|over|under)\s+)?$", re.I)


_TO = re.compile(r"\s*\bto\s+", re.I)


# A change told before the "from": "its valuation slashed from", "rose by 37%, from"
_CHANGE = re.compile(
    rf"\b(?:{'|'.join(sorted(CHANGE_VERBS | {'up', 'down', 'growth', 'reduction'}))})\b"
    r"(?:(?!\bfrom\b).)*\bfrom\s",
    re.I,
)


def from_to(
    m: re.Match[str] | FoldedMatch,
    sentence: str,
    pattern: re.Pattern[str],
    folded: re.Pattern[str] | None,
) -> list[tuple[int, int, re.Match[str] | FoldedMatch]] | None:
    """ "from $47 billion to $8 billion", "from 23% to 35%": two figures, a change, not a
    range; the two matches with their spans (None: not such a figure)."""
    if "num2" not in m.re.groupindex or m.group("num2") is None:
        return None
    start, end = m.span()
    raw = sentence[start:end]
    joiner = _TO.search(raw)
    if joiner is None:
        return None
    g = m.groupdict()  # "$500,000 to $1 million" rises: the scales count
    first_value = value_of(m.group("num"), g.get("scale"))
    second_value = value_of(m.group("num2"), g.get("scale2") or g.get("scale"))
    falls = first_value is not None and second_value is not None and second_value < first_value
    if not falls and not changed_from(sentence, start):
        return None  # "ranges from $150 to $200", "anywhere from $200 to $500": a range
    cut = start + joiner.start()
    text = sentence if folded is None else fold_case(sentence)
    first = (pattern if folded is None else folded).match(text[:cut], start)
    second = (pattern if folded is None else folded).match(text, start + joiner.end())
    if first is None or second is None:
        return None
    parts = (
        [first, second]
        if folded is None
        else [FoldedMatch(first, sentence), FoldedMatch(second, sentence)]
    )
    return [(p.span()[0], p.span()[1], p) for p in parts]


def changed_from(sentence: str, start: int) -> bool:
    """A change told before the "from" the figure at `start` follows ("rose from")."""
    before = sentence[max(0, start - 80) : start]
    return bool(_FROM.search(before) and _CHANGE.search(before))


def count_change(
    m: re.Match[str] | FoldedMatch, sentence: str, number: QuotedNumber, start: int, end: int
) -> list[tuple[int, int, QuotedNumber]] | None:
    """ "increased from 8 to 32 vCPUs": two counts of one thing, before and after a change,
    not a range (None: not such a count)."""
    second = m.start("num2")
    joiner = _TO.search(sentence, m.start("num") + len(m.group("num") or ""), second)
    if joiner is None or not changed_from(sentence, start):
        return None
    value = value_of(m.group("num") or "", m.group("scale"))  # "from 500 to 5 million"
    first = replace(number, raw=sentence[start : joiner.start()], value=value, value_end=None)
    after = replace(
        number,
        raw=sentence[second:end],
        value=number.value_end,
        value_end=None,
        qualifier=number.rate,
    )
    return [(start, joiner.start(), first), (second, end, after)]
