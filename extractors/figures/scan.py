"""One sentence read by every rule, in order: the figures it holds, each taken once,
with the bare numbers its figures give a unit and each figure's subject."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from datetime import date

from extractors.figures.bare import (
    NAMING_HINT,
    SAME_RATE_AFTER,
    counts_left_out,
    named_before,
    shared_units,
    times_sized,
)
from extractors.figures.build import build_figure
from extractors.figures.counts import counted as count_phrase
from extractors.figures.dates import after_anchor, lean
from extractors.figures.grammar import (
    A_LETTER,
    HINTS,
    LETTER_KEY,
    RULES,
    SCALED,
    FoldedMatch,
    fold_case,
)
from extractors.figures.ranges import GOES_ON, count_change, from_to
from extractors.figures.words import YEAR_WRITTEN
from extractors.subjects import subject_of
from extractors.values import NumberKind, QuotedNumber

# Switches for the property tests, which compare the fast ways with the plain ones: each
# rule's hint skips a sentence no match of it can be in; its lowered pattern runs on the
# case-folded sentence in place of the case-blind one (the same matches, faster).
USE_HINTS = True
USE_FOLDED = True


def numbers_in(
    sentence: str,
    today: date,
    named: frozenset[int] = frozenset(),
    lead: date | None = None,
    page_year: int | None = None,
) -> tuple[list[QuotedNumber], date | None]:
    """The figures of one sentence, and the date it begins with (for the next one);
    `page_year`: the one year the page names, which its year-less dates take."""
    taken: list[tuple[int, int]] = []
    hits: list[tuple[int, int, QuotedNumber]] = []
    folded = fold_case(sentence)
    lettered = A_LETTER.found(sentence, folded)
    # each hint searched once a sentence: several rules share one (dates, the letter)
    hinted: list[bool | None] = [None] * len(HINTS)
    hinted[LETTER_KEY] = lettered
    for rule in RULES:
        kind, pattern, hint = rule.kind, rule.pattern, rule.hint if USE_HINTS else None
        if hint is not None:
            if hint.letter and not lettered:
                continue
            k = rule.hint_key
            if (found := hinted[k]) is None:
                found = hinted[k] = hint.found(sentence, folded)
            if not found:
                continue
        folded_pattern = rule.folded if USE_FOLDED else None
        matches: Iterable[re.Match[str] | FoldedMatch] = (
            pattern.finditer(sentence)
            if folded_pattern is None
            else (FoldedMatch(m, sentence) for m in folded_pattern.finditer(folded))
        )
        for m in matches:
            start, end = m.span()
            if any(start < e and s < end for s, e in taken):
                continue
            if sentence[start - 1 : start] == ":" and sentence[start - 2 : start - 1].isdigit():
                continue  # the minutes of a time of day, a ratio's second term: "9:30", "16:9"
            if (split := from_to(m, sentence, pattern, folded_pattern)) is not None:
                for s, e, part in split:
                    number = build_figure(kind, part, sentence, today, named, rule.name, page_year)
                    if number is not None:
                        taken.append((s, e))
                        hits.append((s, e, number))
                continue
            number = build_figure(kind, m, sentence, today, named, rule.name, page_year)
            if number is None:
                continue
            end = min(end, start + len(number.raw))
            if number.kind is NumberKind.COUNT:
                counted, end = count_phrase(number, sentence, start, end)
                if counted is None:
                    continue
                number = counted
                if number.value_end is not None and (
                    change := count_change(m, sentence, number, start, end)
                ):
                    taken.extend((s, e) for s, e, _ in change)
                    hits.extend(change)
                    continue
            taken.append((start, end))
            hits.append((start, end, number))
    hits.extend(shared_units(sentence, hits))
    left_out: set[int] = set()  # where the counts that leave their noun out begin
    if len(hits) < 12:  # a sentence of few figures; a list of many names its own
        implied = counts_left_out(sentence, hits)
        left_out.update(s for s, _, _ in implied)
        hits.extend(implied)
    if "x" in sentence or "×" in sentence:
        hits = times_sized(sentence, hits)
    if NAMING_HINT.search(folded):
        hits.extend(named_before(sentence, hits))
    if "/" in sentence:
        hits.extend(_slashed_list(sentence, hits, today, named))
    # a scaled number with no unit gives way to any reading that found it one
    hits = [h for h in hits if h[2].rule != SCALED or not _overlapped(h, hits)]
    hits.sort(key=lambda h: h[0])
    begins = next((n.date_from for s, _, n in hits[:1] if not sentence[:s].strip()), None)
    out: list[QuotedNumber] = []
    anchor = lead if begins is not None else None
    before_end = 0
    for s, e, n in hits:
        if n.kind is NumberKind.DATE and n.date_from is not None:
            if anchor is not None and not YEAR_WRITTEN.search(n.raw) and not lean(sentence[:s]):
                day = after_anchor(anchor, n.date_from)
                n = replace(n, date_from=day, date_to=day) if day is not None else n
            anchor = n.date_to
        elif n.kind is NumberKind.DATE_RANGE:
            anchor = n.date_to
        subject = n.subject or subject_of(sentence, s, e, n.kind, n.unit)
        if subject is None and out and out[-1].kind is n.kind and GOES_ON.search(sentence, 0, s):
            subject = out[-1].subject  # "from 23% to 35%": the figure before's subject
        elif (
            subject is None
            and out
            and n.kind is NumberKind.COUNT
            and (same := SAME_RATE_AFTER.match(sentence, before_end)) is not None
            and same.start("num") == s
        ):
            subject = out[-1].subject  # "60 requests per minute and 1,000 per day"
        elif subject is None and s in left_out:
            counts = (o for o in reversed(out) if o.kind is n.kind and o.unit == n.unit)
            subject = next(counts).subject  # "3 projects, Pro accounts 20": the same subject
        before_end = e
        out.append(replace(n, subject=subject))
    return out, (out[0].date_from if begins is not None and out else None)


def _overlapped(
    hit: tuple[int, int, QuotedNumber], hits: list[tuple[int, int, QuotedNumber]]
) -> bool:
    start, end, _ = hit
    return any(s < end and start < e for s, e, n in hits if n.rule != SCALED)


# Numbers listed with slashes before one unit: "7/14/30 day views", "8/16/32 GB plans"
# (three at least: two are a share or a ratio, "1/8 OCPU", "16/9", "24/7")
_SLASHED_LIST = re.compile(r"(?<![\w/.,$€£])\d{1,4}(?:/\d{1,4}){2,5}(?=[\s-]?[A-Za-z])")
_LISTED = (NumberKind.DURATION, NumberKind.NUMBER, NumberKind.COUNT)


def _slashed_list(
    sentence: str, hits: list[tuple[int, int, QuotedNumber]], today: date, named: frozenset[int]
) -> list[tuple[int, int, QuotedNumber]]:
    """Each number of such a list, in the unit the last one is read with."""
    out: list[tuple[int, int, QuotedNumber]] = []
    for m in _SLASHED_LIST.finditer(sentence):
        if any(s < m.end() and m.start() < e for s, e, _ in hits):
            continue  # a date ("6/23/15"), a share ("1/8 OCPU")
        last = m.group().rindex("/") + 1 + m.start()
        read, _ = numbers_in(sentence[last:], today, named)
        figure = next((n for n in read[:1] if sentence.startswith(n.raw, last)), None)
        if figure is None or figure.kind not in _LISTED or figure.value_end is not None:
            continue
        at = m.start()
        for number in m.group().split("/"):
            value = float(number)
            raw = figure.raw if at == last else number
            listed = replace(figure, value=value, raw=raw, sentence=sentence, rule="slashed-list")
            out.append((at, at + len(raw), listed))
            at += len(number) + 1
    return out
