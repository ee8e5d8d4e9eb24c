"""Dates: a written date read against the page's date when it has no year, and ranges of
days ("June 1-30, 2027", "15-20 July")."""

from __future__ import annotations

import re
from datetime import date, timedelta

from extractors.figures.grammar import DAY, YEAR, FoldedMatch
from extractors.figures.words import group_of
from extractors.lexicon import (
    FUTURE_WORDS,
    MONTHS,
    PAST_WORDS,
)
from extractors.values import NumberKind, QuotedNumber


def after_anchor(anchor: date, day: date) -> date | None:
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


DATES = (NumberKind.DATE, NumberKind.DATE_RANGE)


MAY_THE_VERB = re.compile(r"\d(?:st|nd|rd|th)?\s+may\b")  # lower case, after a number: the verb


def month_end(year: int, month: int) -> date:
    return date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)


_A_YEAR = re.compile(rf"{YEAR}|[’']\d\d")


def full_year(written: str) -> int:
    """A year as written: "2026", or "'26" in this century."""
    return int(written) if written[0].isdigit() else 2000 + int(written[1:])


def whole_month(raw: str, month: str, year: str, sentence: str) -> QuotedNumber | None:
    """A month of a year, first to last day ("March 2027"); "may 2027" in lower case is
    more often a verb than a month."""
    if not raw[0].isupper():
        return None
    number = MONTHS[month.lower().rstrip(".")]
    whole = full_year(year)
    first = date(whole, number, 1)
    last = month_end(whole, number)
    return QuotedNumber(NumberKind.DATE, None, raw, sentence, date_from=first, date_to=last)


def slashed_date(raw: str, a: str, b: str, year: str, sentence: str) -> QuotedNumber | None:
    """ "05/05/2024", "6/23/15": month first, as US pages write it, unless the first is no
    month ("23/06/2015"); a two-digit year in this century."""
    first, second, y = int(a), int(b), int(year)
    month, day = (second, first) if first > 12 else (first, second)
    try:
        when = date(y if y >= 100 else 2000 + y, month, day)
    except ValueError:
        return None
    return QuotedNumber(NumberKind.DATE, None, raw, sentence, date_from=when, date_to=when)


def lean(before: str) -> int:
    """+1 when the words before a date point forward, -1 when back, 0 when neither."""
    words = re.findall(r"[a-z]+", before.lower())[-4:]
    if (words and words[-1] in FUTURE_WORDS) or "will" in words:
        return 1  # "until 15 January", "will be terminated on Dec. 9"
    words = words[-2:]
    if any(w in PAST_WORDS or (w.endswith("ed") and len(w) > 3) for w in words):
        return -1
    return 0


NEAR_DAYS = 240  # two readings of a year-less date this near the page's date are both fair


def resolve_year(
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


def parse_date(
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
        year = next((full_year(w) for w in words if _A_YEAR.fullmatch(w)), None)
        if month is None or day is None:
            return None
        if year or default_year:
            return date(year or default_year or today.year, month, day)
        return resolve_year(month, day, today, lean, named)
    except ValueError:
        return None


def date_range(
    m: re.Match[str] | FoldedMatch,
    raw: str,
    sentence: str,
    today: date,
    lean: int = 0,
    named: frozenset[int] = frozenset(),
    page_year: int | None = None,
) -> QuotedNumber | None:
    a = group_of(m, "a")
    if m.group("bday") is not None:  # "Oct. 5-7", "June 1-30, 2027": the month comes first
        if re.fullmatch(DAY, a.strip(), re.I):
            return None  # two bare numbers: a score or a range of something else
        year = m.group("byear")
        start = parse_date(
            a, today, default_year=int(year) if year else None, lean=lean, named=named
        )
        day = int(re.sub(r"\D", "", group_of(m, "bday")))
        if start is None or not start.day < day <= 31:
            return None
        try:
            last = start.replace(day=day)
        except ValueError:
            return None
        return QuotedNumber(
            NumberKind.DATE_RANGE, None, raw, sentence, date_from=start, date_to=last
        )
    end = parse_date(
        group_of(m, "b"), today, default_year=None if lean else page_year, lean=lean, named=named
    )
    if end is None:
        return None
    if re.fullmatch(DAY, a.strip(), re.I):  # "15-20 July 2026": the month comes from the end
        start = (
            date(end.year, end.month, int(re.sub(r"\D", "", a)))
            if int(re.sub(r"\D", "", a)) <= 31
            else None
        )
    else:
        start = parse_date(a, today, default_year=end.year)
    if start is None:
        return None
    return QuotedNumber(NumberKind.DATE_RANGE, None, raw, sentence, date_from=start, date_to=end)
