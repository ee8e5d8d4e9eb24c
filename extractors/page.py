"""One page in, everything the pipeline reads from it out."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from extractors.claims import fold
from extractors.numbers import extract_numbers
from extractors.statuses import extract_statuses
from extractors.text import extract_main_text
from extractors.values import QuotedNumber, StatusMention

# Bump when any extractor changes what it reads; `evidence reextract` re-runs older pages.
EXTRACTOR_VERSION = "2"


@dataclass(frozen=True, slots=True)
class PageExtraction:
    title: str | None
    text: str
    method: str
    numbers: tuple[QuotedNumber, ...]
    statuses: tuple[StatusMention, ...]
    folded: str = ""  # the text folded for matching (extractors.claims.fold), made once


def extract_page(html: str, url: str | None, fetched_at: datetime) -> PageExtraction:
    """Main text, quoted numbers and statuses of one page (dates resolved against fetched_at)."""
    page = extract_main_text(html, url)
    folded = fold(page.text)  # for the status phrases here and the claims after
    return PageExtraction(
        page.title,
        page.text,
        page.method,
        tuple(extract_numbers(page.text, fetched_at)),
        tuple(extract_statuses(page.text, folded)),
        folded,
    )
