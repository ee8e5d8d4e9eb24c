"""Statuses: canonical programme statuses from phrase lists kept as data."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

import yaml

from extractors.claims import fold
from extractors.numbers import split_sentences
from extractors.values import Status, StatusMention

NEGATIONS = ("not", "no", "never", "n't", "nor", "without")
NEGATION_WINDOW = 3  # words before a phrase that can negate it


@cache
def status_phrases() -> tuple[tuple[Status, str, re.Pattern[str]], ...]:
    """(status, phrase, pattern) from extractors/data/statuses.yaml, longest phrase first."""
    raw = yaml.safe_load(resources.files("extractors.data").joinpath("statuses.yaml").read_text())
    rows = [
        (Status(status), phrase, re.compile(r"\b" + re.escape(fold(phrase)) + r"\b"))
        for status, phrases in raw.items()
        for phrase in phrases
    ]
    return tuple(sorted(rows, key=lambda r: -len(r[1])))


def extract_statuses(text: str) -> list[StatusMention]:
    """Every current-status phrase in the text, with its sentence."""
    found: list[StatusMention] = []
    for sentence in split_sentences(text):
        folded = fold(sentence)
        taken: list[tuple[int, int]] = []
        for status, phrase, pattern in status_phrases():
            for m in pattern.finditer(folded):
                if any(m.start() < e and s < m.end() for s, e in taken):
                    continue
                if _negated(folded[: m.start()], phrase):
                    continue
                taken.append(m.span())
                found.append(StatusMention(status, phrase, sentence))
    return found


def _negated(before: str, phrase: str) -> bool:
    if any(word in phrase.split() for word in NEGATIONS):
        return False
    words = re.findall(r"[a-z']+", before)[-NEGATION_WINDOW:]
    return any(w in NEGATIONS or w.endswith("n't") for w in words)
