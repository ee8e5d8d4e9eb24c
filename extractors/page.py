"""One page in, everything the pipeline reads from it out."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime

import htmldate

from extractors.claims import fold
from extractors.dates import page_dates
from extractors.numbers import MAX_FIGURES, extract_numbers
from extractors.statuses import MAX_HEADS, read_statuses
from extractors.text import extract_main_text, parse_html
from extractors.values import QuotedNumber, StatusMention

logging.getLogger("htmldate").setLevel(logging.CRITICAL)


@dataclass(frozen=True, slots=True)
class PageExtraction:
    title: str | None
    text: str
    method: str
    numbers: tuple[QuotedNumber, ...]
    statuses: tuple[StatusMention, ...]
    folded: str = ""  # the text folded for matching (extractors.claims.fold), made once
    published_on: date | None = None  # the page's own dates (extractors/dates.py)
    modified_on: date | None = None
    # What was left unread of a page that holds more than a page of prose does (its
    # reading is bounded by what it holds); None: all of it was read.
    read_partly: str | None = None


def _unmarked(step: str) -> None:
    pass


def extract_page(
    html: str, url: str | None, fetched_at: datetime, mark: Callable[[str], None] = _unmarked
) -> PageExtraction:
    """Main text, quoted numbers, statuses and the page's own dates (figures' dates
    resolved against fetched_at). `mark(step)` is called as each step ends (the caller
    times them: an extractor reads no clock)."""
    page = extract_main_text(html, url)
    folded = fold(page.text)  # for the status phrases here and the claims after
    mark("main text")
    published_on, modified_on = own_dates(html, page.text, fetched_at)
    mark("dates")
    # a date without its year takes the page's (its newest), as its readers did
    numbers = extract_numbers(page.text, fetched_at, modified_on or published_on)
    mark("figures")
    statuses = read_statuses(page.text)
    mark("statuses")
    unread = [f"figures past the first {MAX_FIGURES:,}"] if len(numbers) >= MAX_FIGURES else []
    if statuses.partly:
        unread.append(f"status words past the first {MAX_HEADS:,}")
    return PageExtraction(
        page.title,
        page.text,
        page.method,
        tuple(numbers),
        statuses.mentions,
        folded,
        published_on,
        modified_on,
        "; ".join(unread) or None,
    )


def own_dates(html: str, text: str, fetched_at: datetime) -> tuple[date | None, date | None]:
    """(published_on, modified_on): what the page says of itself."""
    published_on, modified_on = page_dates(html, text, fetched_at)
    if published_on is None and text:
        # htmldate looks further (bylines, URLs) at a cost of about a fifth of the
        # extraction (it parses the page again): asked only when the page's text and
        # metadata say nothing. (Handing it trafilatura's parse costs more: trafilatura
        # then copies the tree.)
        tree = parse_html(html)
        published_on = _published(tree, fetched_at) if tree is not None else None
    return published_on, modified_on


def _published(tree: object, fetched_at: datetime) -> date | None:
    try:
        found = htmldate.find_date(
            tree,
            original_date=True,
            extensive_search=False,
            outputformat="%Y-%m-%d",
            max_date=fetched_at.date().isoformat(),
        )
    except (ValueError, TypeError, RecursionError):
        return None
    try:
        return date.fromisoformat(found) if found else None
    except ValueError:
        return None
