"""`evidence diff` of pages of over a million distinct words: a bounded diff with a
note, never a traceback."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from store_support import T0, Warehouse

from evidence_cli.main import main
from extractors.textdiff import MAX_DIFF_TOKENS, cut_for_diff, word_diff

WORDS = 1_100_000  # more distinct words than there are code points to stand for them


def test_cut_for_diff_keeps_a_text_within_the_cap_whole() -> None:
    text = "a b " * 10
    assert cut_for_diff(text) == (text, False)


def test_cut_for_diff_cuts_at_the_cap_on_a_word() -> None:
    text = " ".join(f"w{i}" for i in range(MAX_DIFF_TOKENS))  # twice the cap, with spaces
    cut, was_cut = cut_for_diff(text)
    assert was_cut and text.startswith(cut)
    assert len(cut.split()) == MAX_DIFF_TOKENS // 2


@pytest.mark.slow
def test_word_diff_of_a_million_distinct_words_is_bounded() -> None:
    old = " ".join(f"w{i}" for i in range(WORDS))
    new = " ".join(f"v{i}" for i in range(WORDS))
    started = time.monotonic()
    runs = word_diff(old, new)
    assert time.monotonic() - started < 60
    assert {"-", "+"} <= {op for op, _ in runs}


@pytest.fixture
def huge(tmp_path: Path) -> Path:
    w = Warehouse(tmp_path / "w.duckdb")
    w.catalog({"c": None}, ["p"])
    w.fetch("p", T0, body=" ".join(f"w{i}" for i in range(WORDS)))
    w.fetch("p", T0.replace(hour=7), body=" ".join(f"v{i}" for i in range(WORDS)))
    w.con.close()
    return tmp_path / "w.duckdb"


@pytest.mark.slow
def test_diff_of_two_huge_pages_says_it_compared_their_beginnings(
    huge: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["diff", "r", "p", "--db", str(huge)])
    out = capsys.readouterr()
    assert code == 0, out.err[-2000:]
    assert "Traceback" not in out.err
    assert f"their first {MAX_DIFF_TOKENS:,} words and spaces compared" in out.out
    assert "[-w0" in out.out and "{+v0" in out.out
