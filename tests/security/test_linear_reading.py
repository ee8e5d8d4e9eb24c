"""A page never costs more than its share of a run: every pattern the readers use runs in
linear time on any text, and a page that holds more than a page of prose does is read in
part and says so.

Each bound here is many times what a linear reading takes; a reading whose time grows
with the square of a run (a pattern with two adjacent parts that both take the run's
character) passes it by seconds to hours.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from extractors.numbers import extract_numbers
from extractors.page import extract_page
from extractors.status_lexicon import lexicon
from extractors.statuses import MAX_HEADS, read_statuses

pytestmark = pytest.mark.slow  # seconds of reading runs of every separator

NOW = datetime(2026, 12, 1, tzinfo=UTC)
# What can stand between words on a page: white space of every kind, dashes, quotes,
# punctuation a reader splits on.
SEPARATORS = [" ", "\t", "\n", "\u00a0", "-", "\u2010", "\u2013", "\u2014", "'", "\u2019"]
SEPARATORS += [".", ",", ":", ";", "|", "_", "/", "*", "(", "!", "?", "=", "#"]
RUN = 30_000  # characters of one separator after a head word
BOUND_S = 1.0  # for reading RUN characters: a linear reading takes a few milliseconds


def heads() -> list[str]:
    return sorted(lexicon().by_head)


def timed(read: object, text: str) -> float:
    start = time.process_time()
    read(text)  # type: ignore[operator]
    return time.process_time() - start


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    head=st.sampled_from(heads()),
    sep=st.sampled_from(SEPARATORS),
    lead=st.sampled_from(["", "The limit has been ", "Applications ", "we "]),
    after=st.sampled_from(["", " x.", " applications", "-"]),
)
def test_a_run_of_any_separator_after_any_head_word_is_read_in_linear_time(
    head: str, sep: str, lead: str, after: str
) -> None:
    text = f"{lead}{head}{sep * RUN}{after}"
    took = timed(read_statuses, text)
    assert took < BOUND_S, f"{head!r} then {RUN} x {sep!r}: {took:.2f} s"
    took = timed(read_statuses, f"{sep * RUN}{head} {after}")
    assert took < BOUND_S, f"{RUN} x {sep!r} then {head!r}: {took:.2f} s"


@pytest.mark.parametrize("head", ["reached", "accept", "accepting", "closed", "sold out"])
@pytest.mark.parametrize("sep", ["-", " ", "\u2014", "'"])
def test_the_runs_that_held_a_refresh_for_hours(head: str, sep: str) -> None:
    """A run of hyphens after "reached" or "accept" once took the status reader 23 s at
    40,000 characters; runs of spaces after a head word repeated, a minute at 1 MB."""
    for text in (head + sep * 40_000, (head + sep * 2_000) * 20):
        assert timed(read_statuses, text) < BOUND_S


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sep=st.sampled_from(SEPARATORS),
    lead=st.sampled_from(["$4,000", "500 GPU hours", "20%", "1 March 2026", "Q3", "v2"]),
)
def test_a_run_of_any_separator_after_a_figure_is_read_in_linear_time(sep: str, lead: str) -> None:
    text = f"{lead}{sep * RUN} and {lead}"
    took = timed(lambda t: extract_numbers(t, NOW), text)
    assert took < BOUND_S, f"{lead!r} then {RUN} x {sep!r}: {took:.2f} s"


@pytest.mark.parametrize("char", ["-", " ", "\u2014", "."])
def test_a_megabyte_page_of_one_character_is_read_in_under_a_second(char: str) -> None:
    body = (
        "<html><body><main><p>Applications reached" + char * 1_000_000 + "</p></main></body></html>"
    )
    start = time.process_time()
    extract_page(body, "https://example.org/", NOW)
    assert time.process_time() - start < 5 * BOUND_S  # trafilatura parses the megabyte too
    assert timed(read_statuses, "reached" + char * 1_000_000) < BOUND_S


def test_a_page_of_status_words_by_the_thousand_is_read_in_part_and_says_so() -> None:
    text = "Applications are closed. " * (MAX_HEADS + 500)
    reading = read_statuses(text)
    assert reading.partly
    assert [m.status.value for m in reading.mentions][:1] == ["closed"]
    page = extract_page(f"<html><body><main><p>{text}</p></main></body></html>", None, NOW)
    assert page.read_partly == f"status words past the first {MAX_HEADS:,}"
    prose = extract_page("<html><main><p>Applications are closed.</p></main></html>", None, NOW)
    assert prose.read_partly is None
