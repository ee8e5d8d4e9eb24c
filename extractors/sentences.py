"""Sentences of a page's main text: where they end (not at "Oct." or "No. 3"), and the
sentence around a passage. Figures, statuses, candidates and alerts all read by them."""

from __future__ import annotations

import re

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'“(\[]?[A-Z0-9$€£])|\n+")


# A full stop that ends an abbreviation, not a sentence: "Oct. 26", "No. 3", "W. M. Keck".
_ABBREVIATION = re.compile(
    r"(?:^|[\s(])(?:[A-Z]|(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|no|nos|mr|mrs|"
    r"ms|dr|st|vs|gov|sen|rep|gen|lt|col|jr|sr|prof|rs)\.?)\.$",
    re.I,
)


def _abbreviated(sentence: str) -> bool:
    return _ABBREVIATION.search(sentence, max(0, len(sentence) - 8)) is not None


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Where each sentence of `text` starts and ends (as split_sentences splits them, the
    white space around them left out)."""
    spans: list[tuple[int, int]] = []
    start, glued = 0, False
    for m in [*_SENTENCE_END.finditer(text), None]:
        stop = len(text) if m is None else m.start()
        first, last = _stripped(text, start, stop)
        if glued and spans:
            spans[-1] = (spans[-1][0], last if last > first else spans[-1][1])
        elif last > first:
            spans.append((first, last))
        if m is None:
            break
        start = m.end()
        glued = "\n" not in m.group() and bool(spans) and _abbreviated(text[slice(*spans[-1])])
    return spans


def _stripped(text: str, start: int, stop: int) -> tuple[int, int]:
    while start < stop and text[start].isspace():
        start += 1
    while stop > start and text[stop - 1].isspace():
        stop -= 1
    return start, stop


def split_sentences(text: str) -> list[str]:
    sentences: list[str] = []
    start, glued = 0, False
    for m in _SENTENCE_END.finditer(text):
        piece = text[start : m.start()].strip()
        start = m.end()
        if glued and sentences:  # the stop before this piece ended an abbreviation
            sentences[-1] = f"{sentences[-1]} {piece}".strip()
        elif piece:
            sentences.append(piece)
        glued = "\n" not in m.group() and bool(sentences) and _abbreviated(sentences[-1])
    piece = text[start:].strip()
    if glued and sentences:
        sentences[-1] = f"{sentences[-1]} {piece}".strip()
    elif piece:
        sentences.append(piece)
    return sentences


def sentence_around(text: str, words: str | None) -> str | None:
    """The sentence (or sentences) of `text` that hold `words`, or None when they are not
    in it."""
    if not words:
        return None
    at = text.find(words)
    if at < 0:
        return None
    end = at + len(words)
    start, stop = 0, len(text)
    for m in _SENTENCE_END.finditer(text):
        if m.end() <= at:
            start = m.end()
        elif m.start() >= end:
            stop = m.start()
            break
    return text[start:stop].strip()
