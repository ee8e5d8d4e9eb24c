"""Quoted numbers: a small grammar for the figures a careful analyst quotes.

Each figure keeps its kind, unit, currency, qualifier and sentence. Model
names and versions ("H100", "v5e-4", "GPT-4") and years used as names
("NeurIPS 2026") are not figures; neither is a bare number with no unit.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from http import HTTPStatus
from itertools import takewhile

from extractors.counts import MORE, PLURAL, plural_level, spelled_acronym, unit_noun
from extractors.counts import counted as count_phrase
from extractors.lexicon import (
    AMBIGUOUS_WORDS,
    CHANGE_VERBS,
    COUNT_NOUNS,
    CURRENCY_CODES,
    DURATION_UNITS,
    FUTURE_WORDS,
    MEASURE_UNITS,
    MONTHS,
    NAME_WORDS,
    NOT_COUNTED,
    NOT_NOUNS,
    OCTET_UNITS,
    PAST_WORDS,
    PER_WORDS,
    QUALIFIERS,
    RANK_WORDS,
    RATE_ACRONYMS,
    SCALES,
    SIZE_RESOURCES,
    SIZE_TIMES,
    SIZE_UNITS,
    SPAN_KINDS,
    VERSION_WORDS,
    WORD_NUMBERS,
    currency_code,
)
from extractors.sentences import split_sentences
from extractors.subjects import STOP_WORDS, subject_of
from extractors.tables import (
    BareValue,
    ColumnUnit,
    JoinedTable,
    bare_rates,
    bare_values,
    cells,
    counted_heading,
    header_units,
    is_rule,
    joined_header,
    joined_row,
    joined_words,
    label_unit,
    labelled_values,
    quota_named,
    row_cells,
)
from extractors.values import NumberKind, QuotedNumber

_AREA = r"(?:square|sq\.?|cubic|metric)\s"
_LETTERS = "a-zà-öø-ÿ"  # lowercase: the folded patterns are lowercase
_LETTER = f"[{_LETTERS}]"
_TIME_UNITS = "|".join(sorted(DURATION_UNITS, key=len, reverse=True))
_SIZE = "(?:" + "|".join(sorted(SIZE_UNITS, key=len, reverse=True)) + ")"
# "GB-month", "GB-seconds", "GB memory hours", "TB/s", "GBs", "GB-s"
_SIZE_TIMES = (
    rf"(?:(?:-|\s(?:(?:{'|'.join(SIZE_RESOURCES)})\s)?)(?:{'|'.join(SIZE_TIMES)})\b"
    r"|-(?:s|h|mo)\b|/s(?:ec)?\b|s\b)?"  # "GB-s", "GB-h", "GB-mo": written short
)
# The word right before a number (letters only: "A100 80GB" is a model and its memory).
_WORD_BEFORE = re.compile(r"(?:^|[\s(\[\"'“])(?P<word>[A-Za-z][A-Za-z'’+]*)\s+$")
# Glued to a word before it: "A100", "GPT-4", "v5e-4".
_GLUED = re.compile(r"[A-Za-z]-?$")
_GROUPED = re.compile(r"\d{1,3},\d{3}(?!\d)")
_AGE = re.compile(r"[\s-]old\b", re.I)
# the number follows a capitalised word ("The", "iPhone", "GeForce")
_NAMED = re.compile(r"(?:^|\s)[a-z]*[A-Z][\w'’]*\s$")
# ... unless that word only opens the sentence, a verb rather than an article: "Deploy
# 10 Lambda functions", "Create 2 Block Volumes" (not "The 7 Habits"), when the words
# after the number go on to a plural
_OPENING = re.compile(
    r"[\W\d]*(?!(?:The|A|An|These|Those|Our|Your|Its|Their|Top|Best)\s)[A-Z][a-z]+\s+$"
)
_PLURAL_AFTER = re.compile(
    r"(?:[A-Za-z][\w-]*\s+){0,2}(?:[A-Za-z][a-z-]*[^\Ws]|[A-Za-z]*[A-Z])s\b"
)  # "Deploy 10 Lambda functions", "Includes 100k MAUs"
# Thousands grouped by commas, or by spaces as French and the SI write them ("10 000").
# A run of spaced numbers is no one number: at most four groups, and none after them.
_SPACED = r"\d{1,3}(?:[ \u00a0\u202f]\d{3}){1,4}(?![\d,.]|[ \u00a0\u202f]\d)"
_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|" + _SPACED + r"|\d+(?:\.\d+)?"
# A decimal comma ("5,5 Go", "2,75 GB"): one or two digits after it are never a group
# of thousands, so a measure reads it whatever the page's language.
_FRACTION = r"[1-9]/[1-9]\d?(?!\d|/)"  # "1/8 OCPU": a share of a unit
_DEC_COMMA = r"\d+,\d{1,2}(?![\d,])"
# Continental money: "€2.499,00", "1.000.000", "12,50" (dot thousands, comma decimals).
_EU_NUM = r"[1-9]\d{0,2}(?:\.\d{3})+(?:,\d{1,2})?(?![\d.])|\d+,\d{2}(?![\d,])"
# A resource named between a number and its time unit: "8 GPU hours", "100 node-hours".
# "500 GPU hours": hours of a resource, a duration; "500 GPU-hours" is a compound unit
_RESOURCE = r"\s(?:GPU|TPU|CPU|vCPU|A100|H100|compute|node|core|machine|instance)s?"
_START = r"(?<![\w.,\-/])"  # not glued to a word (H100, v5e-4, GPT-4) or a number
# ... but thousands grouped by commas are no name's: a table's cell run into the cell
# before it when its page became text: into a word ("tokens/min1,000,000 tokens/month"),
# a decimal ("1.0100,000 tokens/min": a multiplier's cell, its one or two decimals) or
# grouped thousands ("1,000,0001,000,000 Invocations"), none of which a number goes on
# with; not three digits between a dot and a comma, as "1.234,567" writes one number
_IN_CELL = r"(?:(?<=[a-z])|(?<=\.\d)(?!\d\d,)|(?<=\.\d\d)(?!\d,)|(?<=\d,\d\d\d))(?=\d{1,3},\d{3})"
_WORD_SCALE = r"(?:-(?=[a-z]{4}))"  # "$10-million", not "$10-m"
_SCALE = r"(?:k|K|thousand|million|mn|M|bn|B|billion|trillion|tn|lakhs?|lac|crores?|cr)\b"
_QUAL = r"(?:(?P<qual>" + "|".join(QUALIFIERS) + r"|~)\s*)?"
_PER = r"(?:\s*(?:/|per\s+|a\s+)(?P<per>[A-Za-z][A-Za-z-]{0,20}))?"
_MONTH = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_DOTTED = r"(?P<dots>[0-3]?\d\.[01]?\d\.(?:19|20)\d\d)"  # "22.05.2025": day, month, year
_YEAR = r"(?:19|20)\d\d"
_DMY = rf"(?P<d1>{_DAY})\s+(?P<m1>{_MONTH})(?:,?\s+(?P<y1>{_YEAR}))?"
_MDY = rf"(?P<m2>{_MONTH})\s+(?P<d2>{_DAY})(?:,?\s+(?P<y2>{_YEAR}))?"
_ISO = rf"(?P<iso>{_YEAR}-[01]\d-[0-3]\d)"
_MONTH_YEAR = rf"(?P<my_m>{_MONTH})\s+(?P<my_y>{_YEAR})"  # "March 2027": the whole month

# Signs before an amount: symbols, and letters glued to a dollar ("R$", "HK$") or "Rs".
_SIGN = r"US\$|[$€£¥₹₨₩₽₺₱₦₪₫]|(?<![A-Za-z])(?:au|a|ca|c|s|hk|nz|r)\$|(?<![A-Za-z])rs\.?\s?"
_FLAGS = re.I
# A data size and its compound unit; a count and what it counts
_SIZED = rf"(?P<num>{_DEC_COMMA}|{_NUM})\s?(?P<unit>{_SIZE}{_SIZE_TIMES})\b{_PER}"
# What a count joined to its number counts: "a 1M-token context", "a 5-person team"
_JOINED_NOUNS = "|".join(sorted(COUNT_NOUNS | {"person"}, key=len, reverse=True))
_COUNTED = (
    rf"(?P<num>{_FRACTION}|{_NUM}|{'|'.join(WORD_NUMBERS)})"
    rf"(?:\s?(?P<scale>{_SCALE}))?"
    rf"(?:\s?(?:-|–|to)\s?(?P<num2>{_NUM})(?:\s?(?P<scale2>{_SCALE}))?)?"
    r"(?:\s\(\d+\))?"  # "three (3) prizes": the number again, in digits
    rf"(?P<plus>\+)?(?:\s?(?P<times>[x×]))?"  # "4x NVIDIA A100 GPUs": so many
    rf"\s(?P<unit>{_LETTER}[{_LETTERS}0-9-]{{1,30}})\b{_PER}"
)
# A scale right before a rate limit's acronym: "1M TPM", "10k RPS" (not "2 M" before "mph")
_RATE_WORDS = f"{'|'.join(RATE_ACRONYMS)}|iops"
_RATE_SCALES = "k|m|b|thousand|million|billion"
_RATE_SCALE = rf"(?:\s?(?P<scale>{_RATE_SCALES})(?=\s?(?:{_RATE_WORDS})\b))?"
PATTERNS: list[tuple[NumberKind, re.Pattern[str]]] = [
    (
        NumberKind.DATE_RANGE,
        re.compile(
            rf"\b(?P<a>{_DAY}(?:\s+{_MONTH})?|{_MONTH}\s+{_DAY}|{_ISO.replace('?P<iso>', '')})"
            rf"\s*(?:to|until|through|thru|-|–|—)\s*"
            rf"(?P<b>{_DAY}\s+{_MONTH}(?:,?\s+{_YEAR})?|{_MONTH}\s+{_DAY}(?:,?\s+{_YEAR})?"
            rf"|{_YEAR}-[01]\d-[0-3]\d|(?P<bday>{_DAY})(?:,?\s+(?P<byear>{_YEAR}))?)\b",
            _FLAGS,
        ),
    ),
    (NumberKind.DATE, re.compile(rf"\b(?:{_ISO}|{_DOTTED}|{_DMY}|{_MDY})\b(?!\.\d)", _FLAGS)),
    (
        NumberKind.DATE,
        re.compile(rf"\b(?:{_MONTH_YEAR}|q(?P<quarter>[1-4])\s(?P<q_y>{_YEAR}))\b", _FLAGS),
    ),
    (
        NumberKind.MONEY,
        re.compile(
            rf"{_QUAL}(?P<cur>{_SIGN}|(?<![A-Za-z])(?:{'|'.join(CURRENCY_CODES)}))\s?"
            rf"(?P<num>{_EU_NUM}|{_NUM})(?:(?:\s|{_WORD_SCALE})?(?P<scale>{_SCALE}))?"
            rf"(?:\s?(?:-|–|to)\s?(?:{_SIGN})?(?P<num2>{_NUM})(?:\s?(?P<scale2>{_SCALE}))?)?"
            rf"(?P<plus>\+)?{_PER}",
            _FLAGS,
        ),
    ),
    (  # the sign after the amount, as much of Europe writes it: "5$", "10 €"
        NumberKind.MONEY,
        re.compile(
            rf"{_QUAL}{_START}(?P<num>{_EU_NUM}|{_NUM})(?:\s?(?P<scale>{_SCALE}))?\s?"
            rf"(?P<cur>[$€£¥₹₩₽₺₱₦₪₫])(?![\d$€£¥₹₩₽₺₱₦₪₫]|\s?\d){_PER}",
            _FLAGS,
        ),
    ),
    (
        NumberKind.MONEY,
        re.compile(
            rf"{_QUAL}{_START}(?P<num>{_NUM})(?:\s?(?P<scale>{_SCALE}))?\s?"
            rf"(?P<cur>{'|'.join(CURRENCY_CODES)}|(?:us )?dollars|euros?|pounds|rupees|yuan|yen"
            rf"|francs)\b{_PER}",
            _FLAGS,
        ),
    ),
    (
        NumberKind.PERCENT,
        re.compile(
            rf"{_QUAL}{_START}(?P<num>{_NUM})(?:\s?%?\s?(?:-|–|to)\s?(?P<num2>{_NUM}))?"
            rf"\s?(?:%|percent\b|per cent\b)",
            _FLAGS,
        ),
    ),
    (
        NumberKind.DURATION,
        re.compile(
            rf"{_QUAL}{_START}(?P<num>{_NUM}|{'|'.join(WORD_NUMBERS)})"
            rf"(?:\s?(?:-|–|to)\s?(?P<num2>{_NUM}))?"
            rf"(?:{_RESOURCE}(?:\s(?:{'|'.join(SPAN_KINDS)}))?\s|(?:\s(?:{'|'.join(SPAN_KINDS)}))?[\s-]?)"
            # "30s", "2d"; not a model's plural ("8 A100s")
            rf"(?P<unit>{_TIME_UNITS}|(?<=\d)(?<![a-z]\d)(?<![a-z]\d\d)(?<![a-z]\d\d\d)[sd])\b{_PER}",
            _FLAGS,
        ),
    ),
    (
        NumberKind.NUMBER,
        re.compile(rf"{_QUAL}{_START}{_SIZED}", _FLAGS),
    ),
    (
        NumberKind.NUMBER,
        re.compile(
            rf"{_QUAL}{_START}(?P<num>{_DEC_COMMA}|{_NUM})\s?(?P<unit>{'|'.join(OCTET_UNITS)})\b{_PER}"
        ),
    ),
    (
        NumberKind.NUMBER,
        re.compile(
            rf"{_QUAL}{_START}(?P<num>{_DEC_COMMA}|{_NUM})(?:\s?(?:-|–|to)\s?(?P<num2>{_NUM}))?"
            rf"{_RATE_SCALE}[\s-]?"
            rf"(?P<unit>(?:{_AREA})?(?:{'|'.join(sorted(MEASURE_UNITS, key=len, reverse=True))}))"
            rf"(?![\w/-]){_PER}",
            _FLAGS,
        ),
    ),
    (
        NumberKind.COUNT,
        re.compile(
            rf"{_QUAL}{_START}{_COUNTED}",
            _FLAGS,
        ),
    ),
    (  # a number joined to what it counts: "a 1M-token window", "a 10-person team"
        NumberKind.COUNT,
        re.compile(
            rf"{_QUAL}{_START}(?P<num>{_NUM})(?:\s?(?P<scale>{_SCALE}))?-"
            rf"(?P<unit>{_JOINED_NOUNS})\b{_PER}",
            _FLAGS,
        ),
    ),
    (  # a multiple, when it counts no thing: "~9x", "1-2x" (not "4x4" or "1920x1080")
        NumberKind.NUMBER,
        re.compile(rf"{_QUAL}{_START}(?P<num>{_NUM})(?:-(?P<num2>{_NUM}))?(?P<unit>x)(?![\w.])"),
    ),
    # thousands run into the word before them: a table's cells when its page became text
    (NumberKind.NUMBER, re.compile(rf"{_IN_CELL}{_SIZED}", _FLAGS)),
    (NumberKind.COUNT, re.compile(rf"{_IN_CELL}{_COUNTED}", _FLAGS)),
]
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


# The re.I patterns run as lowercase patterns on the case-folded sentence (same offsets),
# and their groups are read from the sentence itself: much faster for the patterns that
# must try every position (durations, counts), the same matches. USE_FOLDED lets the
# property tests compare with the re.I patterns.
FOLDED: list[re.Pattern[str] | None] = [_folded(p) for _, p in PATTERNS]
USE_FOLDED = True


class _Read:
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
_LETTER_IN = re.compile(r"[^\W\d_]")
_A_LETTER = Hint(_LETTER_IN, letter=True)
HINTS: list[Hint | None] = [
    _DATE_HINT,  # a date range names a month or is ISO
    _DATE_HINT,
    _DATE_HINT,
    Hint(re.compile(r"[$€£¥₹₨₩₽₺₱₦₪₫]"), re.compile(rf"(?<![a-z])(?:{_CODES}|rs\.?)\s?\d")),
    Hint(None, re.compile(r"\d(?:\s?[a-z]+)?\s?[$€£¥₹₩₽₺₱₦₪₫]")),  # a scale between
    Hint(
        None,
        re.compile(
            rf"\d(?:\s?[a-z]+)?\s?(?:{_CODES}|(?:us )?dollars|euro|pounds|rupees|yuan|yen|francs)\b"
        ),
        letter=True,
    ),
    Hint(None, re.compile(r"%|percent|per cent")),
    _A_LETTER,  # durations: "h" is a unit, so no cheaper test than a letter
    Hint(None, re.compile(rf"\d\s?{_SIZE}"), letter=True),
    Hint(re.compile(r"\d\s?[KMGTP]o\b"), letter=True),
    # units of measure: a digit right before one (searched from the digits, not from every
    # position as the pattern's optional qualifier makes it)
    Hint(
        None,
        re.compile(
            rf"\d[\s-]?(?:{_AREA})?(?:{'|'.join(MEASURE_UNITS)})(?![\w/-])"
            rf"|\d\s?(?:{_RATE_SCALES})\s?(?:{_RATE_WORDS})\b"
        ),
        letter=True,
    ),
    _A_LETTER,  # counts: any number before a word
    Hint(None, re.compile(rf"\d[kmb]?-(?:{_JOINED_NOUNS})\b"), letter=True),
    Hint(None, re.compile(r"\dx"), letter=True),  # multiples
    _RUN_INTO_CELL,
    _RUN_INTO_CELL,
]
assert len(HINTS) == len(PATTERNS)
MAX_FIGURES = 5000  # per page: a page of a million numbers is not a page of figures
MAX_SENTENCE = 2000  # characters; a longer "sentence" (a wall of text) is read in pieces
_DIGIT = re.compile(r"\d")
_WORD_NUMBER = re.compile(r"\b(?:" + "|".join(WORD_NUMBERS) + r")\b")  # in folded text


def may_hold_figure(sentence: str) -> bool:
    """A digit or a written-out number: the least a figure needs."""
    return bool(_DIGIT.search(sentence) or _WORD_NUMBER.search(fold_case(sentence)))


def extract_numbers(text: str, now: datetime, page_date: date | None = None) -> list[QuotedNumber]:
    """Every figure in the text, in reading order (at most MAX_FIGURES). A date written
    without its year is read against the page's own date when it has one, else `now`."""
    found: list[QuotedNumber] = []
    today = page_date or now.date()
    named = frozenset(int(y) for y in _YEARS.findall(text) if abs(int(y) - today.year) <= 1)
    lead: date | None = None  # the date the sentence before began with
    columns: list[ColumnUnit | None] | None = None  # the units a table's header gives
    joined: JoinedTable | None = None  # a table whose cells ran together
    quota: str | None = None  # what the sentences before name a quota of
    heading: str | None = None  # what a flattened table's header line counts
    for sentence in _stat_cards(split_sentences(text)):
        if columns is not None and not cells(sentence):
            columns = None  # the table ended
        if columns is None and any(w in sentence for w in ("quota", "limit", "allowance")):
            quota = quota_named(sentence) or quota
        if not may_hold_figure(sentence):
            lead = None
            if "|" in sentence and not is_rule(sentence):
                columns = header_units(sentence, quota)
            if joined is None or not joined_words(sentence):
                joined = joined_header(sentence)
            heading = counted_heading(sentence)
            continue  # most sentences hold no figure: skip the grammar
        row = joined_row(sentence) if joined is not None else None
        if row is None:
            joined = None
        for start in range(0, len(sentence), MAX_SENTENCE):
            piece = (
                sentence
                if len(sentence) <= MAX_SENTENCE
                else sentence[start : start + MAX_SENTENCE]
            )
            if joined is not None and row is not None and piece is sentence:
                numbers = _in_joined_row(sentence, *row, joined.unit, today, named)
            else:
                numbers, lead = _numbers_in(piece, today, named, lead)
                if columns is not None or "|" in piece:
                    numbers = _in_cells(piece, numbers, columns)
                elif ":" in piece or " – " in piece or " — " in piece or " - " in piece:
                    numbers = _after_label(piece, numbers)
                if heading is not None:
                    numbers, heading = _under_heading(piece, numbers, heading)
            found.extend(numbers)
            if len(found) >= MAX_FIGURES:
                return found[:MAX_FIGURES]
    return found


# A stat card: a figure alone on its line, its label on the next ("45" / "paid seats")
_CARD_FIGURE = re.compile(rf"[~≈]?(?:[$€£])?(?:{_NUM})(?:\s?(?:[kmb]|million|billion))?\+?%?", re.I)
_CARD_LABEL = re.compile(r"[A-Za-z][\w’'-]*(?:\s[A-Za-z][\w’'-]*){0,4}")


def _stat_cards(sentences: list[str]) -> Iterable[str]:
    """The sentences, a stat card's figure line joined to its label line."""
    k = 0
    while k < len(sentences):
        line = sentences[k]
        if (
            k + 1 < len(sentences)
            and len(line) < 16
            and _CARD_FIGURE.fullmatch(line)
            and _CARD_LABEL.fullmatch(sentences[k + 1])
        ):
            yield f"{line} {sentences[k + 1]}"
            k += 2
            continue
        yield line
        k += 1


def _in_cells(
    row: str, numbers: list[QuotedNumber], columns: list[ColumnUnit | None] | None
) -> list[QuotedNumber]:
    """A table row's figures, with its bare numbers read in their columns' units or in
    the unit its label names."""
    added = [
        (value.start, figure)
        for value, unit, label in row_cells(row, columns)
        if (figure := _bare_figure(row, value, unit, label)) is not None
    ]
    return _placed(row, numbers, added)


def _under_heading(
    row: str, numbers: list[QuotedNumber], heading: str
) -> tuple[list[QuotedNumber], str | None]:
    """A flattened table's row, with its bare rates counting what its header line names
    ("20 per year" under "MAXIMUM CREDITS"); the heading ends with the first row that
    holds none."""
    read = [(at, at + len(n.raw)) for n in numbers if (at := row.find(n.raw)) >= 0]
    unit = ColumnUnit(NumberKind.COUNT, heading)
    added = [
        (value.start, figure)
        for value in bare_rates(row)
        if not any(s <= value.start < e for s, e in read)
        and (figure := _bare_figure(row, value, unit, None)) is not None
    ]
    return _placed(row, numbers, added), (heading if added else None)


def _after_label(line: str, numbers: list[QuotedNumber]) -> list[QuotedNumber]:
    """A line's figures, with the bare numbers after its label read in the unit the label
    names ("Requests: 20/min")."""
    labelled = labelled_values(line)
    if labelled is None:
        return numbers
    label, unit, values = labelled
    added = [
        (value.start, figure)
        for value in values
        if (figure := _bare_figure(line, value, unit, label)) is not None
    ]
    return _placed(line, numbers, added)


def _in_joined_row(
    row: str,
    label: str,
    at: int,
    column: ColumnUnit | None,
    today: date,
    named: frozenset[int],
) -> list[QuotedNumber]:
    """A row of a table whose cells ran together ("Requests20/min"): the figures of its
    values, the bare ones in the unit of their column or else of the row's label."""
    numbers, _ = _numbers_in(row[at:], today, named)
    numbers = [
        replace(n, sentence=row, subject=n.subject or (label if n.kind in _NAMED_KINDS else None))
        for n in numbers
    ]
    unit = column or label_unit(label)
    if unit is None:
        return numbers
    added = [
        (value.start, figure)
        for value in bare_values(row, at, len(row))
        if (figure := _bare_figure(row, value, unit, None if column else label)) is not None
    ]
    return _placed(row, numbers, added)


# The kinds of figure a subject names (a date's or a duration's names none)
_NAMED_KINDS = frozenset(
    {NumberKind.MONEY, NumberKind.PERCENT, NumberKind.COUNT, NumberKind.NUMBER}
)


def _bare_figure(
    line: str, value: BareValue, unit: ColumnUnit, label: str | None
) -> QuotedNumber | None:
    """A bare number read in the unit its column or label gives."""
    if _is_year(value.num, value.scale):
        return None
    first = value_of(value.num, value.scale)
    last = value_of(value.num2, value.scale2 or value.scale) if value.num2 else None
    if first is None or (last is not None and last <= first):
        return None
    qualifier = unit.qualifier or value.qualifier
    raw = line[value.start : value.end]
    subject = label if unit.kind in _NAMED_KINDS else None
    return QuotedNumber(
        unit.kind, first, raw, line, last, unit.unit, None, qualifier, subject=subject
    )


def _placed(
    line: str, numbers: list[QuotedNumber], added: list[tuple[int, QuotedNumber]]
) -> list[QuotedNumber]:
    """The figures the grammar read and those added, in reading order: each where its
    raw first stands in the line; an added figure the grammar read already is dropped."""
    if not added:
        return numbers
    read = {n.raw for n in numbers}
    placed = [(line.find(n.raw), n) for n in numbers]
    placed += [(at, n) for at, n in added if n.raw not in read]
    return [n for _, n in sorted(placed, key=lambda p: p[0])]


_YEARS = re.compile(r"\b((?:19|20)\d\d)\b")
_YEAR_WRITTEN = re.compile(r"(?:19|20)\d\d")


def _numbers_in(
    sentence: str, today: date, named: frozenset[int] = frozenset(), lead: date | None = None
) -> tuple[list[QuotedNumber], date | None]:
    """The figures of one sentence, and the date it begins with (for the next one)."""
    taken: list[tuple[int, int]] = []
    hits: list[tuple[int, int, QuotedNumber]] = []
    folded = fold_case(sentence)
    lettered = _A_LETTER.found(sentence, folded)
    # by id: the date hint and the letter serve two patterns each
    hinted: dict[int, bool] = {id(_A_LETTER): lettered}
    for k, ((kind, pattern), hint) in enumerate(zip(PATTERNS, HINTS, strict=True)):
        if hint is not None:
            if hint.letter and not lettered:
                continue
            if id(hint) not in hinted:
                hinted[id(hint)] = hint.found(sentence, folded)
            if not hinted[id(hint)]:
                continue
        folded_pattern = FOLDED[k] if USE_FOLDED else None
        matches: Iterable[re.Match[str] | _Read] = (
            pattern.finditer(sentence)
            if folded_pattern is None
            else (_Read(m, sentence) for m in folded_pattern.finditer(folded))
        )
        for m in matches:
            start, end = m.span()
            if any(start < e and s < end for s, e in taken):
                continue
            if sentence[start - 1 : start] == ":" and sentence[start - 2 : start - 1].isdigit():
                continue  # the minutes of a time of day, a ratio's second term: "9:30", "16:9"
            if (split := _from_to(m, sentence, pattern, folded_pattern)) is not None:
                for s, e, part in split:
                    number = _build(kind, part, sentence, today, named)
                    if number is not None:
                        taken.append((s, e))
                        hits.append((s, e, number))
                continue
            number = _build(kind, m, sentence, today, named)
            if number is None:
                continue
            end = min(end, start + len(number.raw))
            if number.kind is NumberKind.COUNT:
                counted, end = count_phrase(number, sentence, start, end)
                if counted is None:
                    continue
                number = counted
                if number.value_end is not None and (
                    change := _count_change(m, sentence, number, start, end)
                ):
                    taken.extend((s, e) for s, e, _ in change)
                    hits.extend(change)
                    continue
            taken.append((start, end))
            hits.append((start, end, number))
    hits.extend(_shared_units(sentence, hits))
    left_out: set[int] = set()  # where the counts that leave their noun out begin
    if len(hits) < 12:  # a sentence of few figures; a list of many names its own
        implied = _counts_left_out(sentence, hits)
        left_out.update(s for s, _, _ in implied)
        hits.extend(implied)
    if "x" in sentence or "×" in sentence:
        hits = _times_sized(sentence, hits)
    if _NAMING_HINT.search(folded):
        hits.extend(_named_before(sentence, hits))
    hits.sort(key=lambda h: h[0])
    begins = next((n.date_from for s, _, n in hits[:1] if not sentence[:s].strip()), None)
    out: list[QuotedNumber] = []
    anchor = lead if begins is not None else None
    before_end = 0
    for s, e, n in hits:
        if n.kind is NumberKind.DATE and n.date_from is not None:
            if anchor is not None and not _YEAR_WRITTEN.search(n.raw) and not _lean(sentence[:s]):
                day = _after(anchor, n.date_from)
                n = replace(n, date_from=day, date_to=day) if day is not None else n
            anchor = n.date_to
        elif n.kind is NumberKind.DATE_RANGE:
            anchor = n.date_to
        subject = n.subject or subject_of(sentence, s, e, n.kind, n.unit)
        if subject is None and out and out[-1].kind is n.kind and _GOES_ON.search(sentence, 0, s):
            subject = out[-1].subject  # "from 23% to 35%": the figure before's subject
        elif (
            subject is None
            and out
            and n.kind is NumberKind.COUNT
            and (same := _SAME_RATE_AFTER.match(sentence, before_end)) is not None
            and same.start("num") == s
        ):
            subject = out[-1].subject  # "60 requests per minute and 1,000 per day"
        elif subject is None and s in left_out:
            counts = (o for o in reversed(out) if o.kind is n.kind and o.unit == n.unit)
            subject = next(counts).subject  # "3 projects, Pro accounts 20": the same subject
        before_end = e
        out.append(replace(n, subject=subject))
    return out, (out[0].date_from if begins is not None and out else None)


# A bare number whose counted noun the words before it name: "the number of seats is 5",
# "requests are limited to 60 per minute", "your request per minute limit was 20"
_NAMING_HINT = re.compile(r" of\b|limit|capped|restricted|quota|\bcap\b")  # in folded text
_NAMED_BEFORE = re.compile(
    r"(?:(?:\b(?:number|no\.?)|#)\s+of\s+(?P<of>(?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*)"
    r"(?:\s+per\s+(?P<per_of>[a-z]+))?\s*(?:is|was|are|:)"
    r"|\b(?P<limited>[a-z][\w-]*)\s+(?:are|is|were|was)\s+(?:limited|capped|restricted)\s+(?:to|at)"
    r"|\b(?P<noun>[a-z]+)(?:\s+per\s+(?P<per>[a-z]+))?\s+(?:limit|quota|cap)\s+(?:is|was|of|:))"
    r"\s*(?:(?P<qual>up to|at most|about|around|approximately)\s+)?$",
    re.I,
)
_BARE = re.compile(
    rf"{_START}(?P<num>{_NUM})(?:\s?(?P<scale>[km])\b)?"
    r"(?:\s*(?:/|\bper\s+)(?P<rate>[A-Za-z]+)\b)?(?!\s*[\w%$€£])",
    re.I,
)


def _named_before(
    sentence: str, hits: list[tuple[int, int, QuotedNumber]]
) -> list[tuple[int, int, QuotedNumber]]:
    """The bare numbers that count what the words right before them name."""
    out: list[tuple[int, int, QuotedNumber]] = []
    for m in _BARE.finditer(sentence):
        start = m.start()
        if any(s <= start < e for s, e, _ in hits) or _is_year(m["num"], m["scale"]):
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
        qualifier = f"per {PER_WORDS.get(per.lower(), per.lower())}" if per else None
        bound = (named["qual"] or "").lower()
        qualifier = _SAME_BOUND.get(bound, bound) or qualifier
        value = value_of(m["num"], m["scale"])
        raw = sentence[start : m.end("scale") if m["scale"] else m.end("num")]
        count = QuotedNumber(NumberKind.COUNT, value, raw, sentence, None, unit, None, qualifier)
        out.append((start, start + len(raw), count))
    return out


# A bare number joined to a figure that has a unit: "5,000 and 100,000 SUs", "2 or 3 days"
_JOINED = re.compile(rf"{_START}(?P<num>{_NUM})\s*(?:and|or|and/or)\s+$")


def _shared_units(
    sentence: str, hits: list[tuple[int, int, QuotedNumber]]
) -> list[tuple[int, int, QuotedNumber]]:
    """The bare numbers that share the unit of the figure after them."""
    out: list[tuple[int, int, QuotedNumber]] = []
    for start, _, n in hits if " and " in sentence or " or " in sentence else ():
        if n.kind not in (NumberKind.COUNT, NumberKind.NUMBER, NumberKind.DURATION):
            continue
        m = _JOINED.search(sentence, max(0, start - 40), start)
        if m is None or any(s <= m.start() < e for s, e, _ in hits) or n.qualifier:
            continue
        if in_name(sentence, m.start()) or _is_year(m["num"], None):
            continue
        value = value_of(m["num"], None)
        shared = QuotedNumber(n.kind, value, m["num"], sentence, None, n.unit, None, None)
        out.append((m.start(), m.start() + len(m["num"]), shared))
    for start, _, n in hits if " of " in sentence else ():
        m = _PART_OF.search(sentence, max(0, start - 40), start)
        if m is None or n.kind is not NumberKind.COUNT or in_name(sentence, m.start()):
            continue
        if any(s <= m.start() < e for s, e, _ in hits) or _is_year(m["num"], None):
            continue
        whole = re.split(r"\d[\d,.]*\S*\s+", n.raw, maxsplit=1)[-1]  # "free credits"
        value = value_of(m["num"], None)
        part = QuotedNumber(n.kind, value, m["num"], sentence, None, n.unit, subject=whole)
        out.append((m.start(), m.start() + len(m["num"]), part))
    for _, end, n in hits:
        if n.kind is not NumberKind.COUNT or n.rate is None:
            continue
        m = _SAME_RATE_AFTER.match(sentence, end)
        if m is None or m["per"].lower() not in PER_WORDS or _is_year(m["num"], m["scale"]):
            continue
        raw = sentence[m.start("num") : m.end()]
        per = f"per {PER_WORDS[m['per'].lower()]}"
        value = value_of(m["num"], m["scale"])
        shared = QuotedNumber(NumberKind.COUNT, value, raw, sentence, None, n.unit, None, per)
        out.append((m.start("num"), m.end(), shared))
    return out


def _counts_left_out(
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
        if len(gap) > _LEFT_OUT_GAP or "(" in gap or not _DIGIT.search(last.raw):
            continue  # far from it, in a note, or after a count written in words
        if _DIGIT.search(_YEARS.sub("", gap)) or _http_status(m["num"], sentence, start, end):
            continue  # a row of numbers ("777 0 0 0 4"), or "error 429"
        if not _LETTER_IN.search(gap) and sentence[end : end + 1] == ".":
            continue  # no words between: a list's next number ("**7-30 days** 1.")
        if in_name(sentence, start) or _is_year(m["num"], m["scale"]):
            continue
        word = _WORD_BEFORE.search(sentence[max(0, start - 40) : start])
        if word is not None and (
            word["word"].lower() in _NOT_MORE_OF_IT or word["word"][:1].isupper()
        ):
            continue  # "round 2", "Plan 3", "costs 10", "rated 4": not more of the same
        value = value_of(m["num"], m["scale"])
        if value is None or (not value.is_integer()):
            continue
        qualifier = last.rate or ("at least" if m["plus"] else None)
        raw = sentence[start:end]
        same = QuotedNumber(last.kind, value, raw, sentence, None, last.unit, None, qualifier)
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
    rf"(?<![#$€£@\[(:]){_START}(?P<num>{_NUM})(?P<scale>[kKmM]\b)?(?P<plus>\+)?"
    r"(?=\s*(?:[.,;)]|$)|\s+(?:on|in|for|last|this|next|each|with|at|under)\b)"
)

# So many of a counted whole: "used 3 of my 5 projects", "2 out of 3 applications"
_PART_OF = re.compile(
    rf"{_START}(?P<num>{_NUM})\s+(?:out\s+)?of\s+(?:(?:my|the|your|our|their|its|his|her)\s+)?$"
)
# A rate of the same thing by another time, its noun left out: "60 requests per minute
# and 1,000 per day", "3 builds/hour, 20/day"
_SAME_RATE_AFTER = re.compile(
    rf"\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or)\s+)(?P<num>{_NUM})(?:\s?(?P<scale>[km])\b)?"
    r"\s*(?:/\s*|per\s+|a\s+)(?P<per>[A-Za-z]+)\b",
    re.I,
)


# So many of a thing of a size: "10 x 1 GB volumes", "8x 80GB GPUs"
_TIMES_BEFORE = re.compile(rf"{_START}(?P<num>\d{{1,4}})\s?[x×]\s?$")
_PHRASE_WORDS = re.compile(r"(?:\s+[A-Za-z][\w-]*){1,3}")


def _times_sized(
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
            NumberKind.COUNT, value, m["num"], sentence, None, unit, subject=" ".join(words)
        )
        out.append((m.start(), m.start() + len(m["num"]), count))
    return out


# A figure that goes on from the one before it: "from $47 billion to $8 billion",
# "rose by 37 percent, from 0.90 percent to 1.23 percent".
_GOES_ON = re.compile(r"(?:\bto|,\s*from)\s+$", re.I)


def _after(anchor: date, day: date) -> date | None:
    """A year-less date in a run of dates read in order: the first such day on or after
    the one before it ("kicks off June 9th ... concludes October 10th"; a list of tour
    dates), over a new year only from the year's last months to its first ("December 28
    ... January 3"); None when the run goes back (a list newest first): read on its own."""
    try:
        same = day.replace(year=anchor.year)
    except ValueError:  # 29 February
        return None
    if same >= anchor:
        return same
    if anchor.month >= 11 and day.month <= 2:
        return same.replace(year=anchor.year + 1)
    return None


_FROM = re.compile(r"\bfrom\s+(?:(?:about|around|roughly|nearly|almost|over|under)\s+)?$", re.I)
_TO = re.compile(r"\s*\bto\s+", re.I)
# A change told before the "from": "its valuation slashed from", "rose by 37%, from"
_CHANGE = re.compile(
    rf"\b(?:{'|'.join(sorted(CHANGE_VERBS | {'up', 'down', 'growth', 'reduction'}))})\b"
    r"(?:(?!\bfrom\b).)*\bfrom\s",
    re.I,
)


def _from_to(
    m: re.Match[str] | _Read,
    sentence: str,
    pattern: re.Pattern[str],
    folded: re.Pattern[str] | None,
) -> list[tuple[int, int, re.Match[str] | _Read]] | None:
    """ "from $47 billion to $8 billion", "from 23% to 35%": two figures, a change, not a
    range; the two matches with their spans (None: not such a figure)."""
    if "num2" not in m.re.groupindex or m.group("num2") is None:
        return None
    start, end = m.span()
    raw = sentence[start:end]
    joiner = _TO.search(raw)
    if joiner is None:
        return None
    first_value = value_of(m.group("num"), None)
    second_value = value_of(m.group("num2"), None)
    falls = first_value is not None and second_value is not None and second_value < first_value
    if not falls and not _changed_from(sentence, start):
        return None  # "ranges from $150 to $200", "anywhere from $200 to $500": a range
    cut = start + joiner.start()
    text = sentence if folded is None else fold_case(sentence)
    first = (pattern if folded is None else folded).match(text[:cut], start)
    second = (pattern if folded is None else folded).match(text, start + joiner.end())
    if first is None or second is None:
        return None
    parts = [first, second] if folded is None else [_Read(first, sentence), _Read(second, sentence)]
    return [(p.span()[0], p.span()[1], p) for p in parts]


def _changed_from(sentence: str, start: int) -> bool:
    """A change told before the "from" the figure at `start` follows ("rose from")."""
    before = sentence[max(0, start - 80) : start]
    return bool(_FROM.search(before) and _CHANGE.search(before))


def _count_change(
    m: re.Match[str] | _Read, sentence: str, number: QuotedNumber, start: int, end: int
) -> list[tuple[int, int, QuotedNumber]] | None:
    """ "increased from 8 to 32 vCPUs": two counts of one thing, before and after a change,
    not a range (None: not such a count)."""
    second = m.start("num2")
    joiner = _TO.search(sentence, m.start("num") + len(m.group("num") or ""), second)
    if joiner is None or not _changed_from(sentence, start):
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


def in_name(text: str, start: int) -> bool:
    """Whether the number at `start` is part of a name (a model, product or version:
    "A100", "GPT-4", "RTX 4090", "iPhone 15", "Windows 11", "Python 3.11"), not a figure:
    glued to the word before it, or right after a word of a product family written with
    its capital (NAME_WORDS), after "version", or after a brand's spelling with inner
    capitals. Any other word before a number leaves it a figure ("Storage 100 GB",
    "Free Tier 500 GPU hours", "Over 500 teams")."""
    before = text[max(0, start - 40) : start]
    if _GLUED.search(before):
        return not _GROUPED.match(text, start)
    m = _WORD_BEFORE.search(before)
    if m is None:
        return False
    word = m["word"]
    if word.endswith(("'s", "’s")):
        return False  # "WeWork’s 12,000 employees": whose, not which
    folded = word.lower()
    if folded in VERSION_WORDS:
        return True
    if folded in RANK_WORDS and re.match(r"\d{1,2}(?:\.\d{1,2}){0,2}(?![\d.,])", text[start:]):
        return True
    if word[0].isupper() and folded in NAME_WORDS:
        return True
    inner = word[1:]
    return any(c.isupper() for c in inner) and any(c.islower() for c in word)


_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")


def name_numbers(text: str) -> frozenset[int]:
    """Where each number of `text` that is part of a name starts (see `in_name`): claim
    checks keep these as words, never as figures."""
    return frozenset(m.start() for m in _DIGITS.finditer(text) if in_name(text, m.start()))


def _group(m: re.Match[str] | _Read, name: int | str) -> str:
    """A group that every match of its pattern has."""
    value = m.group(name)
    if value is None:
        raise ValueError(f"a match without its group {name!r}")
    return value


def _build(
    kind: NumberKind,
    m: re.Match[str] | _Read,
    sentence: str,
    today: date,
    named: frozenset[int] = frozenset(),
) -> QuotedNumber | None:
    raw = _group(m, 0).strip()
    g = m.groupdict()
    if kind is NumberKind.DATE and g.get("quarter"):
        if raw[0] != "Q":
            return None  # "q4 2024" in lower case is rarely a quarter
        first_month = 3 * int(_group(m, "quarter")) - 2
        first = date(int(_group(m, "q_y")), first_month, 1)
        last = _month_end(first.year, first_month + 2)
        return QuotedNumber(kind, None, raw, sentence, date_from=first, date_to=last)
    if kind is NumberKind.DATE and g.get("my_m"):
        return _month(raw, _group(m, "my_m"), _group(m, "my_y"), sentence)
    if kind is NumberKind.DATE and g.get("dots"):
        day_of, month_of, year_of = (int(part) for part in _group(m, "dots").split("."))
        try:
            dotted = date(year_of, month_of, day_of)
        except ValueError:
            return None
        return QuotedNumber(kind, None, raw, sentence, date_from=dotted, date_to=dotted)
    if kind in _DATES and _MAY_THE_VERB.search(raw) and not _YEARS.search(raw):
        return None  # "teams of up to 4 may apply": the verb; the month has its capital
    if kind is NumberKind.DATE:
        day = _parse_date(_group(m, 0), today, lean=_lean(sentence[: m.start()]), named=named)
        if day is None:
            return None
        return QuotedNumber(kind, None, raw, sentence, date_from=day, date_to=day)
    if kind is NumberKind.DATE_RANGE:
        return _date_range(m, raw, sentence, today, _lean(sentence[: m.start()]), named)
    num = _group(m, "num")
    # "$10-20 million": a scale written once, after the range, scales both ends
    grouped = kind is not NumberKind.PERCENT  # "€2.499,00", "40.000 Besucher"; not "2.315%"
    value = value_of(num, g.get("scale") or (g.get("scale2") if g.get("num2") else None), grouped)
    if value is None:
        return None
    value_end = (
        value_of(g["num2"], g.get("scale2") or g.get("scale"), grouped) if g.get("num2") else None
    )
    bound = (g.get("qual") or "").lower()
    qualifier: str | None = _SAME_BOUND.get(bound, bound) or None
    if g.get("plus"):
        qualifier = qualifier or "at least"
    per = g.get("per")
    if per and kind is NumberKind.COUNT and raw.endswith(f" A {per}"):
        raw, per = raw[: raw.rindex(" A ")], None  # "1 million Class A operations": a name
    if per:
        per = PER_WORDS.get(fold_case(per), per)  # "/hr", "per min": the time unit's name
    if per and not qualifier:
        qualifier = f"per {per.lower()}"
    if kind is NumberKind.MONEY:
        cur = _group(m, "cur").strip()
        currency = currency_code(cur) or cur.upper()
        unit = per.lower() if per else None
        return QuotedNumber(kind, value, raw, sentence, value_end, unit, currency, qualifier)
    if kind is NumberKind.PERCENT:
        return QuotedNumber(kind, value, raw, sentence, value_end, "%", None, qualifier)
    sized = kind is NumberKind.NUMBER and _SIZE_UNIT.match((g.get("unit") or "").lower())
    glued = _GLUED.search(sentence, max(0, m.start() - 1), m.start())
    if sized and glued and not _GROUPED.match(sentence, m.start()):
        return None  # "A100-80GB"
    if " " in num and in_name(sentence, m.start()):
        return None  # "iPhone 15 128GB": a name's number, then a figure, not "15 128"
    if not g.get("qual") and not sized and in_name(sentence, m.start()):
        return None  # "Windows 11 users", "RTX 4090 GPUs", "Python 3.11 support": names
    if kind is NumberKind.DURATION:
        if _AGE.match(sentence, m.span()[1]):
            return None  # "a 43-year-old": an age, not a length of time
        written = fold_case(_group(m, "unit"))
        if written in _LOWER_ONLY and not _group(m, "unit").islower():
            return None  # "3D", "5,5 Mo": a dimension, a French size
        if written == "s" and _DECADE.search(sentence, 0, m.start()):
            return None  # "the 1990s", "in their 20s": a decade or an age
        unit = PER_WORDS[written]
        return QuotedNumber(kind, value, raw, sentence, value_end, unit, None, qualifier)
    unit = _group(m, "unit")
    if sized and not g.get("per") and (times := _RUN_INTO.match(sentence, m.span()[1])):
        unit, raw = unit + times[0], raw + times[0]  # "100 GB-HoursFirst 1,000 GB-Hours"
    if kind is NumberKind.COUNT:
        little = unit.lower() in NOT_NOUNS and unit.lower() not in MORE
        if little and not spelled_acronym(unit, sentence, m.start("unit") + len(unit)):
            return None
        if _is_year(num, g.get("scale")):
            return None
        if (
            unit[0].isupper()
            and not g.get("times")
            and sentence[m.start("unit") - 1] != "-"  # "the 8-GPU node": joined, no title
            and _NAMED.search(sentence, max(0, m.start() - 40), m.start())
            and not (
                _OPENING.match(sentence, 0, m.start())
                and _PLURAL_AFTER.match(sentence, m.start("unit"))
            )
        ):
            return None  # "iPhone 11 Pro", "The 7 Habits", "40 Under 40": a name
        if num.lower() in AMBIGUOUS_WORDS:
            return None
        if g.get("times") and (
            unit.lower() in MORE or not value.is_integer() or re.match(r"\d{3}x", raw)
        ):
            return None  # "2x more users", "1.5x GPUs": a multiple; "777x jets": a name
        if "/" in num and not unit_noun(unit):
            return None  # a share of a unit ("1/8 OCPU"), not a date or "24/7"
        if value_end is not None and value_end <= value and not _changed_from(sentence, m.start()):
            return None  # "a 1-1 draw", "won 3-2": a score, not a range
        if _http_status(num, sentence, m.start(), m.span()[1]):
            return None
        if _RESOURCE_TIME.fullmatch(unit):  # "5,000 GPU-hours": a measure, as written
            return QuotedNumber(
                NumberKind.NUMBER, value, raw, sentence, value_end, unit, None, qualifier
            )
        unit = unit.lower()
    return QuotedNumber(kind, value, raw, sentence, value_end, unit, None, qualifier)


_DATES = (NumberKind.DATE, NumberKind.DATE_RANGE)
_MAY_THE_VERB = re.compile(r"\d(?:st|nd|rd|th)?\s+may\b")  # lower case, after a number: the verb

# A resource used for a time, as allocations and bills write it: "core-hours", "OCPU-hrs"
_RESOURCE_TIME = re.compile(
    rf"(?:gpu|tpu|cpu|vcpu|ocpu|core|node|machine|instance|server|compute|[kmgtp]i?b)s?"
    rf"-(?:{'|'.join(SIZE_TIMES)}|h|days?)",
    re.I,
)


# Before a number glued to an "s" that makes it a decade or an age, not seconds.
_DECADE = re.compile(r"(?:\b(?:the|their|his|her|early|late|mid|in)\s+|['’]|mid-|\d)$|\d\.?$", re.I)


_STATUS_CODES = {str(s.value): s.phrase.lower() for s in HTTPStatus}
_STATUS_WORDS = re.compile(r"(?:\bhttp(?:/[\d.]+)?|\bstatus|\berror|\bcode)\s*$", re.I)
_STATUS_AFTER = re.compile(r"\s+(?:errors?|responses?|status(?:es)?|codes?)\b", re.I)


def _http_status(num: str, sentence: str, start: int, end: int) -> bool:
    """An HTTP status code, not a count: "429 Too Many Requests", "HTTP 503", "429
    responses" (the codes and their phrases are the standard library's)."""
    phrase = _STATUS_CODES.get(num)
    if phrase is None:
        return False
    after = sentence[start + len(num) : start + len(num) + 40].lower().lstrip()
    return (
        after.startswith(phrase)
        or bool(_STATUS_WORDS.search(sentence, max(0, start - 20), start))
        or bool(_STATUS_AFTER.match(sentence, start + len(num)))
    )


def _month_end(year: int, month: int) -> date:
    return date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)


def _month(raw: str, month: str, year: str, sentence: str) -> QuotedNumber | None:
    """A month of a year, first to last day ("March 2027"); "may 2027" in lower case is
    more often a verb than a month."""
    if not raw[0].isupper():
        return None
    number = MONTHS[month.lower().rstrip(".")]
    first = date(int(year), number, 1)
    last = date(int(year) + number // 12, number % 12 + 1, 1) - timedelta(days=1)
    return QuotedNumber(NumberKind.DATE, None, raw, sentence, date_from=first, date_to=last)


def _is_year(num: str, scale: str | None) -> bool:
    return scale is None and _YEAR_NUMBER.fullmatch(num) is not None


_SIZE_UNIT = re.compile(_SIZE)
# A size's time run into the next cell when its table became text ("GB-HoursFirst")
_RUN_INTO = re.compile(
    rf"-(?:{'|'.join(w for t in SIZE_TIMES for w in (t, t.capitalize(), t.upper()))})"
    r"(?=[A-Z$€£\d])"
)
_SAME_BOUND = {"~": "about", "at most": "up to"}  # one bound, one name
_LOWER_ONLY = frozenset({"d", "mo", "mos"})  # time units only in lower case
_YEAR_NUMBER = re.compile(_YEAR)
_EU_NUMBER = re.compile(_EU_NUM)
_DECIMAL_COMMA = re.compile(_DEC_COMMA)
_GROUPING_SPACES = str.maketrans("", "", " \u00a0\u202f")


def value_of(num: str | None, scale: str | None, continental: bool = False) -> float | None:
    """A number's value as written, times its scale; `continental`: dots may group
    thousands ("€1.000.000", never "$0.125"). Claim checks read figures by it too."""
    if num is None:
        return None
    if num.lower() in WORD_NUMBERS:
        value = float(WORD_NUMBERS[num.lower()])
    elif "/" in num:
        top, bottom = num.split("/")
        value = int(top) / int(bottom)
    elif continental and _EU_NUMBER.fullmatch(num):
        value = float(num.replace(".", "").replace(",", "."))
    elif "," in num and _DECIMAL_COMMA.fullmatch(num):
        value = float(num.replace(",", "."))  # "5,5 Go"
    else:  # "1,000", "10 000"
        value = float(num.replace(",", "").translate(_GROUPING_SPACES))
    if scale:
        value *= SCALES[scale.lower()]
    return value


def _lean(before: str) -> int:
    """+1 when the words before a date point forward, -1 when back, 0 when neither."""
    words = re.findall(r"[a-z]+", before.lower())[-4:]
    if (words and words[-1] in FUTURE_WORDS) or "will" in words:
        return 1  # "until 15 January", "will be terminated on Dec. 9"
    words = words[-2:]
    if any(w in PAST_WORDS or (w.endswith("ed") and len(w) > 3) for w in words):
        return -1
    return 0


NEAR_DAYS = 240  # two readings of a year-less date this near the page's date are both fair


def _resolve_year(
    month: int, day: int, today: date, lean: int, named: frozenset[int] = frozenset()
) -> date:
    """A year-less date against the page's date (or the fetch's): the next one, the last
    one, or the nearest; of two near readings, the one in a year the page names ("a 2020
    tour ... kicks off June 9th" on a page of November 2019)."""
    this_year = date(today.year, month, day)
    if lean > 0:
        return this_year if this_year >= today else date(today.year + 1, month, day)
    if lean < 0:
        return this_year if this_year <= today else date(today.year - 1, month, day)
    candidates = [date(today.year + k, month, day) for k in (-1, 0, 1)]
    near = [d for d in candidates if abs((d - today).days) <= NEAR_DAYS and d.year in named]
    if len(near) == 1 and sum(abs((d - today).days) <= NEAR_DAYS for d in candidates) > 1:
        return near[0]
    return min(candidates, key=lambda d: abs((d - today).days))


def _parse_date(
    text: str,
    today: date,
    default_year: int | None = None,
    lean: int = 0,
    named: frozenset[int] = frozenset(),
) -> date | None:
    text = text.strip().rstrip(".").replace(",", " ")
    iso = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)", text)
    try:
        if iso:
            return date(int(iso[1]), int(iso[2]), int(iso[3]))
        words = text.replace(".", " ").split()
        month = next((MONTHS[w.lower()] for w in words if w.lower() in MONTHS), None)
        day = next(
            (
                int(re.sub(r"\D", "", w))
                for w in words
                if re.match(r"\d{1,2}(st|nd|rd|th)?$", w, re.I)
            ),
            None,
        )
        year = next((int(w) for w in words if re.fullmatch(_YEAR, w)), None)
        if month is None or day is None:
            return None
        if year or default_year:
            return date(year or default_year or today.year, month, day)
        return _resolve_year(month, day, today, lean, named)
    except ValueError:
        return None


def _date_range(
    m: re.Match[str] | _Read,
    raw: str,
    sentence: str,
    today: date,
    lean: int = 0,
    named: frozenset[int] = frozenset(),
) -> QuotedNumber | None:
    a = _group(m, "a")
    if m.group("bday") is not None:  # "Oct. 5-7", "June 1-30, 2027": the month comes first
        if re.fullmatch(_DAY, a.strip(), re.I):
            return None  # two bare numbers: a score or a range of something else
        year = m.group("byear")
        start = _parse_date(
            a, today, default_year=int(year) if year else None, lean=lean, named=named
        )
        day = int(re.sub(r"\D", "", _group(m, "bday")))
        if start is None or not start.day < day <= 31:
            return None
        try:
            last = start.replace(day=day)
        except ValueError:
            return None
        return QuotedNumber(
            NumberKind.DATE_RANGE, None, raw, sentence, date_from=start, date_to=last
        )
    end = _parse_date(_group(m, "b"), today, lean=lean, named=named)
    if end is None:
        return None
    if re.fullmatch(_DAY, a.strip(), re.I):  # "15-20 July 2026": the month comes from the end
        start = (
            date(end.year, end.month, int(re.sub(r"\D", "", a)))
            if int(re.sub(r"\D", "", a)) <= 31
            else None
        )
    else:
        start = _parse_date(a, today, default_year=end.year)
    if start is None:
        return None
    return QuotedNumber(NumberKind.DATE_RANGE, None, raw, sentence, date_from=start, date_to=end)
