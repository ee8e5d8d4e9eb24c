"""The words that may state a status (extractors/data/status_cues.yaml), found on a page:
each cue with its group and where it stands. The learned reader (extractors/
status_model.py) reads every sentence that holds one.

A cue is a word's start ("suspen": suspend, suspended, suspension) or a phrase of whole
words apart by white space or a hyphen ("shut down", "shut-down"). Every pattern here
runs in linear time: words are apart by a separator no word can take.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

import yaml

from extractors.rule_files import check_rule_file
from extractors.status_lexicon import SEP, _trie
from extractors.values import Status

_WORD_TAIL = r"[\w'’]*"


@dataclass(frozen=True, slots=True)
class Cue:
    """A cue found: its stem or phrase as the data file writes it, its group, the word as
    the page writes it (lower case), and where it stands."""

    key: str
    group: str
    word: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Cues:
    pattern: re.Pattern[str]
    phrases: dict[str, tuple[str, str]]  # a phrase, spaces single -> (key, group)
    stems: dict[str, str]  # stem -> group

    def find(self, low: str, start: int = 0, end: int | None = None) -> list[Cue]:
        """Every cue in low[start:end] (`low`: lower-cased text)."""
        found = []
        for m in self.pattern.finditer(low, start, len(low) if end is None else end):
            words = m.group()
            hit = self.phrases.get(words) if " " in words or "-" in words else None
            if hit is None and (" " in words or "-" in words):
                words = " ".join(re.split(SEP, words))
                hit = self.phrases.get(words)
            if hit is None:
                hit = self._stem(words)
                if hit is None:
                    continue
            found.append(Cue(hit[0], hit[1], words, m.start(), m.end()))
        return found

    def _stem(self, word: str) -> tuple[str, str] | None:
        for k in range(len(word), 1, -1):
            group = self.stems.get(word[:k])
            if group is not None:
                return word[:k], group
        return None


@cache
def cues() -> Cues:
    text = resources.files("extractors.data").joinpath("status_cues.yaml").read_text("utf-8")
    raw = check_rule_file("status_cues.yaml", yaml.safe_load(text), SCHEMA)
    phrases: dict[str, tuple[str, str]] = {}
    stems: list[tuple[str, str]] = []
    for group, items in raw["groups"].items():
        for item in items:
            for variant in str(item).split("|"):
                words = variant.lower().split()
                if len(words) == 1 and "-" not in words[0]:
                    stems.append((words[0], group))
                else:
                    phrases[" ".join(re.split(SEP, variant.lower()))] = (item, group)
    pattern = re.compile(
        r"(?<![\w])(?:"
        + _trie(phrases)
        + r"(?![\w])|"
        + _trie(s for s, _ in stems)
        + _WORD_TAIL
        + ")"
    )
    return Cues(pattern, phrases, dict(stems))


SCHEMA = {
    "type": "mapping",
    "required": ["groups"],
    "keys": {
        "groups": {
            "type": "mapping",
            "keys": {g.value: {"type": "list", "of": "text"} for g in Status},
        }
    },
}
