"""`evidence diff`'s word-level differences (the CLI itself: tests/test_history.py)."""

from __future__ import annotations

import gzip
from datetime import UTC, date, datetime

from hypothesis import given, settings
from hypothesis import strategies as st
from support import need_corpus

from evidence_cli.diff import changed_lines, pick
from extractors.text import extract_main_text
from extractors.textdiff import appeared_and_went, word_diff
from warehouse.queries import SnapshotText

WORDS = st.lists(st.sampled_from(["credits", "$2,000", "teams", "\n", " ", "the", "GPU"]))


@settings(max_examples=200, deadline=None)
@given(WORDS.map("".join), WORDS.map("".join))
def test_the_runs_rebuild_both_texts(old: str, new: str) -> None:
    runs = word_diff(old, new)
    assert "".join(t for op, t in runs if op != "+") == old
    assert "".join(t for op, t in runs if op != "-") == new


def test_one_changed_figure_in_a_long_real_text_is_one_edit() -> None:
    page = next((need_corpus() / "html").glob("*.html.gz"))
    text = extract_main_text(gzip.decompress(page.read_bytes()).decode("utf-8", "replace")).text
    words = text.split(" ")
    middle = len(words) // 2
    changed = " ".join([*words[:middle], "$4,000", *words[middle + 1 :]])
    runs = word_diff(text, changed)
    edits = [(op, t) for op, t in runs if op != "="]
    assert edits == [("-", words[middle]), ("+", "$4,000")]


def test_changed_lines_mark_words_and_skip_unchanged_lines() -> None:
    old = "Teams get $2,000 in credits.\nRules stay.\nMore rules.\nSeats are open."
    new = "Teams get $2,500 in credits.\nRules stay.\nMore rules.\nSeats are closed."
    lines = changed_lines(word_diff(old, new))
    assert lines == [
        "Teams get [-$2,000-]{+$2,500+} in credits.",
        "…",
        "Seats are [-open.-]{+closed.+}",
    ]
    coloured = changed_lines(word_diff(old, new), colour=True)
    assert "\033[31m[-$2,000-]\033[0m" in coloured[0]


def test_pick_takes_the_snapshots_current_at_each_date() -> None:
    snaps = [
        SnapshotText(i, datetime(2026, 11, d, 6, tzinfo=UTC), str(i))
        for i, d in ((1, 2), (2, 5), (3, 9))
    ]
    assert pick(snaps, None, None) == (snaps[1], snaps[2])
    assert pick(snaps, date(2026, 11, 3), None) == (snaps[0], snaps[2])
    assert pick(snaps, date(2026, 11, 2), date(2026, 11, 6)) == (snaps[0], snaps[1])
    assert pick(snaps, None, date(2026, 11, 3)) is None  # one snapshot by then
    assert pick(snaps, date(2026, 11, 1), None) is None  # none yet at the start


def test_figures_that_appeared_and_went_count_repeats() -> None:
    added, gone = appeared_and_went(["$2,000", "$2,000", "5 GB"], ["$2,000", "$2,500", "5 GB"])
    assert added == ["$2,500"] and gone == ["$2,000"]


def test_more_distinct_words_than_code_points_below_the_surrogates() -> None:
    # each distinct word is one symbol; past 55,000 or so they skip the surrogate range
    words = [f"w{i}" for i in range(60_000)]
    old = " ".join(words)
    new = " ".join(["first", *words[1:-1], "last"])
    runs = word_diff(old, new)
    assert [r for r in runs if r[0] != "="] == [
        ("-", "w0"),
        ("+", "first"),
        ("-", "w59999"),
        ("+", "last"),
    ]
    assert "".join(t for op, t in runs if op != "+") == old
