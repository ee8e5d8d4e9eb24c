"""A claim's value on a page, and status claims checked by the status their page states.

A claim watches one figure (the first of its quote, or the one `figure: N` names) or one
status. Its value on a page is that figure as the page gives it (the quote's own when
`confirmed`, the one found in its place when `changed`), or the status.

A status claim is checked as any quote is; when the quote is not on the page, the page
is read for what it states now about the claim's subject (its record's title and the
quote's words), by the same reader as the page's statuses: another canonical status than
the claim's makes the check `changed`, with the status found. A page that states none
about it, or several it cannot choose between, keeps the check `absent`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from extractors.claims import NormalizedText, _quote, match_claim
from extractors.moves import figure_words, spoken
from extractors.numbers import extract_numbers
from extractors.statuses import extract_statuses, stated_about
from extractors.values import CheckOutcome, ClaimCheck, NumberKind, Status


@dataclass(frozen=True, slots=True)
class QuoteFigure:
    """A figure of a quote, as the claim matching reads it."""

    value: float
    currency: str | None
    percent: bool


@dataclass(frozen=True, slots=True)
class ClaimValue:
    """A claim's value on one page: a figure (value, unit, currency, as written) or a
    status."""

    value: float | None = None
    unit: str | None = None
    currency: str | None = None
    status: Status | None = None
    text: str | None = None


def quote_figures(quote: str) -> tuple[QuoteFigure, ...]:
    """The figures of a quote (numbers in names left out), in reading order."""
    return tuple(QuoteFigure(f.value, f.currency, f.percent) for f in _quote(quote).figures)


def quote_value(quote: str, figure: int | None, now: datetime) -> ClaimValue | None:
    """The watched figure as the quote itself gives it (its unit and currency are the
    claim's own), or None when the quote has none."""
    if figure in (None, 1) and (date := _date_written(quote, now)) is not None:
        return date
    figures = quote_figures(quote)
    index = (figure or 1) - 1
    if index >= len(figures):
        return None
    return _written(quote, figures[index].value, figures[index].currency, now) or ClaimValue(
        value=figures[index].value,
        currency=figures[index].currency,
        unit="%" if figures[index].percent else None,
    )


def claim_value(
    quote: str,
    check: ClaimCheck,
    now: datetime,
    figure: int | None = None,
    status: Status | None = None,
    page: str | None = None,
) -> ClaimValue | None:
    """The claim's value on the page the check was made on; None when the page gives
    none (an absent quote). `page`: the page's text, for a row of a table, whose figures
    take their unit and currency from the table's header ("Price (USD/month)")."""
    if status is not None:
        if check.outcome is CheckOutcome.CONFIRMED:
            return ClaimValue(status=status, text=check.found_text or quote)
        if check.outcome is CheckOutcome.CHANGED and check.found_status is not None:
            return ClaimValue(status=check.found_status, text=check.found_text)
        return None
    if check.outcome is CheckOutcome.ABSENT:
        return None
    if figure in (None, 1) and _date_written(quote, now) is not None:
        # a date or a range of dates is its words: "July 15 to August 2, 2026"
        return _date_written(check.found_text or quote, now)
    figures = quote_figures(quote)
    index = (figure or 1) - 1
    if index >= len(figures) or index >= len(check.found_values):
        return None
    value = check.found_values[index]
    currency = figures[index].currency
    wording = check.found_text or quote
    row = table_context(page, wording) if page and "|" in wording else None
    if row is not None:  # its figures read under the table's header
        found = _written(
            row[0], value, currency, now, nth=_nth(figures, index), line=row[1], cell=True
        )
        if found is not None:
            return found
    return _written(wording, value, currency, now, nth=_nth(figures, index)) or ClaimValue(
        value=value, currency=currency, unit="%" if figures[index].percent else None
    )


def table_context(page: str, found: str) -> tuple[str, str] | None:
    """The lines of a table that a quoted row needs to be read as the table reads it: its
    first line (the header) and the line that holds the row, as one text; and that line.
    None when the wording stands in no table (no line of cells around it)."""
    at = page.find(found)
    if at < 0:
        return None
    lines = page.split("\n")
    offsets, total = [], 0
    for line in lines:
        offsets.append(total)
        total += len(line) + 1
    k = max(i for i, o in enumerate(offsets) if o <= at)
    first = k
    while first > 0 and "|" in lines[first - 1]:
        first -= 1
    if first == k or "|" not in lines[k]:
        return None
    head = [lines[first]] + [x for x in lines[first + 1 : k] if set(x) <= set("-|: ")]
    return "\n".join([*head, lines[k]]), lines[k]


def _date_written(text: str, now: datetime) -> ClaimValue | None:
    """The text's first figure when it is a date or a range of dates, as written (its
    value is its words: a moved end date is a moved value)."""
    first = next(iter(extract_numbers(text, now)), None)
    if first is None or first.kind not in (NumberKind.DATE, NumberKind.DATE_RANGE):
        return None
    return ClaimValue(text=figure_words(first))


def _nth(figures: tuple[QuoteFigure, ...], index: int) -> int:
    """How many figures before this one carry the same value (so that "$5 of $5" reads
    the right one)."""
    return sum(1 for f in figures[:index] if f.value == figures[index].value)


def _written(
    text: str,
    value: float,
    currency: str | None,
    now: datetime,
    nth: int = 0,
    line: str | None = None,
    cell: bool = False,
) -> ClaimValue | None:
    """The figure of `text` with this value, as the grammar reads it (its unit, currency
    and wording); `line`: only the figures of that line of the text; `cell`: a table's
    cell, said with the unit its header gives ("$29 per month")."""
    matches = [
        n
        for n in extract_numbers(text, now)
        if n.value is not None
        and abs(n.value - value) <= 1e-9 * max(1.0, abs(value))
        and (line is None or n.sentence == line)
    ]
    if len(matches) <= nth:
        return None
    n = matches[nth]
    return ClaimValue(
        value=value,
        unit=n.unit,
        currency=n.currency or currency,
        text=spoken(n) if cell else figure_words(n),
    )


def check_status_claim(
    quote: str,
    status: Status,
    check: ClaimCheck,
    page: NormalizedText | str,
    subject: str = "",
) -> ClaimCheck:
    """A status claim's check: when its quote is not on the page, `changed`, with the
    status found, when the page states another status about the claim's subject (the
    record's title, `subject`, and the quote's own words)."""
    if check.outcome is not CheckOutcome.ABSENT:
        return check
    text = page if isinstance(page, str) else page.original
    stated = stated_about(extract_statuses(text), f"{subject} {quote}")
    if stated is None or stated.status is status:
        return check
    return replace(
        check,
        outcome=CheckOutcome.CHANGED,
        found_text=_wording(stated.sentence, stated.phrase, quote),
        found_status=stated.status,
    )


def check_claim(
    quote: str, page: NormalizedText, status: Status | None = None, subject: str = ""
) -> ClaimCheck:
    """One claim checked on one page, the one way a refresh, `check` and `plan` check it:
    its quote, then for a status claim the status the page states about its subject (the
    record's title)."""
    check = match_claim(quote, page)
    if status is None:
        return check
    return check_status_claim(quote, status, check, page, subject)


def _wording(sentence: str, phrase: str, quote: str) -> str:
    """The page's wording of a status, as a quote to keep: its sentence, or where that
    runs long, the words that state the status."""
    if len(sentence) <= max(200, 4 * len(quote)):
        return sentence
    return phrase
