"""Candidate claims of a page: short verbatim quotes of its main text that carry a figure
or a status, ranked so that what a catalog keeper wants (money, quotas, limits, windows,
programme statuses) comes before page furniture (reading times, comment counts,
copyright years).

A quote is a clause of a sentence (cut at ; : , — and parentheses) holding the figure,
widened to its neighbours while it is too short to be specific. Every candidate is checked
with the matcher a refresh uses, on the same text: only quotes that come out `confirmed`
are offered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from extractors.claims import match_claim, normalize_text
from extractors.page import PageExtraction
from extractors.sentences import split_sentences
from extractors.values import CheckOutcome, NumberKind, QuotedNumber, StatusMention

MIN_QUOTE = 32  # characters: a shorter clause is widened to its neighbours
MAX_QUOTE = 140
# a comma inside a figure ("1,904") or before a year ("Nov. 18, 2019") does not end a clause
_CLAUSE_END = re.compile(r"\s*(?:;|:|—|–|\(|\)|,(?!\d{3})(?!\s*(?:19|20)\d\d\b))\s*")
_FURNITURE = re.compile(
    r"\b(?:min(?:ute)?s?\s+read|read(?:ing)?\s+time|comments?|repl(?:y|ies)|views?|likes?|"
    r"shares?|followers?|subscribers?|copyright|©|all rights reserved|cookies?|"
    r"newsletter|sign\s+up|log\s*in|advertis\w*|sponsored|photo|image|page\s+\d|"
    r"published|updated|posted|last\s+modified)\b",
    re.I,
)
# narrative time ("two decades ago", "three months later"): history, not a standing fact
_NARRATIVE = re.compile(r"\b(?:ago|later|earlier|before|previously)\b", re.I)
_SPEECH = re.compile(r"[“”\"]")  # a quote of someone's words: an opinion more than a fact
_DIGIT = re.compile(r"\d")  # a figure spelled out ("two officers") is incidental more often
_CELL_NUMBER = re.compile(r"\d[\d,.]*")  # the numbers of a row's cells, in order
_WEIGHTS = {
    NumberKind.MONEY: 6.0,
    NumberKind.DATE_RANGE: 5.0,
    NumberKind.PERCENT: 4.0,
    NumberKind.COUNT: 4.0,
    NumberKind.DURATION: 3.0,
    NumberKind.NUMBER: 2.0,
    NumberKind.DATE: 1.5,
}
STATUS_WEIGHT = 5.5


@dataclass(frozen=True, slots=True)
class Candidate:
    quote: str
    score: float
    what: str  # the parsed figure or status, for a comment beside the quote
    slug: str  # a claim id
    figure: int | None = None  # which figure of the quote it watches (a table's cell)


def candidates(page: PageExtraction, limit: int = 12) -> list[Candidate]:
    """The page's best candidate claims, best first, each quote `confirmed` on its text."""
    text = page.text
    folded = normalize_text(text, page.folded or None)
    found: dict[str, Candidate] = {}
    order = {s: i for i, s in enumerate(split_sentences(text))}
    for n in page.numbers:
        if "|" in n.sentence:  # a table's cell: its row, up to the cell, as the page shows it
            _cell(found, folded, n, order)
        quote = _clause(n.sentence, n.raw)
        if quote is None:
            continue
        score = _WEIGHTS.get(n.kind, 1.0) + (1.0 if n.subject else 0.0)
        score -= 0.3 * min(order.get(n.sentence, 0), 30) / 30  # earlier is likelier
        if not _DIGIT.search(n.raw):
            score -= 1.5
        if n.qualifier:  # "up to", "at least", "per month": the shape of a limit or a price
            score += 0.5
        if n.kind in (NumberKind.DURATION, NumberKind.COUNT) and _NARRATIVE.search(
            n.sentence[n.sentence.find(n.raw) :][: len(n.raw) + 30]
        ):
            score -= 2.0
        _offer(found, folded, quote, _score(quote, score), _figure(n), _slug_number(n))
    for s in page.statuses:
        quote = _clause(s.sentence, s.phrase)
        if quote is None or quote in found:
            continue  # (a quote that holds a figure watches the figure: the more exact)
        _offer(found, folded, quote, _score(quote, STATUS_WEIGHT), _status(s), s.status.value)
    best = sorted(found.values(), key=lambda c: -c.score)
    # one quote a figure: a page repeats its headline figure (title, lead, body)
    seen: set[str] = set()
    kept = []
    for c in best:
        if c.what not in seen:
            seen.add(c.what)
            kept.append(c)
    return kept[:limit]


def _cell(found: dict[str, Candidate], folded: object, n: QuotedNumber, order: dict) -> None:
    """A table cell's candidate: its row's label and cells up to it ("Pro | 29"), the
    figure the claim watches the last of them, said in its column's unit."""
    row = n.sentence
    at = row.find(n.raw)
    if at < 0 or n.value is None:
        return
    quote = row[: at + len(n.raw)].strip().strip("|").strip()
    label = quote.split("|")[0].strip()
    if not label or any(ch.isdigit() for ch in label) or len(quote.split("|")) < 2:
        return  # a row named by its first cell
    figure = len(_CELL_NUMBER.findall(quote[len(label) :]))
    # the same figure said in a sentence is quoted from there: a row reads less alone
    score = _WEIGHTS.get(n.kind, 1.0) + (1.0 if n.currency else 0.0) - 1.0
    score -= 0.3 * min(order.get(row, 0), 30) / 30
    what = _figure(n)
    slug = f"{_slug(label)}-{_slug_number(n)}"
    _offer(found, folded, quote, score, what, slug, figure if figure > 1 else None, row=True)


def _offer(
    found: dict[str, Candidate],
    folded: object,
    quote: str,
    score: float,
    what: str,
    slug: str,
    figure: int | None = None,
    row: bool = False,
) -> None:
    if score <= 0 or ("|" in quote and not row):
        return  # (a clause cut across a table's cells: its rows are offered as rows)
    previous = found.get(quote)
    if previous is not None and previous.score >= score:
        return
    if match_claim(quote, folded).outcome is not CheckOutcome.CONFIRMED:  # type: ignore[arg-type]
        return
    found[quote] = Candidate(quote, score, what, slug, figure)


def _score(quote: str, base: float) -> float:
    if _FURNITURE.search(quote):
        return base - 6.0
    if _SPEECH.search(quote):
        base -= 1.5
    if re.search(r"\b(?:19|20)\d\d\b", quote) and len(quote) < 30:
        return base - 1.0  # a bare year: more often a byline than a fact
    return base


def _clause(sentence: str, raw: str) -> str | None:
    """The clause of `sentence` around `raw`, widened while short, cut when long."""
    m = re.search(re.escape(raw), sentence, re.I)
    if m is None:
        return None
    at, raw = m.start(), m.group(0)
    cuts = [0, *(m.end() for m in _CLAUSE_END.finditer(sentence)), len(sentence)]
    starts = [c for c in cuts if c <= at]
    ends = [c for c in cuts if c >= at + len(raw)]
    start, end = max(starts), min(ends)
    # widen to the neighbouring clauses while the quote is too short to be specific
    while len(sentence[start:end].strip()) < MIN_QUOTE:
        before = [c for c in cuts if c < start]
        after = [c for c in cuts if c > end]
        if not before and not after:
            break
        if after and (not before or end - start + after[0] - end <= start - before[-1]):
            end = after[0]
        else:
            start = before[-1]
    quote = sentence[start:end]
    if len(quote) > MAX_QUOTE:  # a long clause: the words around the figure
        left = max(start, at - MAX_QUOTE // 2)
        right = min(end, left + MAX_QUOTE)
        quote = sentence[left:right]
        quote = quote[quote.find(" ") + 1 :] if left > start else quote
        quote = quote[: quote.rfind(" ")] if right < end else quote
    quote = quote.strip(" ,;:—–(")
    while quote.endswith(")") and quote.count(")") > quote.count("("):  # a clause cut at ")"
        quote = quote[:-1].rstrip()
    quote = re.sub(r"[.!?]+$", "", quote).strip()
    if quote.count("(") > quote.count(")"):  # "3,200 miles (5,150 km": a figure restated
        cut = quote.rfind("(")
        if quote.find(raw) > cut:
            return None
        quote = quote[:cut].rstrip(" ,;:—–")
    return quote if raw in quote and len(quote) >= len(raw) else None


def _figure(n: QuotedNumber) -> str:
    if n.kind in (NumberKind.DATE, NumberKind.DATE_RANGE):
        span = f"{n.date_from}" + (f" to {n.date_to}" if n.date_to != n.date_from else "")
        return f"{n.kind.value} {span}"
    value = f"{n.value:g}" + (f"-{n.value_end:g}" if n.value_end is not None else "")
    parts = [n.kind.value, value, n.currency or n.unit or ""]
    if n.qualifier:
        parts.append(f"({n.qualifier})")
    if n.subject and n.subject.lower() != (n.unit or "").lower():
        parts.append(f"of {n.subject}")
    return " ".join(p for p in parts if p)


def _status(s: StatusMention) -> str:
    return f"status {s.status.value}"


def _slug(words: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", words.lower()).strip("-")


def _slug_number(n: QuotedNumber) -> str:
    return _slug(n.subject or n.unit or n.kind.value) or n.kind.value
