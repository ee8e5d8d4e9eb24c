"""Statuses: canonical programme statuses from phrase lists kept as data."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

import yaml

from extractors.claims import fold
from extractors.sentences import split_sentences
from extractors.values import Status, StatusMention

NEGATIONS = ("not", "no", "never", "n't", "nor", "without")
NEGATION_WINDOW = 3  # words before a phrase that can negate it


@cache
def status_phrases() -> dict[str, Status]:
    """Folded phrase -> status, from extractors/data/statuses.yaml."""
    raw = yaml.safe_load(resources.files("extractors.data").joinpath("statuses.yaml").read_text())
    return {fold(phrase): Status(status) for status, phrases in raw.items() for phrase in phrases}


@cache
def _phrase_pattern() -> re.Pattern[str]:
    """Every phrase in one alternation, longest first (so "no longer accepting" wins)."""
    phrases = sorted(status_phrases(), key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(p) for p in phrases) + r")\b")


def extract_statuses(text: str, folded: str | None = None) -> list[StatusMention]:
    """Every current-status phrase in the text, with its sentence (`folded`: fold(text),
    when the caller has it)."""
    phrases = status_phrases()
    pattern = _phrase_pattern()
    found: list[StatusMention] = []
    if pattern.search(fold(text) if folded is None else folded) is None:
        return found  # most pages state no status: one pass over the whole text
    for sentence in split_sentences(text):
        folded = fold(sentence)
        for m in pattern.finditer(folded):
            phrase = m.group(0)
            if not _negated(folded[: m.start()], phrase):
                found.append(StatusMention(phrases[phrase], phrase, sentence))
    return found


def _negated(before: str, phrase: str) -> bool:
    if any(word in phrase.split() for word in NEGATIONS):
        return False
    clause = re.split(r"[:;,.!?()\-]", before)[-1]  # a negation does not cross a clause
    words = re.findall(r"[a-z']+", clause)[-NEGATION_WINDOW:]
    return any(w in NEGATIONS or w.endswith("n't") for w in words)
