"""A pull request's body stays under the forge's limit: lines are added whole while they
fit, and what does not fit is counted, never cut mid-line."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from evidence_cli.proposal import Budget


@given(st.lists(st.lists(st.text(max_size=300), min_size=1, max_size=5), max_size=200))
def test_lines_go_in_whole_or_not_at_all(blocks: list[list[str]]) -> None:
    out = Budget(5_000)
    kept: list[str] = []
    total = 0
    for block in blocks:  # the expected lines, by a running total of their own
        size = sum(len(line) + 1 for line in block)
        if total + size <= 5_000:
            kept.extend(block)
            total += size
        out.add(block)
    assert out.lines == kept
    assert len(out.text()) <= 5_000 + 1
    assert out.size == total


def test_a_reserve_keeps_room_for_the_closing_lines() -> None:
    out = Budget(1_000)
    out.add(["x" * 700])
    assert not out.fits(["y" * 200], reserve=200)
    assert out.fits(["y" * 200])


def test_a_pages_backticks_never_close_the_fence() -> None:
    from evidence_cli.proposal import _fence

    assert _fence("plain words") == "````"
    text = "a page with ````` five and ``` three"
    fence = _fence(text)
    assert len(fence) == 6 and fence not in text
