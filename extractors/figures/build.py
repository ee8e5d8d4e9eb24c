"""A rule's match made a figure: its value, unit, currency and qualifier, or nothing
where the match is a name, a score, a status code or a decade."""

from __future__ import annotations

import re
from datetime import date

from extractors.figures.counts import MORE, spelled_acronym, unit_noun
from extractors.figures.dates import (
    DATES,
    MAY_THE_VERB,
    date_range,
    lean,
    month_end,
    parse_date,
    slashed_date,
    whole_month,
)
from extractors.figures.grammar import (
    AGE,
    GLUED,
    GROUPED,
    NAMED,
    OPENING,
    PLURAL_AFTER,
    SIZE,
    FoldedMatch,
    fold_case,
)
from extractors.figures.ranges import changed_from
from extractors.figures.words import (
    SAME_BOUND,
    YEARS,
    group_of,
    http_status,
    in_name,
    is_year,
    value_of,
)
from extractors.lexicon import (
    AMBIGUOUS_WORDS,
    NOT_NOUNS,
    PER_WORDS,
    SIZE_TIMES,
    currency_code,
)
from extractors.values import NumberKind, QuotedNumber


def build_figure(
    kind: NumberKind,
    m: re.Match[str] | FoldedMatch,
    sentence: str,
    today: date,
    named: frozenset[int] = frozenset(),
    rule: str | None = None,
    page_year: int | None = None,
) -> QuotedNumber | None:
    """The figure a rule's match reads, named by the rule; None where it is none.
    `page_year`: the one year the page names, which a year-less date takes."""
    number = _figure(kind, m, sentence, today, named, page_year)
    if number is not None and rule:
        # made here a moment ago and no one else's yet: named in place, not copied
        object.__setattr__(number, "rule", rule)
    return number


def _figure(
    kind: NumberKind,
    m: re.Match[str] | FoldedMatch,
    sentence: str,
    today: date,
    named: frozenset[int],
    page_year: int | None,
) -> QuotedNumber | None:
    raw = group_of(m, 0).strip()
    g = m.groupdict()
    if kind is NumberKind.DATE and g.get("quarter"):
        if raw[0] != "Q":
            return None  # "q4 2024" in lower case is rarely a quarter
        first_month = 3 * int(group_of(m, "quarter")) - 2
        first = date(int(group_of(m, "q_y")), first_month, 1)
        last = month_end(first.year, first_month + 2)
        return QuotedNumber(kind, None, raw, sentence, date_from=first, date_to=last)
    if kind is NumberKind.DATE and g.get("my_m"):
        return whole_month(raw, group_of(m, "my_m"), group_of(m, "my_y"), sentence)
    if kind is NumberKind.DATE and g.get("dots"):
        day_of, month_of, year_of = (int(part) for part in group_of(m, "dots").split("."))
        try:
            dotted = date(year_of, month_of, day_of)
        except ValueError:
            return None
        return QuotedNumber(kind, None, raw, sentence, date_from=dotted, date_to=dotted)
    if kind is NumberKind.DATE and g.get("sy"):
        return slashed_date(raw, group_of(m, "sa"), group_of(m, "sb"), group_of(m, "sy"), sentence)
    if kind in DATES and MAY_THE_VERB.search(raw) and not YEARS.search(raw):
        return None  # "teams of up to 4 may apply": the verb; the month has its capital
    if kind is NumberKind.DATE:
        leaning = lean(sentence[: m.start()])
        day = parse_date(
            group_of(m, 0),
            today,
            default_year=page_year if not leaning else None,
            lean=leaning,
            named=named,
        )
        if day is None:
            return None
        return QuotedNumber(kind, None, raw, sentence, date_from=day, date_to=day)
    if kind is NumberKind.DATE_RANGE:
        return date_range(m, raw, sentence, today, lean(sentence[: m.start()]), named, page_year)
    num = group_of(m, "num")
    # "$10-20 million": a scale written once, after the range, scales both ends
    grouped = kind is not NumberKind.PERCENT  # "€2.499,00", "40.000 Besucher"; not "2.315%"
    # (not "$500,000 to $1 million": an end written out in full is whole)
    shared_scale = g.get("scale2") if g.get("num2") and "," not in num else None
    value = value_of(num, g.get("scale") or shared_scale, grouped)
    if value is None:
        return None
    value_end = (
        value_of(g["num2"], g.get("scale2") or g.get("scale"), grouped) if g.get("num2") else None
    )
    bound = (g.get("qual") or "").lower()
    qualifier: str | None = SAME_BOUND.get(bound, bound) or None
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
        cur = group_of(m, "cur").strip()
        currency = currency_code(cur) or cur.upper()
        unit = per.lower() if per else None
        return QuotedNumber(kind, value, raw, sentence, value_end, unit, currency, qualifier)
    if kind is NumberKind.PERCENT:
        if g.get("neg"):
            value, value_end = -value, (-value_end if value_end is not None else None)
        return QuotedNumber(kind, value, raw, sentence, value_end, "%", None, qualifier)
    sized = kind is NumberKind.NUMBER and _SIZE_UNIT.match((g.get("unit") or "").lower())
    glued = GLUED.search(sentence, max(0, m.start() - 1), m.start())
    if sized and glued and not GROUPED.match(sentence, m.start()):
        return None  # "A100-80GB"
    if " " in num and in_name(sentence, m.start()):
        return None  # "iPhone 15 128GB": a name's number, then a figure, not "15 128"
    if not g.get("qual") and not sized and in_name(sentence, m.start()):
        return None  # "Windows 11 users", "RTX 4090 GPUs", "Python 3.11 support": names
    if kind is NumberKind.DURATION:
        if AGE.match(sentence, m.span()[1]):
            return None  # "a 43-year-old": an age, not a length of time
        written = fold_case(group_of(m, "unit"))
        if written in _LOWER_ONLY and not group_of(m, "unit").islower():
            return None  # "3D", "5,5 Mo": a dimension, a French size
        if written == "s" and _DECADE.search(sentence, 0, m.start()):
            return None  # "the 1990s", "in their 20s": a decade or an age
        unit = PER_WORDS[written]
        return QuotedNumber(kind, value, raw, sentence, value_end, unit, None, qualifier)
    if "unit" not in g:  # a scaled number: "a 128K context window"
        return QuotedNumber(kind, value, raw, sentence, value_end, None, None, qualifier)
    unit = group_of(m, "unit")
    if sized and not g.get("per") and (times := _RUN_INTO.match(sentence, m.span()[1])):
        unit, raw = unit + times[0], raw + times[0]  # "100 GB-HoursFirst 1,000 GB-Hours"
    if kind is NumberKind.COUNT:
        little = unit.lower() in NOT_NOUNS and unit.lower() not in MORE
        if little and not spelled_acronym(unit, sentence, m.start("unit") + len(unit)):
            return None
        if is_year(num, g.get("scale")):
            return None
        if (
            unit[0].isupper()
            and not g.get("times")
            and sentence[m.start("unit") - 1] != "-"  # "the 8-GPU node": joined, no title
            and NAMED.search(sentence, max(0, m.start() - 40), m.start())
            and not (
                OPENING.match(sentence, 0, m.start())
                and PLURAL_AFTER.match(sentence, m.start("unit"))
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
        if value_end is not None and value_end <= value and not changed_from(sentence, m.start()):
            return None  # "a 1-1 draw", "won 3-2": a score, not a range
        if http_status(num, sentence, m.start(), m.span()[1]):
            return None
        if _RESOURCE_TIME.fullmatch(unit):  # "5,000 GPU-hours": a measure, as written
            return QuotedNumber(
                NumberKind.NUMBER, value, raw, sentence, value_end, unit, None, qualifier
            )
        unit = unit.lower()
    return QuotedNumber(kind, value, raw, sentence, value_end, unit, None, qualifier)


# A resource used for a time, as allocations and bills write it: "core-hours", "OCPU-hrs"
_RESOURCE_TIME = re.compile(
    rf"(?:gpu|tpu|cpu|vcpu|ocpu|core|node|machine|instance|server|compute|[kmgtp]i?b)s?"
    rf"-(?:{'|'.join(SIZE_TIMES)}|h|days?)",
    re.I,
)


# Before a number glued to an "s" that makes it a decade or an age, not seconds.
_DECADE = re.compile(r"(?:\b(?:the|their|his|her|early|late|mid|in)\s+|['’]|mid-|\d)$|\d\.?$", re.I)


_SIZE_UNIT = re.compile(SIZE)


# A size's time run into the next cell when its table became text ("GB-HoursFirst")
_RUN_INTO = re.compile(
    rf"-(?:{'|'.join(w for t in SIZE_TIMES for w in (t, t.capitalize(), t.upper()))})"
    r"(?=[A-Z$€£\d])"
)


_LOWER_ONLY = frozenset({"d", "mo", "mos"})  # time units only in lower case
