"""Claim matching: is a quote on the page, on it with other numbers, or absent?

Matching ignores case, runs of white space, typographic quotes and dashes,
non-breaking spaces and thousands separators ("$5,000" matches "$5000").
A quote whose words are on the page with other numbers in the numbers'
places is ``changed``, and the numbers found are kept. A figure may be written another
way for the same value ("$4,000" = "$4K" = "$4 thousand" = "US$4,000" = "4,000 USD";
"25%" = "25 per cent"): the quote is ``confirmed`` and the page's wording kept; the same
number in another currency is ``changed``. A number that is part of a name ("A100",
"GPT-4", "Windows 11": the grammar's `in_name`) is one of the quote's words.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from rapidfuzz import fuzz

from extractors.lexicon import (
    CURRENCY_CODES,
    CURRENCY_SYMBOLS,
    CURRENCY_WORDS,
    SCALES,
    currency_code,
)
from extractors.numbers import name_numbers, value_of
from extractors.values import CheckOutcome, ClaimCheck

_FOLD = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u00b4`", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d", "-"),
        **dict.fromkeys("\u00a0\u2007\u2009\u200a\u202f\u3000\t\r\n\f\v", " "),
        # a table's cell separator: a row quoted as the page shows it ("Team 99 200")
        # or with its separators ("Team | 99") is the same row
        "|": " ",
        **dict.fromkeys("\u200b\u200c\u200d\u2060\ufeff\u00ad", ""),
    }
)
# The ASCII characters fold() changes beyond case and space (a thousands comma included):
# text without them folds by lower() and split() alone.
ASCII_FOLDED = frozenset({","} | {chr(c) for c in _FOLD if c < 128 and not chr(c).isspace()})
# A comma (or narrow no-break space) between a digit and exactly three digits.
_THOUSANDS = re.compile(r"(?<=\d)[,\u202f](?=\d{3}(?!\d))")
_NUMBER = r"\d+(?:\.\d+)?"


def _either(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


# A figure as folded text writes it (lowered, thousands commas gone): a sign or code
# before, the number, a scale, a code, currency word or percent sign after. Groups:
# sign, number, scale, after.
_SIGNS = [s for s in CURRENCY_SYMBOLS if not s[0].isalpha() or "$" in s]
_LETTER_SIGNS = [s for s in CURRENCY_SYMBOLS if s[0].isalpha() and "$" not in s]
_CODES = [c.lower() for c in CURRENCY_CODES]
_FIGURE = (
    rf"((?:{_either(_SIGNS)}) ?|(?<![a-z])(?:{_either(_CODES + _LETTER_SIGNS)}) ?)?"
    rf"(?<![\d.])({_NUMBER})(?!\d|\.\d)"
    rf"( ?(?:{_either(SCALES)})\b)?"
    rf"( ?(?:{_either([*_CODES, *CURRENCY_WORDS])})\b| ?%| ?per ?cent\b| ?percent\b)?"
)
_FIGURE_RE = re.compile(_FIGURE)


@dataclass(frozen=True, slots=True)
class _Figure:
    """A figure's value as written: its number scaled, its currency, whether a share."""

    value: float
    currency: str | None
    percent: bool

    @classmethod
    def read(cls, sign: str | None, number: str, scale: str | None, after: str | None) -> _Figure:
        after = (after or "").strip()
        percent = after == "%" or "cent" in after
        code = None if percent or not after else after
        sign = (sign or "").strip()
        currency = currency_code(sign) or currency_code(code)
        # dots group thousands only in money written without a scale ("$4.000")
        value = value_of(number, scale.strip() if scale else None, bool(currency and not scale))
        assert value is not None  # (the pattern's number is digits)
        return cls(value, currency, percent)

    def same(self, other: _Figure) -> bool:
        """`other` is this figure of a quote written another way (it fits, see `fits`)."""
        return math.isclose(self.value, other.value, rel_tol=1e-9) and (
            self.currency is None or self.currency == other.currency
        )

    def fits(self, other: _Figure) -> bool:
        """Whether `other` on a page can stand in the place of this figure of a quote: a
        share for a share, money for money (a quote's bare number takes any)."""
        if self.percent != other.percent:
            return False
        return self.currency is None or other.currency is not None


_MIN_LETTERS_FOR_CHANGED = 3
_MIN_WORDS_RUN = 4  # characters of a quote's words between figures worth a quick search
CLOSEST_MIN = 70  # a closest passage scoring less is no hint
CLOSEST_MIN_CHARS = 12  # a quote shorter than this is found or not; nothing is near it
_LONG_WORD = re.compile(r"[^\W\d_]{5,}")


_WHITESPACE = re.compile(r"\s+")


class NormalizedText:
    """Text folded for matching; offsets into the original are computed only when asked."""

    __slots__ = ("_offsets", "folded", "original")

    def __init__(self, original: str, folded: str | None = None) -> None:
        self.original = original
        self.folded = fold(original) if folded is None else folded  # folded: fold(original)
        self._offsets: tuple[int, ...] | None = None

    @property
    def offsets(self) -> tuple[int, ...]:
        """The offset in the original of each folded character."""
        if self._offsets is None:
            self._offsets = _fold_offsets(self.original)
            assert len(self._offsets) == len(self.folded)
        return self._offsets

    def span(self, start: int, end: int) -> str:
        """The original text behind folded[start:end]."""
        if start >= end:
            return ""
        return self.original[self.offsets[start] : self.offsets[end - 1] + 1]


def normalize_text(text: str, folded: str | None = None) -> NormalizedText:
    """`text` for matching; pass `folded` when fold(text) is already at hand."""
    return NormalizedText(text, folded)


def fold(text: str) -> str:
    """Case, quotes, dashes, spaces and thousands separators folded (str methods: fast)."""
    text = _THOUSANDS.sub("", text).translate(_FOLD)
    return _WHITESPACE.sub(" ", text).strip(" ").lower()


_NON_SPACE = re.compile(r"\S")
_SPACE_BEFORE_SPACE = re.compile(r"\s(?=\s)")
_KEPT = re.compile("[^\0]+")
# Characters the folding deletes (zero-width ones), which shift offsets.
_DELETED = re.compile(
    "[" + "".join(k for k, v in ((chr(c), v) for c, v in _FOLD.items()) if not v) + "]"
)


def _fold_offsets(text: str) -> tuple[int, ...]:
    """The offset in `text` of each character of `fold(text)`.

    Every character is kept but thousands commas and spaces followed by a space, less
    the spaces at either end: marked in C by two substitutions, kept by runs. Text where
    that does not hold (zero-width characters, a narrow no-break space as thousands
    separator, letters that lower-case to two, NUL) takes the character-by-character way.
    """
    text = text.replace("|", " ")  # (folded to a space: same length, same offsets)
    dropped = [m.start() for m in _THOUSANDS.finditer(text)]
    if (
        "\0" in text
        or _DELETED.search(text)
        or len(text.lower()) != len(text)
        or any(text[i] != "," for i in dropped)
    ):
        return _fold_offsets_by_char(text)
    marked = _SPACE_BEFORE_SPACE.sub("\0", text)
    if dropped:
        marked = _THOUSANDS.sub("\0", marked)
    first = _NON_SPACE.search(text)
    if first is None:
        return ()
    last = len(text.rstrip())
    offsets: list[int] = []
    for m in _KEPT.finditer(marked, first.start(), last):
        offsets.extend(range(*m.span()))
    return tuple(offsets)


def _fold_offsets_by_char(text: str) -> tuple[int, ...]:
    """Character by character, the same folding as `fold`, recording offsets."""
    drop = {m.start() for m in _THOUSANDS.finditer(text)}
    offsets: list[int] = []
    pending_space = False
    for i, ch in enumerate(text):
        if i in drop:
            continue
        folded = ch.translate(_FOLD)
        if not folded:
            continue
        if folded.isspace():
            pending_space = bool(offsets)
            continue
        if pending_space:
            offsets.append(i - 1)
            pending_space = False
        offsets.extend([i] * len(folded.lower()))
    return tuple(offsets)


@dataclass(frozen=True, slots=True)
class _Quote:
    """A quote as it is matched: folded, its figures (numbers not in names), and the
    pattern with a figure's place for each (None: it holds none)."""

    folded: str
    figures: tuple[_Figure, ...]
    pattern: re.Pattern[str] | None
    words: tuple[str, ...] = ()  # its longer runs of words, each on any page it is on

    @property
    def wanted(self) -> tuple[float, ...]:
        return tuple(f.value for f in self.figures)


@functools.lru_cache(maxsize=4096)
def _quote(quote: str) -> _Quote:
    """Made once per quote (a quote is checked against many pages)."""
    folded = fold(quote)
    names = name_numbers(quote)
    offsets = _fold_offsets(quote) if names else ()
    pieces, figures, last = [], [], 0
    for m in _FIGURE_RE.finditer(folded):
        if names and offsets[m.start(2)] in names:
            continue  # a name's digits are words of the quote
        pieces.append(folded[last : m.start()])
        figures.append(_Figure.read(*m.groups()))
        last = m.end()
    pieces.append(folded[last:])
    letters = sum(ch.isalpha() for ch in "".join(pieces))
    if not figures or letters < _MIN_LETTERS_FOR_CHANGED:
        return _Quote(folded, tuple(figures), None)
    pattern = f"({_FIGURE})".join(re.escape(p) for p in pieces)
    words = tuple(p.strip() for p in pieces if len(p.strip()) >= _MIN_WORDS_RUN)
    return _Quote(folded, tuple(figures), re.compile(pattern), words)


def match_claim(quote: str, page: NormalizedText | str) -> ClaimCheck:
    """Check one quote against a page's main text."""
    if isinstance(page, str):
        page = normalize_text(page)
    q = _quote(quote)
    if not q.folded:
        return ClaimCheck(CheckOutcome.ABSENT)
    check = _match(q, page)
    if check.outcome is CheckOutcome.ABSENT:
        closest = closest_passage(q.folded, page)
        if closest is not None:
            return ClaimCheck(
                CheckOutcome.ABSENT, closest_text=closest[0], closest_score=closest[1]
            )
    return check


MAX_WORD = 40  # the longest word a passage is widened over, each side


def closest_passage(folded_quote: str, page: NormalizedText) -> tuple[str, int] | None:
    """The passage of the page nearest to an absent quote, and how near (0-100), when it
    scores at least CLOSEST_MIN: a hint of where a reworded sentence went, never a match.

    rapidfuzz's best partial alignment on the folded texts, widened to whole words; only
    tried when most of the quote's longest words are on the page (each a plain substring
    search), which rules out unrelated pages at next to no cost.
    """
    if len(folded_quote) < CLOSEST_MIN_CHARS:
        return None
    words = sorted(set(_LONG_WORD.findall(folded_quote)), key=len, reverse=True)[:5]
    if words and sum(w in page.folded for w in words) * 2 < len(words):
        return None
    found = fuzz.partial_ratio_alignment(folded_quote, page.folded, score_cutoff=CLOSEST_MIN)
    if found is None:
        return None
    text = page.folded
    start, end = found.dest_start, found.dest_end
    # widened to whole words, a word's length at most: a run of letters with no end (a
    # page's base64, a hostile page) is no passage to quote
    floor, ceiling = max(0, start - MAX_WORD), min(len(text), end + MAX_WORD)
    while start > floor and text[start - 1].isalnum():
        start -= 1
    while end < ceiling and text[end].isalnum():
        end += 1
    if (start > 0 and text[start - 1].isalnum()) or (end < len(text) and text[end].isalnum()):
        return None
    passage = page.span(start, end).strip()
    # counted in the page's own characters: what folding drops (zero-width marks, soft
    # hyphens) can make a short folded span a long one as written
    if len(passage) > 2 * (end - start) + 2 * MAX_WORD:
        return None
    return (passage, int(found.score)) if passage else None


def _match(q: _Quote, page: NormalizedText) -> ClaimCheck:
    if q.pattern is None:
        return _match_literal(q.folded, page, q.wanted)
    literal = _match_literal(q.folded, page, q.wanted)  # the quote itself is on the page
    if literal.outcome is CheckOutcome.CONFIRMED:
        return literal
    if any(w not in page.folded for w in q.words):
        return ClaimCheck(CheckOutcome.ABSENT)  # its words are not all there: no figure search
    first_changed: tuple[re.Match[str], tuple[float, ...]] | None = None
    for m in _near_words(q, q.pattern, page.folded):
        groups = m.groups()
        found = [_Figure.read(*groups[k + 1 : k + 5]) for k in range(0, len(groups), 5)]
        if not all(w.fits(f) for w, f in zip(q.figures, found, strict=True)):
            continue  # "$4,000" is not in the place of "4,000" nor "25%" of "25"
        values = tuple(f.value for f in found)
        if all(w.same(f) for w, f in zip(q.figures, found, strict=True)):
            return ClaimCheck(CheckOutcome.CONFIRMED, page.span(m.start(), m.end()), values)
        if first_changed is None:
            first_changed = (m, values)
    if first_changed is not None:
        m, values = first_changed
        return ClaimCheck(CheckOutcome.CHANGED, page.span(m.start(), m.end()), values)
    return ClaimCheck(CheckOutcome.ABSENT)


def _near_words(q: _Quote, pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """The pattern's matches, searched only around the quote's longest run of words (a
    pattern that opens on a figure has no literal start to search by: over a long page
    it would be tried at every character)."""
    if not q.words:
        yield from pattern.finditer(text)
        return
    longest = max(q.words, key=len)
    reach = len(q.folded) + 24 * len(q.figures) + 8  # a match holds the run, written longer
    windows: list[list[int]] = []
    at = text.find(longest)
    while at >= 0:
        start, end = max(0, at - reach), min(len(text), at + len(longest) + reach)
        if windows and start <= windows[-1][1]:
            windows[-1][1] = end
        else:
            windows.append([start, end])
        at = text.find(longest, at + 1)
    for start, end in windows:
        yield from pattern.finditer(text, start, end)


def _match_literal(
    folded_quote: str, page: NormalizedText, wanted: tuple[float, ...]
) -> ClaimCheck:
    guard_start = r"(?<![\d.])" if folded_quote[0].isdigit() else ""
    guard_end = r"(?!\d|\.\d)" if folded_quote[-1].isdigit() else ""
    m = re.search(guard_start + re.escape(folded_quote) + guard_end, page.folded)
    if m is None:
        return ClaimCheck(CheckOutcome.ABSENT)
    return ClaimCheck(CheckOutcome.CONFIRMED, page.span(m.start(), m.end()), wanted)
