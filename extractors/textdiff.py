"""Word-level differences between two main texts, for `evidence diff`.

diff-match-patch (Myers' algorithm with its speed-ups and a semantic clean-up) on words
rather than characters: each distinct word and run of white space becomes one character,
so the diff is computed over a few thousand symbols and its edits fall on word
boundaries. difflib's SequenceMatcher treats words frequent in a long text as junk and
then pairs up unrelated passages; diff-match-patch finds the minimal edit.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Iterable
from itertools import islice
from typing import Literal, TypeVar

from diff_match_patch import diff_match_patch

Op = Literal["=", "-", "+"]
_TOKEN = re.compile(r"\s+|\S+")
_OPS: dict[int, Op] = {0: "=", -1: "-", 1: "+"}
_FIRST = 0x100  # symbols start past the control characters
_SURROGATES = (0xD800, 0xE000)  # not characters: skipped
DIFF_TIMEOUT_S = 5.0  # past this, a coarser (still correct) diff of very long texts
# Words and spaces of each text compared: every distinct one needs a symbol (a code
# point), and the clean-up's time grows with them; a longer text is compared up to here.
MAX_DIFF_TOKENS = 200_000


def cut_for_diff(text: str) -> tuple[str, bool]:
    """`text` up to its first MAX_DIFF_TOKENS words and spaces, and whether it was cut."""
    ends = [m.end() for m in islice(_TOKEN.finditer(text), MAX_DIFF_TOKENS + 1)]
    if len(ends) <= MAX_DIFF_TOKENS:
        return text, False
    return text[: ends[MAX_DIFF_TOKENS - 1]], True


def word_diff(old: str, new: str) -> list[tuple[Op, str]]:
    """Runs of text that turn `old` into `new`: kept ("="), removed ("-"), added ("+").
    Each text is compared up to MAX_DIFF_TOKENS words and spaces (see cut_for_diff)."""
    old, new = cut_for_diff(old)[0], cut_for_diff(new)[0]
    symbols: dict[str, str] = {}  # word -> its symbol
    words: dict[str, str] = {}  # symbol -> its word

    def encode(text: str) -> str:
        out = []
        for token in _TOKEN.findall(text):
            symbol = symbols.get(token)
            if symbol is None:
                code = _FIRST + len(words)
                if code >= _SURROGATES[0]:
                    code += _SURROGATES[1] - _SURROGATES[0]
                symbol = symbols[token] = chr(code)
                words[symbol] = token
            out.append(symbol)
        return "".join(out)

    a, b = encode(old), encode(new)
    engine = diff_match_patch()
    engine.Diff_Timeout = DIFF_TIMEOUT_S
    diffs = engine.diff_main(a, b, False)
    engine.diff_cleanupSemantic(diffs)
    # diff-match-patch's clean-up leaves no empty run and no two of one kind side by side
    return [(_OPS[op], "".join(words[c] for c in run)) for op, run in diffs if run]


T = TypeVar("T", bound=Hashable)


def appeared_and_went(old: Iterable[T], new: Iterable[T]) -> tuple[list[T], list[T]]:
    """What is in `new` and not in `old` (counting repeats), and what went."""
    before, after = Counter(old), Counter(new)
    return list((after - before).elements()), list((before - after).elements())
