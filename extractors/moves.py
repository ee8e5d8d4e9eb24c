"""What moved between two wordings of a claim: its figures as written before and after
("500 GPU hours -> 300 GPU hours", "$10,000 -> $8,000"), for people to read."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time
from functools import lru_cache

from extractors.numbers import extract_numbers, name_numbers
from extractors.values import QuotedNumber

# A figure's rate ("per month", "/ year", "a week"): the figure is what comes before it.
_RATE = re.compile(r"\s*(?:/|\bper\s+|\ba\s+)[A-Za-z][A-Za-z-]*$", re.I)
_BARE = re.compile(r"\d+(?:[.,]\d+)*")


def figure_words(number: QuotedNumber) -> str:
    """The figure as the page wrote it, its rate left out."""
    raw = number.raw
    if number.rate:
        raw = _RATE.sub("", raw)
    return raw.strip()


_SIGNS = {"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹"}


def spoken(number: QuotedNumber) -> str:
    """A figure whose unit is not in its words (a table's cell, read under its header)
    as a person says it: "$29 per month", "40 GPU hours per month"."""
    words = figure_words(number)
    if number.currency and not any(c in words for c in "$€£¥₹") and number.currency not in words:
        sign = _SIGNS.get(number.currency)
        words = f"{sign}{words}" if sign else f"{words} {number.currency}"
    elif number.unit and number.unit.lower() not in words.lower():
        words = f"{words} {number.unit}"
    if number.qualifier and number.qualifier not in words:
        words = f"{words} {number.qualifier}"
    return words


def moved_figures(before: str, after: str, now: datetime) -> list[tuple[str, str]]:
    """Each figure of `before` that reads otherwise in `after`, paired in reading order;
    bare numbers (names left out) where the grammar reads no figure, or not as many."""
    return list(_moved_on(before, after, now.astimezone(UTC).date()))


@lru_cache(maxsize=4096)  # a desk or a site asks again for the same wordings
def _moved_on(before: str, after: str, day: date) -> tuple[tuple[str, str], ...]:
    """moved_figures on a day: a year-less date reads by the day, not the hour."""
    now = datetime.combine(day, time(), UTC)
    was = [figure_words(n) for n in extract_numbers(before, now)]
    is_ = [figure_words(n) for n in extract_numbers(after, now)]
    if was and len(was) == len(is_):
        pairs = tuple((a, b) for a, b in zip(was, is_, strict=True) if a != b)
        if pairs:
            return pairs
    was, is_ = bare_figures(before), bare_figures(after)
    if len(was) != len(is_):
        return ((", ".join(was), ", ".join(is_)),) if was != is_ else ()
    return tuple((a, b) for a, b in zip(was, is_, strict=True) if a != b)


def bare_figures(text: str) -> list[str]:
    """The numbers of `text` as written, those in names left out."""
    names = name_numbers(text)
    return [m.group() for m in _BARE.finditer(text) if m.start() not in names]
