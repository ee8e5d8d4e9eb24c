"""Bare numbers that count what a figure beside them counts, or what the words before
them name: "1 GPU, or 2", "5,000 and 100,000 SUs", "the number of seats is 5"."""

from __future__ import annotations

import re
from itertools import takewhile

from extractors.figures.counts import PLURAL, plural_level, unit_noun
from extractors.figures.grammar import DIGIT, LETTER_IN, NUM, SCALED, START, WORD_BEFORE
from extractors.figures.words import (
    SAME_BOUND,
    YEARS,
    http_status,
    in_name,
    is_year,
    per_qualifier,
    value_of,
)
from extractors.lexicon import (
    NOT_COUNTED,
    NOT_NOUNS,
    PER_WORDS,
    RANK_WORDS,
    VERSION_WORDS,
)
from extractors.subjects import STOP_WORDS
from extractors.values import NumberKind, QuotedNumber

# A bare number whose counted noun the words before it name: "the number of seats is 5",
# "requests are limited to 60 per minute", "your request per minute limit was 20"
NAMING_HINT = re.compile(r" of\b|limit|capped|restricted|quota|\bcap\b")  # in folded text


_NAMED_BEFORE = re.compile(
    r"(?:(?:\b(?:number|no\.?)|#)\s+of\s+(?P<of>(?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*)"
    r"(?:\s+per\s+(?P<per_of>[a-z]+))?\s*(?:is|was|are|:)"
    r"|\b(?P<limited>[a-z][\w-]*)\s+(?:are|is|were|was)\s+(?:limited|capped|restricted)\s+(?:to|at)"
    r"|\b(?P<noun>[a-z]+)(?:\s+per\s+(?P<per>[a-z]+))?\s+(?:limit|quota|cap)\s+(?:is|was|of|:))"
    r"\s*(?:(?P<qual>up to|at most|about|around|approximately)\s+)?$",
    re.I,
)


_BARE = re.compile(
    rf"{START}(?P<num>{NUM})(?:\s?(?P<scale>[km])\b)?"
    r"(?:\s*(?:/|\bper\s+)(?P<rate>[A-Za-z]+)\b)?(?!\s*[\w%$€£])",
    re.I,
)


def named_before(
    sentence: str, hits: list[tuple[int, int, QuotedNumber]]
) -> list[tuple[int, int, QuotedNumber]]:
    """The bare numbers that count what the words right before them name."""
    out: list[tuple[int, int, QuotedNumber]] = []
    for m in _BARE.finditer(sentence):
        start = m.start()
        taken = any(s <= start < e and n.rule != SCALED for s, e, n in hits)
        if taken or is_year(m["num"], m["scale"]):
            continue
        named = _NAMED_BEFORE.search(sentence, max(0, start - 80), start)
        if named is None:
            continue
        if named["noun"]:  # "request limit": only what quotas count
            if not unit_noun(named["noun"]):
                continue
            unit = named["noun"].lower()
        else:
            phrase = named["of"] or named["limited"]
            head = phrase.split()[-1]
            if plural_level(head) != PLURAL or head.lower() in NOT_COUNTED | NOT_NOUNS:
                continue
            unit = phrase.lower()
        per = m["rate"] or named["per"] or named["per_of"]
        qualifier = per_qualifier(per) if per else None
        bound = (named["qual"] or "").lower()
        qualifier = SAME_BOUND.get(bound, bound) or qualifier
        value = value_of(m["num"], m["scale"])
        raw = sentence[start : m.end("scale") if m["scale"] else m.end("num")]
        count = QuotedNumber(
            NumberKind.COUNT, value, raw, sentence, None, unit, None, qualifier, rule="named-before"
        )
        out.append((start, start + len(raw), count))
    return out


# A bare number joined to a figure that has a unit: "5,000 and 100,000 SUs", "2 or 3 days"
_JOINED = re.compile(rf"{START}(?P<num>{NUM})\s*(?:and|or|and/or)\s+$")
_LISTED = re.compile(rf"{START}(?P<num>{NUM})\s*,\s*$")  # and before it: "1, 2 or 4 GPUs"


def shared_units(
    sentence: str, hits: list[tuple[int, int, QuotedNumber]]
) -> list[tuple[int, int, QuotedNumber]]:
    """The bare numbers that share the unit of the figure after them."""
    out: list[tuple[int, int, QuotedNumber]] = []
    joined = " and " in sentence or " or " in sentence
    for start, _, n in hits if joined else ():
        if n.kind not in (NumberKind.COUNT, NumberKind.NUMBER, NumberKind.DURATION):
            continue
        joiner = _JOINED
        while (m := joiner.search(sentence, max(0, start - 40), start)) is not None:
            # "5,000 and 100,000 SUs", "1, 2 or 4 GPUs": each number before in turn
            if any(s <= m.start() < e for s, e, _ in hits) or n.qualifier:
                break
            if in_name(sentence, m.start()) or is_year(m["num"], None):
                break
            value = value_of(m["num"], None)
            shared = QuotedNumber(
                n.kind, value, m["num"], sentence, None, n.unit, None, None, rule="shared-unit"
            )
            out.append((m.start(), m.start() + len(m["num"]), shared))
            start, joiner = m.start(), _LISTED
    for start, _, n in hits if " of " in sentence else ():
        m = _PART_OF.search(sentence, max(0, start - 40), start)
        if m is None or n.kind is not NumberKind.COUNT or in_name(sentence, m.start()):
            continue
        if any(s <= m.start() < e for s, e, _ in hits) or is_year(m["num"], None):
            continue
        whole = re.split(r"\d[\d,.]*\S*\s+", n.raw, maxsplit=1)[-1]  # "free credits"
        value = value_of(m["num"], None)
        part = QuotedNumber(
            n.kind, value, m["num"], sentence, None, n.unit, subject=whole, rule="part-of"
        )
        out.append((m.start(), m.start() + len(m["num"]), part))
    for _, end, n in hits:
        if n.kind is not NumberKind.COUNT or n.rate is None:
            continue
        m = SAME_RATE_AFTER.match(sentence, end)
        if m is None or m["per"].lower() not in PER_WORDS or is_year(m["num"], m["scale"]):
            continue
        raw = sentence[m.start("num") : m.end()]
        per = per_qualifier(m["per"])
        value = value_of(m["num"], m["scale"])
        shared = QuotedNumber(
            NumberKind.COUNT, value, raw, sentence, None, n.unit, None, per, rule="same-rate"
        )
        out.append((m.start("num"), m.end(), shared))
    return out


def counts_left_out(
    sentence: str, hits: list[tuple[int, int, QuotedNumber]]
) -> list[tuple[int, int, QuotedNumber]]:
    """The bare numbers after a count (or a duration) that count the same thing, its noun
    left out: "the Small tier, 100,000", "Pro accounts 20", "up from 900 last year", "14
    days to cancel, or 30 for annual plans". Only where every figure of its kind before
    names one thing and the figure right before is one of them."""
    out: list[tuple[int, int, QuotedNumber]] = []
    first = min((s for s, _, n in hits if n.kind in _LEAVES_OUT), default=None)
    if first is None:
        return out
    for m in _LEFT_OUT.finditer(sentence, first):
        start, end = m.start("num"), m.end()
        if any(s < end and start < e for s, e, _ in hits):
            continue
        before = [(e, n) for _, e, n in hits if e <= start]
        last_end, last = max(before, key=lambda b: b[0]) if before else (0, None)
        if last is None or last.kind not in _LEAVES_OUT:
            continue
        if len({n.unit for _, n in before if n.kind is last.kind}) != 1:
            continue
        gap = sentence[last_end:start]
        if len(gap) > _LEFT_OUT_GAP or "(" in gap or not DIGIT.search(last.raw):
            continue  # far from it, in a note, or after a count written in words
        if DIGIT.search(YEARS.sub("", gap)) or http_status(m["num"], sentence, start, end):
            continue  # a row of numbers ("777 0 0 0 4"), or "error 429"
        if not LETTER_IN.search(gap) and sentence[end : end + 1] == ".":
            continue  # no words between: a list's next number ("**7-30 days** 1.")
        if in_name(sentence, start) or is_year(m["num"], m["scale"]):
            continue
        word = WORD_BEFORE.search(sentence[max(0, start - 40) : start])
        if word is not None and (
            word["word"].lower() in _NOT_MORE_OF_IT or word["word"][:1].isupper()
        ):
            continue  # "round 2", "Plan 3", "costs 10", "rated 4": not more of the same
        value = value_of(m["num"], m["scale"])
        if value is None or (not value.is_integer()):
            continue
        qualifier = last.rate or ("at least" if m["plus"] else None)
        raw = sentence[start:end]
        same = QuotedNumber(
            last.kind, value, raw, sentence, None, last.unit, None, qualifier, rule="left-out"
        )
        out.append((start, end, same))
    return out


_LEAVES_OUT = (NumberKind.COUNT, NumberKind.DURATION)


# Words after which a bare number is a price, a score, a place, an ordinal or a period
# rather than more of what was counted: "the plan costs 10", "rated 4", "now in its 3rd"
_NOT_THE_SAME = frozenset(
    """at to costs cost priced price pays pay charges charged rated rating rates scored
    score scores ranked ranking ranks release its the a an his her their our my your
    every each per around about approximately roughly win wins won earn earns earned
    worth total totalling totaling error code status age aged note footnote table
    question task problem exercise module episode issue row line slide""".split()
)


_NOT_MORE_OF_IT = RANK_WORDS | VERSION_WORDS | _NOT_THE_SAME


_LEFT_OUT_GAP = 45  # characters between the count and a number that leaves its noun out


# A bare number, then the sentence's end, a comma or a word that names no thing
_LEFT_OUT = re.compile(
    rf"(?<![#$€£@\[(:]){START}(?P<num>{NUM})(?P<scale>[kKmM]\b)?(?P<plus>\+)?"
    r"(?=\s*(?:[.,;)]|$)|\s+(?:on|in|for|last|this|next|each|with|at|under|if|when|unless)\b)"
)


# So many of a counted whole: "used 3 of my 5 projects", "2 out of 3 applications"
_PART_OF = re.compile(
    rf"{START}(?P<num>{NUM})\s+(?:out\s+)?of\s+(?:(?:my|the|your|our|their|its|his|her)\s+)?$"
)


# A rate of the same thing by another time, its noun left out: "60 requests per minute
# and 1,000 per day", "3 builds/hour, 20/day"
SAME_RATE_AFTER = re.compile(
    rf"\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or)\s+)(?P<num>{NUM})(?:\s?(?P<scale>[km])\b)?"
    r"\s*(?:/\s*|per\s+|a\s+)(?P<per>[A-Za-z]+)\b",
    re.I,
)


# So many of a thing of a size: "10 x 1 GB volumes", "8x 80GB GPUs"
_TIMES_BEFORE = re.compile(rf"{START}(?P<num>\d{{1,4}})\s?[x×]\s?$")


_PHRASE_WORDS = re.compile(r"(?:\s+[A-Za-z][\w-]*){1,3}")


def times_sized(
    sentence: str, hits: list[tuple[int, int, QuotedNumber]]
) -> list[tuple[int, int, QuotedNumber]]:
    """The hits, with the count of so many things of a size in place of a multiple."""
    out = list(hits)
    for start, end, n in hits:
        if n.kind is not NumberKind.NUMBER or n.unit is None or n.unit.lower() == "x":
            continue
        m = _TIMES_BEFORE.search(sentence, max(0, start - 8), start)
        after = _PHRASE_WORDS.match(sentence, end) if m is not None else None
        if m is None or after is None:
            continue
        words = list(takewhile(lambda w: w.lower() not in STOP_WORDS, after.group().split()))
        if not words or plural_level(words[-1]) != PLURAL:
            continue
        out = [h for h in out if not (h[0] <= m.start() < h[1])]  # "4x": not a multiple
        value, unit = float(m["num"]), words[-1].lower()
        count = QuotedNumber(
            NumberKind.COUNT,
            value,
            m["num"],
            sentence,
            None,
            unit,
            subject=" ".join(words),
            rule="times-sized",
        )
        out.append((m.start(), m.start() + len(m["num"]), count))
    return out
