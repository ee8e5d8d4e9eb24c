"""Quoted numbers: a small grammar for the figures a careful analyst quotes.

Each figure keeps its kind, unit, currency, qualifier and sentence, and the name of the
rule that read it. Model names and versions ("H100", "v5e-4", "GPT-4") and years used as
names ("NeurIPS 2026") are not figures; neither is a bare number with no unit, unless a
table's header, a row's label or the words before it give it one.

This module reads a page a sentence at a time and keeps what runs across sentences (a
table's header, a run of dates); the grammar is in extractors/figures/: its rules
(grammar.py), one sentence read by them (scan.py), the values and names they share
(words.py), dates, changes told "from ... to ..." (ranges.py), a match made a figure
(build.py), bare numbers given a unit by the figures beside them (bare.py), tables
(tables.py; cell_lines.py for those of one cell a line), and every number left that is
no closed class (open.py).
"""

from __future__ import annotations

from datetime import date, datetime

from extractors.figures.cell_lines import cell_tables
from extractors.figures.grammar import may_hold_figure
from extractors.figures.open import open_figures
from extractors.figures.scan import numbers_in
from extractors.figures.tables import (
    ColumnUnit,
    FlatTable,
    GluedTable,
    JoinedTable,
    after_label,
    cells,
    counted_heading,
    flat_table,
    glued_header,
    header_units,
    in_cells,
    in_flat_row,
    in_glued_row,
    in_joined_row,
    is_rule,
    joined_header,
    joined_row,
    joined_words,
    quota_named,
    section_row,
    stat_cards,
    under_heading,
)
from extractors.figures.words import YEARS, in_name, name_numbers, value_of
from extractors.sentences import split_sentences
from extractors.values import QuotedNumber

__all__ = [
    "MAX_FIGURES",
    "extract_numbers",
    "in_name",
    "name_numbers",
    "value_of",
]

MAX_FIGURES = 5000  # per page: a page of a million numbers is not a page of figures
MAX_STAT_LINE = 40  # characters: a label and its numbers with no mark between, no sentence
OPEN_UNITS = True  # every number a figure unless a closed class (extractors/figures/open.py)
MAX_SENTENCE = 2000  # characters; a longer "sentence" (a wall of text) is read in pieces


def extract_numbers(text: str, now: datetime, page_date: date | None = None) -> list[QuotedNumber]:
    """Every figure in the text, in reading order (at most MAX_FIGURES). A date written
    without its year is read against the page's own date when it has one, else `now`."""
    found: list[QuotedNumber] = []
    today = page_date or now.date()
    years = {int(y) for y in YEARS.findall(text)}
    named = frozenset(y for y in years if abs(y - today.year) <= 1)
    # a year-less date takes the page's year when the page names one and no other
    page_year = next(iter(years)) if len(years) == 1 else None
    lead: date | None = None  # the date the sentence before began with
    columns: list[ColumnUnit | None] | None = None  # the units a table's header gives
    joined: JoinedTable | None = None  # a table whose cells ran together
    quota: str | None = None  # what the sentences before name a quota of
    heading: str | None = None  # what a flattened table's header line counts
    flat: FlatTable | None = None  # a table flattened to lines of words and numbers
    glued: GluedTable | None = None  # a table whose every cell ran into the next
    lines = list(stat_cards(cell_tables(split_sentences(text))))
    for k, sentence in enumerate(lines):
        figured = may_hold_figure(sentence)
        if flat is None and k and figured:  # the line before may head a flattened table
            flat = flat_table(lines[k - 1], sentence, lines[k + 1] if k + 1 < len(lines) else "")
        if columns is not None and not cells(sentence):
            columns = None  # the table ended
        if columns is None and any(w in sentence for w in ("quota", "limit", "allowance")):
            quota = quota_named(sentence) or quota
        if not figured:
            lead, flat = None, None
            if "|" in sentence and not is_rule(sentence) and not section_row(sentence, columns):
                columns = header_units(sentence, quota)
            after = lines[k + 1] if k + 1 < len(lines) else ""
            run_together = joined_words(sentence)
            glued = glued_header(sentence, after) or (glued if run_together else None)
            if glued is not None:
                joined = None  # every cell ran together, not two columns
            elif joined is None or not run_together:
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
                numbers = in_joined_row(sentence, *row, joined.unit, today, named)
            else:
                numbers, lead = numbers_in(piece, today, named, lead, page_year)
                if columns is not None or "|" in piece:
                    numbers = in_cells(piece, numbers, columns)
                elif ":" in piece or " – " in piece or " — " in piece or " - " in piece:
                    numbers = after_label(piece, numbers)
                elif len(piece) <= MAX_STAT_LINE:
                    numbers = after_label(piece, numbers, marked=False)
                if heading is not None:
                    numbers, heading = under_heading(piece, numbers, heading)
                if flat is not None:
                    rowed = in_flat_row(piece, numbers, flat)
                    flat, numbers = (None, numbers) if rowed is None else (flat, rowed)
                if glued is not None:
                    rowed = in_glued_row(piece, numbers, glued)
                    glued, numbers = (None, numbers) if rowed is None else (glued, rowed)
            if OPEN_UNITS:
                numbers = open_figures(piece, numbers)
            found.extend(numbers)
            if len(found) >= MAX_FIGURES:
                return found[:MAX_FIGURES]
    return found
