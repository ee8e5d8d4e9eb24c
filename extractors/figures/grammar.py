"""The figures grammar: its rules, each a named pattern for one kind of figure with a
cheap search every match needs, and the pieces of pattern they are made of."""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors.lexicon import (
    COUNT_NOUNS,
    CURRENCY_CODES,
    DURATION_UNITS,
    MEASURE_UNITS,
    MONTHS,
    OCTET_UNITS,
    QUALIFIERS,
    RATE_ACRONYMS,
    SIZE_RESOURCES,
    SIZE_TIMES,
    SIZE_UNITS,
    SPAN_KINDS,
    WORD_NUMBERS,
)
from extractors.values import NumberKind

_AREA = r"(?:square|sq\.?|cubic|metric)\s"


_LETTERS = "a-zà-öø-ÿ"  # lowercase: the folded patterns are lowercase


_LETTER = f"[{_LETTERS}]"


_TIME_UNITS = "|".join(sorted(DURATION_UNITS, key=len, reverse=True))


SIZE = "(?:" + "|".join(sorted(SIZE_UNITS, key=len, reverse=True)) + ")"


# "GB-month", "GB-seconds", "GB memory hours", "TB/s", "GBs", "GB-s"
_SIZE_TIMES = (
    rf"(?:(?:-|\s(?:(?:{'|'.join(SIZE_RESOURCES)})\s)?)(?:{'|'.join(SIZE_TIMES)})\b"
    r"|-(?:s|h|mo)\b|/s(?:ec)?\b|s\b)?"  # "GB-s", "GB-h", "GB-mo": written short
)


# The word right before a number (letters only: "A100 80GB" is a model and its memory).
WORD_BEFORE = re.compile(r"(?:^|[\s(\[\"'“])(?P<word>[A-Za-z][A-Za-z'’+]*)\s+$")


# Glued to a word before it: "A100", "GPT-4", "v5e-4".
GLUED = re.compile(r"[A-Za-z]-?$")


GROUPED = re.compile(r"\d{1,3},\d{3}(?!\d)")


AGE = re.compile(r"[\s-]old\b", re.I)


# the number follows a capitalised word ("The", "iPhone", "GeForce")
NAMED = re.compile(r"(?:^|\s)[a-z]*[A-Z][\w'’]*\s$")


# ... unless that word only opens the sentence, a verb rather than an article: "Deploy
# 10 Lambda functions", "Create 2 Block Volumes" (not "The 7 Habits"), when the words
# after the number go on to a plural
OPENING = re.compile(
    r"[\W\d]*(?!(?:The|A|An|These|Those|Our|Your|Its|Their|Top|Best)\s)[A-Z][a-z]+\s+$"
)


PLURAL_AFTER = re.compile(
    r"(?:[A-Za-z][\w-]*\s+){0,2}(?:[A-Za-z][a-z-]*[^\Ws]|[A-Za-z]*[A-Z])s\b"
)  # "Deploy 10 Lambda functions", "Includes 100k MAUs"


# Thousands grouped by commas, or by spaces as French and the SI write them ("10 000").
# A run of spaced numbers is no one number: at most four groups, and none after them.
_SPACED = r"\d{1,3}(?:[ \u00a0\u202f]\d{3}){1,4}(?![\d,.]|[ \u00a0\u202f]\d)"


NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|" + _SPACED + r"|\d+(?:\.\d+)?"


# A decimal comma ("5,5 Go", "2,75 GB"): one or two digits after it are never a group
# of thousands, so a measure reads it whatever the page's language.
_FRACTION = r"[1-9]/[1-9]\d?(?!\d|/)"  # "1/8 OCPU": a share of a unit


DEC_COMMA = r"\d+,\d{1,2}(?![\d,])"


# Continental money: "€2.499,00", "1.000.000", "12,50" (dot thousands, comma decimals).
EU_NUM = r"[1-9]\d{0,2}(?:\.\d{3})+(?:,\d{1,2})?(?![\d.])|\d+,\d{2}(?![\d,])"


# A resource named between a number and its time unit: "8 GPU hours", "100 node-hours".
# "500 GPU hours": hours of a resource, a duration; "500 GPU-hours" is a compound unit
_RESOURCE = r"\s(?:GPU|TPU|CPU|vCPU|A100|H100|compute|node|core|machine|instance)s?"


START = r"(?<![\w.,\-/])"  # not glued to a word (H100, v5e-4, GPT-4) or a number


# ... but thousands grouped by commas are no name's: a table's cell run into the cell
# before it when its page became text: into a word ("tokens/min1,000,000 tokens/month"),
# a decimal ("1.0100,000 tokens/min": a multiplier's cell, its one or two decimals) or
# grouped thousands ("1,000,0001,000,000 Invocations"), none of which a number goes on
# with; not three digits between a dot and a comma, as "1.234,567" writes one number
_IN_CELL = r"(?:(?<=[a-z])|(?<=\.\d)(?!\d\d,)|(?<=\.\d\d)(?!\d,)|(?<=\d,\d\d\d))(?=\d{1,3},\d{3})"


_WORD_SCALE = r"(?:-(?=[a-z]{4}))"  # "$10-million", not "$10-m"


_SCALE = r"(?:k|K|thousand|million|mn|M|bn|B|billion|trillion|tn|lakhs?|lac|crores?|cr)\b"


_QUAL = r"(?:(?P<qual>" + "|".join(QUALIFIERS) + r"|~)\s*)?"


_PER = r"(?:\s*(?:/\s*|per\s+|a\s+)(?P<per>[A-Za-z][A-Za-z-]{0,20}))?"


_MONTH = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"


DAY = r"\d{1,2}(?:st|nd|rd|th)?"


_DOTTED = r"(?P<dots>[0-3]?\d\.[01]?\d\.(?:19|20)\d\d)"  # "22.05.2025": day, month, year


YEAR = r"(?:19|20)\d\d"
# A figure read by this rule (a number with a scale and no unit) gives way to any other
# reading of the same words (the scan and the table readers compare a figure's rule to it).
SCALED = "scaled"


_WEEKDAY = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?"  # "to Saturday, March 15"
# "05/05/2024", "6/23/15": month first, as US pages write it, unless the first is no month
# (not "7/14/30 day views", "8/16/32 GB": numbers that share a unit)
_SLASHED = (
    r"(?<![\d/.])(?P<sa>[0-3]?\d)/(?P<sb>[0-3]?\d)/(?P<sy>(?:19|20)\d\d|\d\d)"
    rf"(?![\d/]|\s?-?(?i:{_TIME_UNITS}|{SIZE})\b)"
)
_SHORT_YEAR = r"[’']\d\d(?!\d)"  # "Jan 15, '26": a year of this century
_DMY = rf"(?P<d1>{DAY})\s+(?P<m1>{_MONTH})(?:,?\s+(?P<y1>{YEAR}|{_SHORT_YEAR}))?"


_MDY = rf"(?P<m2>{_MONTH})\s+(?P<d2>{DAY})(?:,?\s+(?P<y2>{YEAR}|{_SHORT_YEAR}))?"


_ISO = rf"(?P<iso>{YEAR}-[01]\d-[0-3]\d)"


# "March 2027", "Sept '25": the whole month
_MONTH_YEAR = rf"(?P<my_m>{_MONTH})\s+(?P<my_y>{YEAR}|{_SHORT_YEAR})"


# Signs before an amount: symbols, and letters glued to a dollar ("R$", "HK$") or "Rs".
_SIGN = r"US\$|[$€£¥₹₨₩₽₺₱₦₪₫]|(?<![A-Za-z])(?:au|a|ca|c|s|hk|nz|r)\$|(?<![A-Za-z])rs\.?\s?"


_FLAGS = re.I


# A data size and its compound unit; a count and what it counts
_SIZED = rf"(?P<num>{DEC_COMMA}|{NUM})\s?(?P<unit>{SIZE}{_SIZE_TIMES})\b{_PER}"


# What a count joined to its number counts: "a 1M-token context", "a 5-person team"
_JOINED_NOUNS = "|".join(sorted(COUNT_NOUNS | {"person"}, key=len, reverse=True))


_COUNTED = (
    rf"(?P<num>{_FRACTION}|{NUM}|{'|'.join(WORD_NUMBERS)})"
    rf"(?:\s?(?P<scale>{_SCALE}))?"
    rf"(?:\s?(?:-|–|to)\s?(?P<num2>{NUM})(?:\s?(?P<scale2>{_SCALE}))?)?"
    r"(?:\s\(\d+\))?"  # "three (3) prizes": the number again, in digits
    rf"(?P<plus>\+)?(?:\s?(?P<times>[x×]))?"  # "4x NVIDIA A100 GPUs": so many
    # markdown's emphasis or a quote between: "**2,000** calls", '24 "cloud zones"'
    rf"(?:\*\*|__)?\s[“\"‘]?(?P<unit>{_LETTER}[{_LETTERS}0-9-]{{1,30}})\b{_PER}"
)


# A scale right before a rate limit's acronym: "1M TPM", "10k RPS" (not "2 M" before "mph")
_RATE_WORDS = f"{'|'.join(RATE_ACRONYMS)}|iops"


_RATE_SCALES = "k|m|b|thousand|million|billion"


_RATE_SCALE = rf"(?:\s?(?P<scale>{_RATE_SCALES})(?=\s?(?:{_RATE_WORDS})\b))?"


# Case folding for the fast ways below: lowered text searched without re.I (whose
# per-position case tests made them slow). re.I also matches İ and ı to "i", ſ to "s" and
# the Kelvin sign to "k"; these are mapped first (lower() would keep ı and ſ, and turn İ
# into two characters: the length, and so every offset, stays).
_CASE_FIXES = {0x130: "i", 0x131: "i", 0x17F: "s", 0x212A: "k"}


def fold_case(text: str) -> str:
    """Lowered as re.I compares letters; same length, same offsets."""
    return text.lower() if text.isascii() else text.translate(_CASE_FIXES).lower()


@dataclass(frozen=True, slots=True)
class Hint:
    """A cheap search that every match of a pattern needs: in the text as is, or in the
    case-folded text (lowercase patterns)."""

    in_text: re.Pattern[str] | None = None
    in_folded: re.Pattern[str] | None = None
    letter: bool = False  # every match has a letter: a sentence with none is not searched

    def found(self, text: str, folded: str) -> bool:
        return bool(
            (self.in_text is not None and self.in_text.search(text))
            or (self.in_folded is not None and self.in_folded.search(folded))
        )


def _folded(pattern: re.Pattern[str]) -> re.Pattern[str] | None:
    """The re.I pattern as a lowercase one for case-folded text (None: not re.I)."""
    if not pattern.flags & re.I:
        return None
    assert not re.search(r"\\[SWDBAZ]", pattern.pattern), "lowering would change an escape"
    return re.compile(pattern.pattern.lower().replace("(?p<", "(?P<"))


class FoldedMatch:
    """A match on the folded sentence, its groups read from the original sentence."""

    __slots__ = ("_m", "_text")

    def __init__(self, m: re.Match[str], text: str) -> None:
        self._m, self._text = m, text

    def group(self, name: int | str = 0) -> str | None:
        start, end = self._m.span(name)
        return None if start < 0 else self._text[start:end]

    __getitem__ = group

    def groupdict(self) -> dict[str, str | None]:
        return {name: self.group(name) for name in self._m.re.groupindex}

    def start(self, name: int | str = 0) -> int:
        return self._m.start(name)

    def span(self) -> tuple[int, int]:
        return self._m.span()

    @property
    def re(self) -> re.Pattern[str]:
        return self._m.re


_MONTH_WORDS = "jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"


_CODES = "|".join(c.lower() for c in CURRENCY_CODES)


_DATE_HINT = Hint(
    re.compile(r"\d{4}-[01]\d-|\d\.[01]?\d\.(?:19|20)\d\d|Q[1-4] (?:19|20)\d\d"),
    re.compile(_MONTH_WORDS),
)  # a month, an ISO or a dotted date


# For each pattern, a cheap search its every match needs (or None): most sentences hold no
# date, money or percentage, and the patterns' optional openings make them slow to fail.
# (a comma first: a literal is found fast)
_RUN_INTO_CELL = Hint(
    None,
    re.compile(
        r",(?:(?<=[a-z]\d,)|(?<=[a-z]\d\d,)|(?<=[a-z]\d\d\d,)"
        r"|(?<=\.\d\d,)|(?<=\.\d{4},)|(?<=\.\d{5},)"
        r"|(?<=,\d{4},)|(?<=,\d{5},)|(?<=,\d{6},))\d{3}"
    ),
)


# Durations and counts have a word after their number: a wall of bare numbers has none
LETTER_IN = re.compile(r"[^\W\d_]")


A_LETTER = Hint(LETTER_IN, letter=True)


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of the grammar: its name (carried on every figure it reads, so that a
    figure read wrongly names its rule), the kind of figure it reads, its pattern, a
    cheap search every match needs (None: none cheaper than the pattern), and the
    pattern lowered for case-folded text (None: not case-blind)."""

    name: str
    kind: NumberKind
    pattern: re.Pattern[str]
    hint: Hint | None
    folded: re.Pattern[str] | None
    hint_key: int  # its hint's place in HINTS: rules that share a hint search it once


HINTS: list[Hint] = []  # every rule's hint, each once


def _rule(name: str, kind: NumberKind, pattern: re.Pattern[str], hint: Hint | None) -> Rule:
    if hint is not None and not any(h is hint for h in HINTS):
        HINTS.append(hint)
    key = next((k for k, h in enumerate(HINTS) if h is hint), -1)
    return Rule(name, kind, pattern, hint, _folded(pattern), key)


# The rules in the order they are tried: a span one rule took is no other's (a date
# range before its dates, money before the counts in it, sizes before counts).
RULES: tuple[Rule, ...] = (
    # its hint: a date range names a month or is ISO
    _rule(
        "date-range",
        NumberKind.DATE_RANGE,
        re.compile(
            rf"\b(?P<a>{DAY}(?:\s+{_MONTH})?|{_MONTH}\s+{DAY}|{_ISO.replace('?P<iso>', '')})"
            rf"\s*(?:to|until|through|thru|-|–|—)\s*{_WEEKDAY}"
            rf"(?P<b>{DAY}\s+{_MONTH}(?:,?\s+{YEAR})?|{_MONTH}\s+{DAY}(?:,?\s+{YEAR})?"
            rf"|{YEAR}-[01]\d-[0-3]\d|(?P<bday>{DAY})(?:,?\s+(?P<byear>{YEAR}))?)\b",
            _FLAGS,
        ),
        _DATE_HINT,
    ),
    _rule(
        "date",
        NumberKind.DATE,
        re.compile(rf"\b(?:{_ISO}|{_DOTTED}|{_DMY}|{_MDY})\b(?!\.\d)", _FLAGS),
        _DATE_HINT,
    ),
    _rule(
        "slashed-date",
        NumberKind.DATE,
        re.compile(_SLASHED),
        Hint(re.compile(r"\d/\d\d?/\d\d")),
    ),
    _rule(
        "month-or-quarter",
        NumberKind.DATE,
        re.compile(rf"\b(?:{_MONTH_YEAR}|q(?P<quarter>[1-4])\s(?P<q_y>{YEAR}))\b", _FLAGS),
        _DATE_HINT,
    ),
    _rule(
        "money-sign",
        NumberKind.MONEY,
        re.compile(
            rf"{_QUAL}(?P<cur>{_SIGN}|(?<![A-Za-z])(?:{'|'.join(CURRENCY_CODES)}))\s?"
            rf"(?P<num>{EU_NUM}|{NUM})(?:(?:\s|{_WORD_SCALE})?(?P<scale>{_SCALE}))?"
            rf"(?:\s?(?:-|–|to)\s?(?:{_SIGN})?(?P<num2>{NUM})(?:\s?(?P<scale2>{_SCALE}))?)?"
            rf"(?P<plus>\+)?{_PER}",
            _FLAGS,
        ),
        Hint(re.compile(r"[$€£¥₹₨₩₽₺₱₦₪₫]"), re.compile(rf"(?<![a-z])(?:{_CODES}|rs\.?)\s?\d")),
    ),
    # the sign after the amount, as much of Europe writes it: "5$", "10 €"
    # (its hint lets a scale come between: "5 million €")
    _rule(
        "money-sign-after",
        NumberKind.MONEY,
        re.compile(
            rf"{_QUAL}{START}(?P<num>{EU_NUM}|{NUM})(?:\s?(?P<scale>{_SCALE}))?\s?"
            rf"(?P<cur>[$€£¥₹₩₽₺₱₦₪₫])(?![\d$€£¥₹₩₽₺₱₦₪₫]|\s?\d){_PER}",
            _FLAGS,
        ),
        Hint(None, re.compile(r"\d(?:\s?[a-z]+)?\s?[$€£¥₹₩₽₺₱₦₪₫]")),
    ),
    _rule(
        "money-word",
        NumberKind.MONEY,
        re.compile(
            rf"{_QUAL}{START}(?P<num>{NUM})(?:\s?(?P<scale>{_SCALE}))?\s?"
            rf"(?P<cur>{'|'.join(CURRENCY_CODES)}|(?:us )?dollars|euros?|pounds|rupees|yuan|yen"
            rf"|francs)\b{_PER}",
            _FLAGS,
        ),
        Hint(
            None,
            re.compile(
                rf"\d(?:\s?[a-z]+)?\s?(?:{_CODES}|(?:us )?dollars|euro|pounds|rupees|yuan|yen"
                r"|francs)\b"
            ),
            letter=True,
        ),
    ),
    _rule(
        "percent",
        NumberKind.PERCENT,
        re.compile(
            # a typographic minus: "−20%" off, a fall
            rf"{_QUAL}(?:(?<![\w.,])(?P<neg>−))?{START}(?P<num>{NUM})"
            rf"(?:\s?%?\s?(?:-|–|to)\s?(?P<num2>{NUM}))?\s?(?:%|percent\b|per cent\b)",
            _FLAGS,
        ),
        Hint(None, re.compile(r"%|percent|per cent")),
    ),
    # its hint: "h" is a unit, so no cheaper test than a letter
    _rule(
        "duration",
        NumberKind.DURATION,
        re.compile(
            rf"{_QUAL}{START}(?P<num>{NUM}|{'|'.join(WORD_NUMBERS)})"
            rf"(?:\s?(?:-|–|to)\s?(?P<num2>{NUM}))?"
            rf"(?:{_RESOURCE}(?:\s(?:{'|'.join(SPAN_KINDS)}))?\s|(?:\s(?:{'|'.join(SPAN_KINDS)}))?[\s-]?)"
            # "30s", "2d"; not a model's plural ("8 A100s")
            rf"(?P<unit>{_TIME_UNITS}|(?<=\d)(?<![a-z]\d)(?<![a-z]\d\d)(?<![a-z]\d\d\d)[sd])\b{_PER}",
            _FLAGS,
        ),
        A_LETTER,
    ),
    _rule(
        "size",
        NumberKind.NUMBER,
        re.compile(rf"{_QUAL}{START}{_SIZED}", _FLAGS),
        Hint(None, re.compile(rf"\d\s?{SIZE}"), letter=True),
    ),
    _rule(
        "octets",
        NumberKind.NUMBER,
        re.compile(
            rf"{_QUAL}{START}(?P<num>{DEC_COMMA}|{NUM})\s?(?P<unit>{'|'.join(OCTET_UNITS)})\b{_PER}"
        ),
        Hint(re.compile(r"\d\s?[KMGTP]o\b"), letter=True),
    ),
    # its hint: a digit right before a unit of measure (searched from the digits, not from every
    # position as the pattern's optional qualifier makes it)
    _rule(
        "measure",
        NumberKind.NUMBER,
        re.compile(
            rf"{_QUAL}{START}(?P<num>{DEC_COMMA}|{NUM})(?:\s?(?:-|–|to)\s?(?P<num2>{NUM}))?"
            rf"{_RATE_SCALE}[\s-]?"
            rf"(?P<unit>(?:{_AREA})?(?:{'|'.join(sorted(MEASURE_UNITS, key=len, reverse=True))}))"
            rf"(?![\w/-]){_PER}",
            _FLAGS,
        ),
        Hint(
            None,
            re.compile(
                rf"\d[\s-]?(?:{_AREA})?(?:{'|'.join(MEASURE_UNITS)})(?![\w/-])"
                rf"|\d\s?(?:{_RATE_SCALES})\s?(?:{_RATE_WORDS})\b"
            ),
            letter=True,
        ),
    ),
    # its hint: any number before a word
    _rule(
        "count",
        NumberKind.COUNT,
        re.compile(
            rf"{_QUAL}{START}{_COUNTED}",
            _FLAGS,
        ),
        A_LETTER,
    ),
    # a number joined to what it counts: "a 1M-token window", "a 10-person team"
    _rule(
        "count-joined",
        NumberKind.COUNT,
        re.compile(
            rf"{_QUAL}{START}(?P<num>{NUM})(?:\s?(?P<scale>{_SCALE}))?-"
            rf"(?P<unit>{_JOINED_NOUNS})\b{_PER}",
            _FLAGS,
        ),
        Hint(None, re.compile(rf"\d[kmb]?-(?:{_JOINED_NOUNS})\b"), letter=True),
    ),
    # a multiple, when it counts no thing: "~9x", "1-2x" (not "4x4" or "1920x1080")
    _rule(
        "multiple",
        NumberKind.NUMBER,
        re.compile(
            rf"{_QUAL}{START}(?P<num>{NUM})(?:\s?[-–]\s?(?P<num2>{NUM}))?(?P<unit>[x×])(?![\w.])"
        ),
        Hint(re.compile(r"\d[x×]")),
    ),
    # a number with a scale and no unit: "a 128K context window", "over 250k+ served"
    # (not "4K video": one digit and a K is a screen's resolution)
    _rule(
        SCALED,
        NumberKind.NUMBER,
        re.compile(
            rf"{_QUAL}{START}(?P<num>\d{{2,3}}(?:\.\d+)?|[1-9]\.\d+|[1-9](?=[mM]))"
            r"(?P<scale>[kKmM])(?P<plus>\+)?(?![\w,/%$€£-]|\.\d)"
        ),
        Hint(re.compile(r"\d[kKmM]")),
    ),
    # thousands run into the word before them: a table's cells when its page became text
    _rule(
        "size-in-cell",
        NumberKind.NUMBER,
        re.compile(rf"{_IN_CELL}{_SIZED}", _FLAGS),
        _RUN_INTO_CELL,
    ),
    _rule(
        "count-in-cell",
        NumberKind.COUNT,
        re.compile(rf"{_IN_CELL}{_COUNTED}", _FLAGS),
        _RUN_INTO_CELL,
    ),
)


LETTER_KEY = next(k for k, h in enumerate(HINTS) if h is A_LETTER)  # counts' and durations'

DIGIT = re.compile(r"\d")


_WORD_NUMBER = re.compile(r"\b(?:" + "|".join(WORD_NUMBERS) + r")\b")  # in folded text


def may_hold_figure(sentence: str) -> bool:
    """A digit or a written-out number: the least a figure needs."""
    return bool(DIGIT.search(sentence) or _WORD_NUMBER.search(fold_case(sentence)))
