"""Units that a table's header, a row's label or a line's label give bare numbers.

Pricing and quota pages write "| Plan | Quota in GB | Requests per minute |" once, then
rows of bare numbers ("| Free | 1 | 60 |"): a row's bare number takes the unit its
column's header names (a data size, a time unit, or the plural noun it counts, with the
rate's per-what). A row may name the thing instead ("| Team members | 1 | 5 |"), as a
line may ("Requests: 20/min", "- Max projects: 3"). Tables whose cells were run together
when the page became text ("PlanCalls / day", then "Free100") are read the same way,
two columns at a time; and a table flattened to lines, whose header line names what its
rows count ("MAXIMUM CREDITS"), counts that in the rows' bare rates ("20 per year").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import date
from itertools import pairwise, takewhile

from extractors.figures.counts import PLURAL, plural_level, unit_noun
from extractors.figures.grammar import NUM, SCALED
from extractors.figures.scan import numbers_in
from extractors.figures.words import is_year, per_qualifier, value_of
from extractors.lexicon import (
    COUNT_NOUNS,
    CURRENCY_CODES,
    DATA_PREFIX_WORDS,
    DATA_PREFIXES,
    FREQUENCY_WORDS,
    NOT_COUNTED,
    NOT_NOUNS,
    PER_WORDS,
    RATE_ACRONYMS,
    SIZE_TIMES,
    currency_code,
)
from extractors.values import NumberKind, QuotedNumber

_SIZE = (
    rf"(?:[{''.join(DATA_PREFIXES)}]i?b|(?:{'|'.join(DATA_PREFIX_WORDS)})bytes?)"
    rf"(?:[-\s](?:{'|'.join(SIZE_TIMES)})|/s)?"
)
_SIZE_IN_HEADER = re.compile(rf"(?<![\w-])(?<!per )(?P<unit>{_SIZE})(?![\w-])", re.I)
_TIME_IN_HEADER = re.compile(
    r"\((?P<paren>ms|s|secs?|seconds|mins?|minutes|hrs?|hours|days|months)\)"
    r"|\bin (?P<in>milliseconds|seconds|minutes|hours|days|months)\b",
    re.I,
)
# "Requests per minute", "API calls/day", "Max seats", "Number of GPUs", "Invocations"
_COUNTED_IN_HEADER = re.compile(
    r"(?:(?:max(?:imum)?\.?|min(?:imum)?\.?|monthly|daily|included|free|total|"
    r"(?:number|no\.?|#|count) of)\s+)?"
    r"(?P<noun>[A-Za-z][A-Za-z-]*(?:\s[A-Za-z][A-Za-z-]*){0,2}?)"
    r"\s*(?:(?:\s*/\s*|\s+per\s+)(?P<per>[A-Za-z]+))?"
    # what is said of them: "Slots available", "Seats included"
    r"(?:\s+(?:available|included|allowed|remaining|left|granted|awarded|offered))?"
    r"(?:\s*\([^()]*\))?",  # a note: "Seats (per team)"
    re.I,
)
_HOW_MANY = frozenset({"qty", "quantity", "count", "no", "#", "number"})
_ROW_NUMBERS = frozenset({"#", "no", "rank", "s/n", "sr", "sl"})  # heading a first column
_RATE_IN_HEADER = re.compile(rf"\b(?P<rate>{'|'.join(RATE_ACRONYMS)})\b", re.I)
_RULE = re.compile(r"[\s|:-]+")  # "|---|---|": the line under a header
# "a monthly API call quota", "the request limit"; a column headed by the quota alone
_QUOTA_OF = re.compile(
    r"\b(?:(?P<name>(?-i:[A-Z]{2,5}))\s+)?(?P<noun>[a-z]+)\s+(?:quota|limit|allowance)s?\b",
    re.I,
)
_BARE_QUOTA = re.compile(
    r"(?:(?:monthly|daily|hourly|yearly|annual|max(?:imum)?|included)\s+)?"
    r"(?:quota|limit|allowance)s?",
    re.I,
)
_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_SCALE = r"[kKmM]|million|billion"
# One bare value: "1,000", "20/min", "100K+", "up to 5", "1-3"
_VALUE = (
    r"(?:(?P<qual>up to|over|at least|more than|~)\s*)?"
    rf"(?P<figure>(?P<num>{_NUM})(?:\s?(?P<scale>{_SCALE})\b)?"
    rf"(?:\s?[-–]\s?(?P<num2>{_NUM})(?:\s?(?P<scale2>{_SCALE})\b)?)?(?P<plus>\+)?)"
    r"(?:(?:\s*(?:/\s*|\bper\s+)|\s+an?\s+(?=(?:second|minute|hour|day|week|month|year)\b))"
    r"(?P<per>[A-Za-z]+)\b)?"
)
_ONE_VALUE = re.compile(_VALUE)
_NOTE = r"\s*\([^()]{1,40}\)"  # a short note in brackets after a label's values
_NOTE_AT_END = re.compile(rf"{_NOTE}\s*[.;]?\s*$")
# A cell or a label's text that holds only bare values: "100,000/min and 1,000,000/month"
_UNNAMED = re.sub(r"\(\?P<\w+>", "(?:", _VALUE)
# after the values, a word of how they are given: "Seats: 3 included", "Awards: 25 per
# year, renewable"
_SAID_AFTER = (
    r"(?:,?\s+(?:included|each|max|maximum|total|in total|combined|overall|available|"
    r"renewable|remaining|left|free|only|guaranteed))?"
    rf"(?:{_NOTE})?"  # a note: "Monthly credits: 500 (resets monthly)"
)
_VALUES = re.compile(
    rf"\s*{_UNNAMED}(?:\s*(?:,|;|&|\band\b|\bor\b)\s*{_UNNAMED})*{_SAID_AFTER}\s*[.;]?\s*",
    re.I,
)
# "Requests: 20/min", "- Max projects: 3", "• Team members: 1 to 5", "Seats — up to 5"
_LABEL_LINE = re.compile(
    r"\s*(?:[-*•·]\s*)?(?P<label>[A-Za-z][A-Za-z .&'’()#-]{0,40}?)(?:\s*:|\s+[–—-](?=\s))"
)
# ... or a stat line with no mark between: "Writes 20,000 / day", "Members 310"
_BARE_LABEL_LINE = re.compile(r"\s*(?:[-*•·]\s*)?(?P<label>[A-Za-z][A-Za-z &'’-]{0,30}?)\s+(?=\d)")
# Cells run together: a header of two capitalised words joined ("PlanCalls / day",
# "Limit typeValue"), then rows of a label joined to its values ("Free100",
# "Prompt tokens100,000/min and 1,000,000/month").
_JOINED_HEADER = re.compile(r"(?P<first>[A-Z][a-z]+(?: [a-z]+)*)(?P<second>[A-Z][A-Za-z/&() -]*)")
_JOINED_ROW = re.compile(r"(?P<label>[A-Za-z][A-Za-z ()&'-]*?[a-z)])(?P<values>\d.*)")
_JOINED_WORDS = re.compile(r"[A-Z][a-z]+[A-Z][A-Za-z]*")  # "EnterpriseUnlimited"


# A table flattened to lines, its header one line of words that names what its rows
# count ("PLAN MAXIMUM SEATS", "Programme Number of GPUs"), its rows bare rates by a
# time ("3 per month", "20 per year (10 per semester)")
_COUNTED_HEADING = re.compile(
    r"(?:\b(?:max(?:imum)?|min(?:imum)?|total|included)|(?:\bnumber|\bno\.|#)\s+of)"
    r"(?P<words>(?:\s+[A-Za-z][A-Za-z-]*){1,3})",
    re.I,
)
_HEADING_WORDS = re.compile(r"max|min|number|no\.|#|total|included", re.I)
_BARE_RATE = re.compile(
    r"(?<![\w.,\-/$€£])(?P<figure>(?P<num>\d{1,3}(?:,\d{3})+|\d+)(?:\s?(?P<scale>[kKmM])\b)?)"
    r"\s*(?:/\s*|\bper\s+)(?P<per>[A-Za-z]+)\b(?!\s*[/%$€£\d])"
)


@dataclass(frozen=True, slots=True)
class ColumnUnit:
    """What a column's bare numbers are: their kind, unit, per-what and currency."""

    kind: NumberKind
    unit: str | None  # None: a column of how many of the row's thing ("Qty")
    qualifier: str | None = None
    currency: str | None = None  # a money column's, when its header names one


@dataclass(frozen=True, slots=True)
class BareValue:
    """A bare number in a cell or after a label, as its parts are written."""

    start: int
    end: int
    num: str
    scale: str | None
    num2: str | None
    scale2: str | None
    qualifier: str | None  # "up to", "at least" ("20+"), or "per minute"


def cells(line: str) -> list[tuple[int, int]]:
    """The spans of a table line's cells ("| a | b |" or "a | b |"), [] when it is none."""
    if line.count("|") < 2:
        return []
    bars = [m.start() for m in re.finditer(r"\|", line)]
    edges = ([-1] if line[: bars[0]].strip() else []) + bars
    if line[bars[-1] + 1 :].strip():
        edges.append(len(line))
    return [(a + 1, b) for a, b in pairwise(edges)]


def section_row(line: str, columns: list[ColumnUnit | None] | None) -> bool:
    """A row of a table that names a section of its rows ("| Grand Prizes | | |"): one
    cell of words, the others empty; the header above still heads the rows below."""
    spans = cells(line)
    if columns is None or len(spans) != len(columns):
        return False
    return sum(1 for a, b in spans if line[a:b].strip()) == 1


def is_rule(line: str) -> bool:
    return bool(_RULE.fullmatch(line)) and "-" in line


def header_units(line: str, quota: str | None = None) -> list[ColumnUnit | None] | None:
    """The unit each column of a header line names (None for a column that names none);
    None when the line is no table header (no cells, or figures in it). `quota`: what
    the text before names a quota of ("a monthly API call quota"), for a column headed
    only "Quota" or "Monthly Limit"."""
    spans = cells(line)
    if len(spans) < 2 or re.search(r"\d", line):
        return None
    # a column's header names a price or a currency: money (a label beside a number, or a
    # row's first cell, does not make it so: "Price: 20", "| Price | 0 | 20 |")
    units = [money_column(line[a:b].strip()) or label_unit(line[a:b].strip()) for a, b in spans]
    if line[spans[0][0] : spans[0][1]].strip().lower().rstrip(".") in _ROW_NUMBERS:
        units[0] = None  # "| # | Provider |": the rows' own numbers, a list's, no count
    counts = [u.unit for u in units[1:] if u is not None and u.kind is NumberKind.COUNT]
    counted = set(counts)
    if len(counted) == 1 and len(counts) >= 2 and None not in counted:
        # "| Plan | Requests/min | Requests/day | Burst |": a column that names no unit in
        # a table whose every count counts one thing counts it too
        same = ColumnUnit(NumberKind.COUNT, counted.pop())
        units = [units[0], *(u or same for u in units[1:])]
    if quota is not None:
        units = [
            unit or (ColumnUnit(NumberKind.COUNT, quota) if _BARE_QUOTA.fullmatch(cell) else None)
            for unit, cell in zip(units, (line[a:b].strip() for a, b in spans), strict=True)
        ]
    return units


def quota_named(sentence: str) -> str | None:
    """What a sentence names a quota or a limit of, when quotas count it ("Each plan
    includes a monthly API call quota" -> "api call")."""
    m = _QUOTA_OF.search(sentence)
    if m is None or m["noun"].lower() not in COUNT_NOUNS:
        return None
    return " ".join(w for w in (m["name"], m["noun"]) if w).lower()


def label_unit(label: str, singular: bool = True) -> ColumnUnit | None:
    """The unit a header cell or a label names for the bare numbers under or after it: a
    data size, a time unit, a rate's acronym ("RPS Limit": requests per second), or the
    noun they count (a plural, or a quota noun in the singular); None when it names none."""
    if label.lower().rstrip(".") in _HOW_MANY:
        return ColumnUnit(NumberKind.COUNT, None)  # "| Prize | Qty |": how many prizes
    if m := _SIZE_IN_HEADER.search(label):
        return ColumnUnit(NumberKind.NUMBER, m["unit"])
    if (m := _TIME_IN_HEADER.search(label)) and (
        unit := PER_WORDS.get((m["paren"] or m["in"]).lower())
    ):
        return ColumnUnit(NumberKind.DURATION, unit)
    if m := _RATE_IN_HEADER.search(label):
        noun, per = RATE_ACRONYMS[m["rate"].lower()]
        return ColumnUnit(NumberKind.COUNT, noun, f"per {per}")
    m = _COUNTED_IN_HEADER.fullmatch(label)
    if m is None:
        return None
    words = m["noun"].split()
    head = words[-1].lower()
    if len(words) == 1 and head in PER_WORDS and head.endswith("s"):
        return ColumnUnit(NumberKind.DURATION, PER_WORDS[head])  # "| Days | 30 |"
    # a plural, or (in a table) a thing quotas count named in the singular ("| vCPU | 4 |")
    counts = plural_level(words[-1]) == PLURAL or (singular and unit_noun(words[-1]))
    if head in NOT_NOUNS or head in NOT_COUNTED or not counts:
        return None
    per = m["per"]
    qualifier = per_qualifier(per) if per else None
    return ColumnUnit(NumberKind.COUNT, " ".join(words).lower(), qualifier)


# A header that names a price or a currency makes its column money: "Price (USD/month)",
# "Price ($/month)", "Monthly price ($)", "Cost per seat", "Price".
_MONEY_WORD = re.compile(
    r"(?<![\w-])(?:prices?|pricing|costs?|fees?|charges?|amount)(?![\w-])", re.I
)
_HEADER_CURRENCY = re.compile(
    r"(?P<sign>US\$|[$€£¥₹])|(?<![A-Za-z])(?P<code>" + "|".join(CURRENCY_CODES) + r")(?![A-Za-z])"
)
_HEADER_PER = re.compile(
    r"(?:/|\bper\s+|\ba\s+)\s*(?P<per>month|mo|year|yr|annum|week|day|hour|hr|user|seat|"
    r"member|gb|request)s?\b|(?P<adverb>monthly|annual|annually|yearly|weekly|daily|hourly)",
    re.I,
)


MAX_MONEY_HEADER = 32  # characters: a column's header, not a line of them run together
_GLUED_WORDS = re.compile(r"[a-z)\]][A-Z][a-z]")


def money_column(label: str) -> ColumnUnit | None:
    """A header cell that names a price, a cost or a currency: its column is money, in
    the currency it names (none when it names none) and per what it says ("/month")."""
    if len(label) > MAX_MONEY_HEADER or _GLUED_WORDS.search(label):
        return None  # cells that ran together ("Price (USD/month)GPU hours"): no one column
    currency = _HEADER_CURRENCY.search(label)
    if not _MONEY_WORD.search(label) and currency is None:
        return None
    code = None
    if currency is not None:
        code = currency_code(currency["sign"] or currency["code"])
    per = _HEADER_PER.search(label)
    qualifier = None
    if per is not None:
        word = (per["per"] or per["adverb"]).lower()
        word = {
            "annual": "year",
            "annually": "year",
            "yearly": "year",
            "monthly": "month",
            "weekly": "week",
            "daily": "day",
            "hourly": "hour",
            "annum": "year",
        }.get(word, word)
        qualifier = per_qualifier(word)
    return ColumnUnit(NumberKind.MONEY, None, qualifier, code)


def bare_values(line: str, start: int, end: int) -> list[BareValue]:
    """The bare numbers of line[start:end] when that text holds nothing else."""
    if not _VALUES.fullmatch(line, start, end):
        return []
    if note := _NOTE_AT_END.search(line, start, end):
        end = note.start()  # "500 (resets every 30 days)": the note's numbers are its own
    return _values_in(line, start, end)


def _values_in(line: str, start: int, end: int) -> list[BareValue]:
    out = []
    for m in _ONE_VALUE.finditer(line, start, end):
        if m["per"]:
            qualifier: str | None = per_qualifier(m["per"])
        elif m["qual"]:
            qualifier = "about" if m["qual"] == "~" else m["qual"].lower()
        else:
            qualifier = "at least" if m["plus"] else None
        out.append(
            BareValue(
                m.start("figure"),
                m.end("figure"),
                m["num"],
                m["scale"],
                m["num2"],
                m["scale2"],
                qualifier,
            )
        )
    return out


def row_cells(
    line: str, columns: list[ColumnUnit | None] | None
) -> Iterator[tuple[BareValue, ColumnUnit, str | None]]:
    """A table row's bare numbers, each with the unit its column's header names or, for
    a column that names none, the one the row's label (its first cell) names; and the
    label, when it gave the unit (the row's own words for what it counts)."""
    spans = cells(line)
    if len(spans) < 2:
        return
    if columns is not None and len(columns) != len(spans):
        columns = None
    label = line[spans[0][0] : spans[0][1]].strip()
    by_label = None if re.search(r"\d", label) else label_unit(label)
    for k, (a, b) in enumerate(spans):
        column = columns[k] if columns is not None else None
        unit = column or (by_label if k > 0 else None)
        if unit is None:
            continue
        for value in bare_values(line, a, b):
            yield value, unit, (label if column is None else None)


def labelled_values(
    line: str, marked: bool = True
) -> tuple[str, ColumnUnit, list[BareValue]] | None:
    """A line that is a label and its bare values ("Requests: 20/min"; not `marked`: with
    no colon or dash between, "Writes 20,000 / day"): the label, the unit it names and
    the values; None for any other line."""
    m = (_LABEL_LINE if marked else _BARE_LABEL_LINE).match(line)
    if m is None:
        return None
    unit = label_unit(m["label"].strip(), singular=False)  # not "Message: 404"
    if unit is None:
        return None
    values = bare_values(line, m.end(), len(line))
    return (m["label"].strip(), unit, values) if values else None


@dataclass(frozen=True, slots=True)
class JoinedTable:
    """A table whose cells ran together, and the unit its second column names."""

    unit: ColumnUnit | None


def joined_header(line: str) -> JoinedTable | None:
    """The table that a line heads whose cells ran together ("PlanCalls / day"), or
    None."""
    if len(line) > 80 or (m := _JOINED_HEADER.fullmatch(line.strip())) is None:
        return None
    if _GLUED_WORDS.search(m["second"]):
        return None  # more than two columns ran together: their numbers cannot be told apart
    return JoinedTable(label_unit(m["second"].strip()))


def joined_row(line: str) -> tuple[str, int] | None:
    """A row of such a table: its label and where its values begin ("Free100")."""
    m = _JOINED_ROW.fullmatch(line.strip())
    if m is None:
        return None
    return m["label"].strip(), len(line) - len(line.lstrip()) + m.start("values")


def joined_words(line: str) -> bool:
    """A row of such a table that holds no figure ("EnterpriseUnlimited")."""
    return bool(_JOINED_WORDS.fullmatch(line.strip()))


def counted_heading(line: str) -> str | None:
    """What a line that heads a flattened table's rows counts: the plural after its
    "maximum", "number of" or "total" ("MAXIMUM CREDITS FOR TUITION AWARD" -> "credits");
    None for any other line (a sentence, a long line, a noun that counts nothing)."""
    if len(line) > 120 or line.rstrip()[-1:] in ".!?:;," or not _HEADING_WORDS.search(line):
        return None
    m = _COUNTED_HEADING.search(line)
    if m is None:
        return None
    words = list(takewhile(lambda w: w.lower() not in NOT_NOUNS, m["words"].split()))
    while words and words[0].lower() in FREQUENCY_WORDS:
        words = words[1:]  # "Maximum monthly builds": how often is the rows' rate
    last = next((k for k in reversed(range(len(words))) if plural_level(words[k]) == PLURAL), -1)
    if last < 0 or words[last].lower() in NOT_COUNTED:
        return None  # "Maximum award amount", "Total costs"
    return " ".join(words[: last + 1]).lower()  # "MAXIMUM TRIPS FUNDED": trips


def bare_rates(line: str) -> Iterator[BareValue]:
    """The bare rates of a row ("20 per year", "5/day"): a number and its per-what, a
    time, with no noun of its own."""
    for m in _BARE_RATE.finditer(line):
        per = PER_WORDS.get(m["per"].lower())
        if per is None:
            continue
        yield BareValue(
            m.start("figure"), m.end("figure"), m["num"], m["scale"], None, None, f"per {per}"
        )


# A stat card: a figure alone on its line, its label on the next ("45" / "paid seats")
_CARD_FIGURE = re.compile(rf"[~≈]?(?:[$€£])?(?:{NUM})(?:\s?(?:[kmb]|million|billion))?\+?%?", re.I)


_CARD_LABEL = re.compile(r"[A-Za-z][\w’'-]*(?:\s[A-Za-z][\w’'-]*){0,4}")


def _step(line: str) -> bool:
    """A numbered list's step, alone on its line ("1", "12")."""
    return len(line) <= 2 and line.isascii() and line.isdigit()


def stat_cards(sentences: list[str]) -> Iterable[str]:
    """The sentences, a stat card's figure line joined to its label line; not a numbered
    list's steps, each number alone on its line before its heading ("1" / "Sign up")."""
    steps = {int(s) for s in sentences if _step(s)}
    k = 0
    while k < len(sentences):
        line = sentences[k]
        if (
            k + 1 < len(sentences)
            and len(line) < 16
            and _CARD_FIGURE.fullmatch(line)
            and _CARD_LABEL.fullmatch(sentences[k + 1])
            and not (_step(line) and {int(line) - 1, int(line) + 1} & steps)
        ):
            yield f"{line} {sentences[k + 1]}"
            k += 2
            continue
        yield line
        k += 1


def in_cells(
    row: str, numbers: list[QuotedNumber], columns: list[ColumnUnit | None] | None
) -> list[QuotedNumber]:
    """A table row's figures, with its bare numbers read in their columns' units or in
    the unit its label names."""
    added = [
        (value.start, figure)
        for value, unit, label in row_cells(row, columns)
        if (figure := _bare_figure(row, value, unit, label, "table-column")) is not None
    ]
    return _placed(row, numbers, added)


def under_heading(
    row: str, numbers: list[QuotedNumber], heading: str
) -> tuple[list[QuotedNumber], str | None]:
    """A flattened table's row, with its bare rates counting what its header line names
    ("20 per year" under "MAXIMUM CREDITS"); the heading ends with the first row that
    holds none."""
    read = [
        (at, at + len(n.raw)) for n in numbers if n.rule != SCALED and (at := row.find(n.raw)) >= 0
    ]
    unit = ColumnUnit(NumberKind.COUNT, heading)
    added = [
        (value.start, figure)
        for value in bare_rates(row)
        if not any(s <= value.start < e for s, e in read)
        and (figure := _bare_figure(row, value, unit, None, "table-heading")) is not None
    ]
    return _placed(row, numbers, added), (heading if added else None)


def after_label(line: str, numbers: list[QuotedNumber], marked: bool = True) -> list[QuotedNumber]:
    """A line's figures, with the bare numbers after its label read in the unit the label
    names ("Requests: 20/min"; "Writes 20,000 / day", not `marked`)."""
    labelled = labelled_values(line, marked)
    if labelled is None:
        return numbers
    label, unit, values = labelled
    added = [
        (value.start, figure)
        for value in values
        if (figure := _bare_figure(line, value, unit, label, "label")) is not None
    ]
    return _placed(line, numbers, added)


def in_joined_row(
    row: str,
    label: str,
    at: int,
    column: ColumnUnit | None,
    today: date,
    named: frozenset[int],
) -> list[QuotedNumber]:
    """A row of a table whose cells ran together ("Requests20/min"): the figures of its
    values, the bare ones in the unit of their column or else of the row's label."""
    numbers, _ = numbers_in(row[at:], today, named)
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
        if (figure := _bare_figure(row, value, unit, None if column else label, "joined-row"))
        is not None
    ]
    return _placed(row, numbers, added)


# The kinds of figure a subject names (a date's or a duration's names none)
_NAMED_KINDS = frozenset(
    {NumberKind.MONEY, NumberKind.PERCENT, NumberKind.COUNT, NumberKind.NUMBER}
)


def _bare_figure(
    line: str, value: BareValue, unit: ColumnUnit, label: str | None, rule: str
) -> QuotedNumber | None:
    """A bare number read in the unit its column or label gives."""
    if is_year(value.num, value.scale):
        return None
    first = value_of(value.num, value.scale)
    last = value_of(value.num2, value.scale2 or value.scale) if value.num2 else None
    if first is None or (last is not None and last <= first):
        return None
    qualifier = unit.qualifier or value.qualifier
    raw = line[value.start : value.end]
    subject = label if unit.kind in _NAMED_KINDS else None
    return QuotedNumber(
        unit.kind,
        first,
        raw,
        line,
        last,
        unit.unit,
        unit.currency,
        qualifier,
        subject=subject,
        rule=rule,
    )


def _placed(
    line: str, numbers: list[QuotedNumber], added: list[tuple[int, QuotedNumber]]
) -> list[QuotedNumber]:
    """The figures the grammar read and those added, in reading order: each where its
    raw first stands in the line; an added figure the grammar read already is dropped."""
    if not added:
        return numbers
    added_raws = {n.raw for _, n in added}
    # a scaled number with no unit gives way to the reading that gives it one
    numbers = [n for n in numbers if n.rule != SCALED or n.raw not in added_raws]
    read = {n.raw for n in numbers}
    placed = [(line.find(n.raw), n) for n in numbers]
    placed += [(at, n) for at, n in added if n.raw not in read]
    return [n for _, n in sorted(placed, key=lambda p: p[0])]


# A table flattened to lines of words and numbers: a header line, then rows of a label and
# its bare numbers ("Plan CI minutes limit Max duration" / "Free 400 50,000"). The header
# names one unit for every column, or as many units as the rows have numbers, in order.
_FLAT_VALUE = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s?[kKmM]\b)?\+?"
_FLAT_ROW = re.compile(
    r"\s*(?:[-*•·]\s*)?(?P<label>[A-Za-z][A-Za-z0-9 .&'’()+/-]{0,40}?)"
    rf"\s+(?P<values>{_FLAT_VALUE}(?:\s+{_FLAT_VALUE})*)\s*"
)
_NOTE_IN_HEADER = re.compile(r"\([^()]*\)")
_RATE_PHRASE = re.compile(r"[A-Za-z][A-Za-z-]*\s*(?:/|\bper\s)\s*[A-Za-z]+")
_HEADER_WORD = re.compile(r"[A-Za-z][A-Za-z-]*")


@dataclass(frozen=True, slots=True)
class FlatTable:
    """A flattened table's header: the unit of each of its rows' numbers."""

    units: tuple[ColumnUnit, ...]


def flat_header(line: str) -> list[ColumnUnit] | None:
    """The units a line names that may head a flattened table's rows: none when it is a
    sentence or holds figures outside its notes in brackets."""
    if len(line) > 200 or line.rstrip()[-1:] in ".!?:;,":
        return None
    text = _NOTE_IN_HEADER.sub(" ", line)
    if re.search(r"\d", text):
        return None
    units: list[ColumnUnit] = []
    for m in _RATE_PHRASE.finditer(text):  # "Requests per day": one unit, its rate
        if (unit := label_unit(m.group())) is not None:
            units.append(unit)
    text = _RATE_PHRASE.sub(" ", text)
    for m in _HEADER_WORD.finditer(text):
        if (unit := label_unit(m.group(), singular=False)) is not None:
            units.append(unit)
    return units or None


def flat_table(header: str, row: str, after: str = "") -> FlatTable | None:
    """The table a line heads when the next is its first row: as many numbers as the
    header names units, or any number of them when it names one; a row of one number
    only when the line `after` it is one too. None for other lines."""
    values = flat_values(row)
    if values is None or (units := flat_header(header)) is None:
        return None
    if len(values) == 1 and (len(units) != 1 or _one_value(after) is None):
        return None
    if len(units) == 1:
        return FlatTable(tuple(units) * len(values))
    return FlatTable(tuple(units)) if len(units) == len(values) else None


def _one_value(line: str) -> BareValue | None:
    values = flat_values(line)
    return values[0] if values is not None and len(values) == 1 else None


def flat_values(line: str) -> list[BareValue] | None:
    """A flattened table's row: its label's bare numbers, or None."""
    m = _FLAT_ROW.fullmatch(line)
    if m is None:
        return None
    return _values_in(line, m.start("values"), m.end("values")) or None


def in_flat_row(
    row: str, numbers: list[QuotedNumber], table: FlatTable
) -> list[QuotedNumber] | None:
    """A flattened table's row, each bare number in its column's unit; None when the line
    is no row of it (another count of numbers): the table has ended."""
    values = flat_values(row)
    if values is None or len(values) != len(table.units):
        return None
    added = [
        (value.start, figure)
        for value, unit in zip(values, table.units, strict=True)
        if (figure := _bare_figure(row, value, unit, None, "flat-table")) is not None
    ]
    return _placed(row, numbers, added)


# A table whose cells all ran together when its page became text: a header of capitalised
# words joined ("AmountCreditsBest For"), then rows whose numbers are one run of digits
# ("$5500Testing": $5, 500 credits). The run splits where each piece is a number as pages
# write them (no leading zero, thousands grouped by threes), when only one way does.
_GLUED_CUT = re.compile(r"(?<=[a-z)])(?=[A-Z])")
_GLUED_COLUMN = re.compile(r"[A-Z][A-Za-z/&()-]*(?: [A-Za-z/&()-]+){0,2}")
_GLUED_ROW = re.compile(
    r"(?P<label>[A-Za-z][A-Za-z ()&'-]*?[a-z)])?(?P<sign>[$€£])?(?P<run>\d[\d,.]*\d|\d)"
    r"(?P<rest>[A-Z][A-Za-z ()&'/-]*)?"
)
_PIECE = re.compile(r"(?:[1-9]\d{0,2}(?:,\d{3})+|[1-9]\d*|0(?=\.))(?:\.\d{1,2})?")


@dataclass(frozen=True, slots=True)
class GluedTable:
    """A table whose cells ran together: its columns' names."""

    columns: tuple[str, ...]


_NOT_A_HEADER = re.compile(r"[\d.:;,!?]")  # a header of words has no figure, no sentence


def glued_header(line: str, first_row: str) -> GluedTable | None:
    """The header of such a table (three columns at least) whose first row splits into
    its columns one way, or None: a header cut in the wrong places ("Max perPage") is no
    header to read rows by."""
    line = line.strip()
    if len(line) > 80 or _NOT_A_HEADER.search(line):
        return None
    columns = _GLUED_CUT.split(line)
    if len(columns) < 3 or not all(_GLUED_COLUMN.fullmatch(c) for c in columns):
        return None
    table = GluedTable(tuple(columns))
    return table if _pieces(first_row.strip(), table) is not None else None


def _pieces(row: str, table: GluedTable) -> tuple[re.Match[str], list[str]] | None:
    """A row's parts and its run of digits split into its columns' numbers, or None."""
    m = _GLUED_ROW.fullmatch(row)
    if m is None:
        return None
    wanted = len(table.columns) - (1 if m["label"] else 0) - (1 if m["rest"] else 0)
    pieces = _split_run(m["run"], wanted) if wanted >= 1 else None
    return (m, pieces) if pieces is not None else None


def in_glued_row(
    row: str, numbers: list[QuotedNumber], table: GluedTable
) -> list[QuotedNumber] | None:
    """A row of such a table: its run of digits read as the numbers of its columns, each
    in the unit its column names (the first in the currency of its sign); the grammar's
    reading of the run gives way. None when the line is no row of the table."""
    if _GLUED_ROW.fullmatch(row.strip()) is None:
        return None
    parts = _pieces(row.strip(), table)
    if parts is None or len(parts[1]) < 2:
        return numbers  # one number, or a run that splits no one way: read as written
    m, pieces = parts
    at = len(row) - len(row.lstrip())
    first = 1 if m["label"] else 0
    start = at + m.start("run")
    added: list[tuple[int, QuotedNumber]] = []
    offset = start
    for k, piece in enumerate(pieces):
        column = table.columns[first + k]
        if k == 0 and m["sign"]:
            raw = m["sign"] + piece
            money = QuotedNumber(
                NumberKind.MONEY,
                value_of(piece, None),
                raw,
                row,
                currency=currency_code(m["sign"]),
                rule="glued-table",
            )
            added.append((offset - 1, money))
        elif (unit := label_unit(column)) is not None:
            value = BareValue(offset, offset + len(piece), piece, None, None, None, None)
            if (figure := _bare_figure(row, value, unit, None, "glued-table")) is not None:
                added.append((offset, figure))
        offset += len(piece)
    run_from, run_to = at + m.start("sign" if m["sign"] else "run"), at + m.end("run")
    kept = [n for n in numbers if not _within(row, n.raw, run_from, run_to)]
    return [n for _, n in sorted([(row.find(n.raw), n) for n in kept] + added, key=lambda p: p[0])]


def _within(row: str, raw: str, start: int, end: int) -> bool:
    at = row.find(raw)
    return at >= 0 and at < end and start < at + len(raw)


def _split_run(run: str, parts: int) -> list[str] | None:
    """The one way a run of digits splits into so many numbers as pages write them; None
    when there is none or more than one."""
    found: list[list[str]] = []

    def cut(rest: str, left: int, pieces: list[str]) -> None:
        if len(found) > 1:
            return
        if left == 1:
            if _PIECE.fullmatch(rest):
                found.append([*pieces, rest])
            return
        for k in range(1, len(rest)):
            if _PIECE.fullmatch(rest[:k]):
                cut(rest[k:], left - 1, [*pieces, rest[:k]])

    cut(run, parts, [])
    return found[0] if len(found) == 1 else None
