"""The fast way of extractors/fingerprint.py against a full extraction, on the corpus's
real pages: whenever a change to a page changes its title or main text, the fingerprint
says to read it again. Changes go into chrome (text the extraction dropped) and into
the main text."""

from __future__ import annotations

import gzip
import random
import string
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import need_corpus

from extractors import fingerprint
from extractors.text import extract_main_text

ALNUM = string.ascii_letters + string.digits


@cache
def corpus() -> list[list[str]]:
    """Each corpus page as scanned (text, tag, text, ...): scripts and comments emptied."""
    files = sorted((need_corpus() / "html").glob("*.html.gz"))
    return [
        fingerprint.scan(gzip.decompress(f.read_bytes()).decode("utf-8", "replace")).parts
        for f in files
    ]


@cache
def base(index: int) -> tuple[str, tuple[str | None, str], bytes | None, tuple[bool, ...]]:
    """A page, its reading, its fingerprint and which segments the reading kept."""
    parts = corpus()[index]
    html = "".join(parts)
    page = extract_main_text(html)
    made = fingerprint.make(html, page.text) if page.method == "trafilatura" else None
    mask = fingerprint.kept_mask(fingerprint.scan(html), page.text) or []
    return html, (page.title, page.text), made, tuple(mask)


def segment_parts(parts: list[str]) -> list[int]:
    """Index in `parts` of each segment (text that is not white space alone)."""
    return [i for i in range(0, len(parts), 2) if parts[i] and not parts[i].isspace()]


def scramble(text: str, rng: random.Random) -> str:
    """The same length and shape, other letters and digits: a token, an id, a time."""
    return "".join(rng.choice(ALNUM) if c.isalnum() else c for c in text)


def reading(html: str) -> tuple[str | None, str]:
    page = extract_main_text(html)
    return page.title, page.text


@pytest.mark.slow
def test_chrome_changes_take_the_fast_way_and_never_hide_a_change() -> None:
    rng = random.Random(17)
    fast = checked = 0
    for index, parts in enumerate(corpus()):
        _, read, made, mask = base(index)
        if made is None:
            continue
        checked += 1
        changed = list(parts)
        for part, kept in zip(segment_parts(parts), mask, strict=True):
            # The title and a <time> element's date are part of the reading; words
            # trafilatura filters out ("Share", "Print") decide what it keeps: changing
            # any of them is a change to read.
            if kept or parts[part - 1].lower().startswith(("<title", "<time")):
                continue
            if not fingerprint.filtered(parts[part]):
                changed[part] = scramble(parts[part], rng)
        mutated = "".join(changed)
        if fingerprint.same_text(made, mutated):
            fast += 1
            assert reading(mutated) == read, f"corpus page {index}: the fast way hid a change"
        # and a change to the main text is always read
        kept_parts = [p for p, k in zip(segment_parts(parts), mask, strict=True) if k]
        longest = max(kept_parts, key=lambda p: len(parts[p]))
        changed = list(parts)
        changed[longest] = scramble(parts[longest], rng)
        assert not fingerprint.same_text(made, "".join(changed)), f"corpus page {index}"
    # the fast way is the usual one: the chrome of nearly every page may change freely
    assert checked >= 150 and fast >= 0.9 * checked, (checked, fast)


EDITS = st.sampled_from(["scramble", "drop", "double", "word"])


@pytest.mark.slow
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=0, max_value=10_000),
    st.lists(EDITS, min_size=1, max_size=4),
    st.randoms(),
)
def test_no_edit_anywhere_hides_a_changed_reading(
    which: int, edits: list[str], rng: random.Random
) -> None:
    pages = corpus()
    index = which % len(pages)
    _, read, made, _ = base(index)
    if made is None:
        return
    parts = list(pages[index])
    segments = segment_parts(parts)
    for edit in edits:
        part = rng.choice(segments)
        text = parts[part]
        if edit == "scramble":
            parts[part] = scramble(text, rng)
        elif edit == "drop":
            parts[part] = ""
        elif edit == "double":
            parts[part] = text + " " + text
        else:
            cut = rng.randrange(len(text) + 1)
            parts[part] = text[:cut] + " Ahead " + text[cut:]
    mutated = "".join(parts)
    if reading(mutated) != read:
        assert not fingerprint.same_text(made, mutated)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=40))
def test_the_quick_fold_folds_as_claims_do(text: str) -> None:
    # A segment is kept when its folded text is in the folded reading: both must fold
    # alike, or a kept cell ("Pro | 29") counts as dropped and its change goes unread.
    from extractors.claims import fold

    assert fingerprint._folded(text) == fold(text)
