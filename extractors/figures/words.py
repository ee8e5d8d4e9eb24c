"""What the rules share: a number's value as written, years, HTTP status codes, and the
numbers that are part of a name ("A100", "GPT-4", "Windows 11"), not figures."""

from __future__ import annotations

import re
from http import HTTPStatus

from extractors.figures.grammar import (
    DEC_COMMA,
    EU_NUM,
    GLUED,
    GROUPED,
    WORD_BEFORE,
    YEAR,
    FoldedMatch,
)
from extractors.lexicon import (
    NAME_WORDS,
    PER_WORDS,
    RANK_WORDS,
    SCALES,
    VERSION_WORDS,
    WORD_NUMBERS,
)

YEARS = re.compile(r"\b((?:19|20)\d\d)\b")


YEAR_WRITTEN = re.compile(YEAR)


def in_name(text: str, start: int) -> bool:
    """Whether the number at `start` is part of a name (a model, product or version:
    "A100", "GPT-4", "RTX 4090", "iPhone 15", "Windows 11", "Python 3.11"), not a figure:
    glued to the word before it, or right after a word of a product family written with
    its capital (NAME_WORDS), after "version", or after a brand's spelling with inner
    capitals. Any other word before a number leaves it a figure ("Storage 100 GB",
    "Free Tier 500 GPU hours", "Over 500 teams")."""
    before = text[max(0, start - 40) : start]
    if GLUED.search(before):
        return not GROUPED.match(text, start)
    m = WORD_BEFORE.search(before)
    if m is None:
        return False
    word = m["word"]
    if word.endswith(("'s", "’s")):
        return False  # "WeWork’s 12,000 employees": whose, not which
    folded = word.lower()
    if folded in VERSION_WORDS:
        return True
    if folded in RANK_WORDS and re.match(r"\d{1,2}(?:\.\d{1,2}){0,2}(?![\d.,])", text[start:]):
        return True
    if word[0].isupper() and folded in NAME_WORDS:
        return True
    inner = word[1:]
    return any(c.isupper() for c in inner) and any(c.islower() for c in word)


_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")


def name_numbers(text: str) -> frozenset[int]:
    """Where each number of `text` that is part of a name starts (see `in_name`): claim
    checks keep these as words, never as figures."""
    return frozenset(m.start() for m in _DIGITS.finditer(text) if in_name(text, m.start()))


def group_of(m: re.Match[str] | FoldedMatch, name: int | str) -> str:
    """A group that every match of its pattern has."""
    value = m.group(name)
    if value is None:
        raise ValueError(f"a match without its group {name!r}")
    return value


_STATUS_CODES = {str(s.value): s.phrase.lower() for s in HTTPStatus}


_STATUS_WORDS = re.compile(r"(?:\bhttp(?:/[\d.]+)?|\bstatus|\berror|\bcode)\s*$", re.I)


_STATUS_AFTER = re.compile(r"\s+(?:errors?|responses?|status(?:es)?|codes?)\b", re.I)


def http_status(num: str, sentence: str, start: int, end: int) -> bool:
    """An HTTP status code, not a count: "429 Too Many Requests", "HTTP 503", "429
    responses" (the codes and their phrases are the standard library's)."""
    phrase = _STATUS_CODES.get(num)
    if phrase is None:
        return False
    after = sentence[start + len(num) : start + len(num) + 40].lower().lstrip()
    return (
        after.startswith(phrase)
        or bool(_STATUS_WORDS.search(sentence, max(0, start - 20), start))
        or bool(_STATUS_AFTER.match(sentence, start + len(num)))
    )


def per_qualifier(word: str) -> str:
    """A rate's qualifier as stored: "per month" for "/mo", "monthly"'s "mo", "min"."""
    w = word.lower()
    return f"per {PER_WORDS.get(w, w)}"


def is_year(num: str, scale: str | None) -> bool:
    return scale is None and YEAR_WRITTEN.fullmatch(num) is not None


SAME_BOUND = {"~": "about", "at most": "up to"}  # one bound, one name


_EU_NUMBER = re.compile(EU_NUM)


_DECIMAL_COMMA = re.compile(DEC_COMMA)


_GROUPING_SPACES = str.maketrans("", "", " \u00a0\u202f")


def value_of(num: str | None, scale: str | None, continental: bool = False) -> float | None:
    """A number's value as written, times its scale; `continental`: dots may group
    thousands ("€1.000.000", never "$0.125"). Claim checks read figures by it too."""
    if num is None:
        return None
    if num.lower() in WORD_NUMBERS:
        value = float(WORD_NUMBERS[num.lower()])
    elif "/" in num:
        top, bottom = num.split("/")
        value = int(top) / int(bottom)
    elif continental and _EU_NUMBER.fullmatch(num):
        value = float(num.replace(".", "").replace(",", "."))
    elif "," in num and _DECIMAL_COMMA.fullmatch(num):
        value = float(num.replace(",", "."))  # "5,5 Go"
    else:  # "1,000", "10 000"
        value = float(num.replace(",", "").translate(_GROUPING_SPACES))
    if scale:
        value *= SCALES[scale.lower()]
    return value
