"""Property tests: arbitrary text and bytes never make an extractor raise."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from extractors.claims import (
    _fold_offsets,
    _fold_offsets_by_char,
    fold,
    match_claim,
    normalize_text,
)
from extractors.encoding import decode_body
from extractors.figures import scan
from extractors.numbers import extract_numbers
from extractors.page import extract_page
from extractors.soft import classify_response
from extractors.statuses import extract_statuses

NOW = datetime(2026, 11, 30, tzinfo=UTC)
# Text that looks like the pages we read: digits, currency, dashes, quotes, odd spaces.
PIECES = [
    *"0123456789 ,.$€£%-–—/+kM\u00a0",
    "USD ",
    "per ",
    "days ",
    "March ",
    "to ",
    "up to ",
    "seats ",
    "\u201c",
    "\u2019",
]
figures = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)
anything = st.one_of(st.text(max_size=500), figures)
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(anything)
def test_numbers_and_statuses_never_raise(text: str) -> None:
    for n in extract_numbers(text, NOW):
        assert n.raw and n.sentence
    for s in extract_statuses(text):
        assert s.phrase


# Text for the fast ways of reading figures: hints and case-folded patterns.
CASE_FOLDS = st.one_of(
    figures,
    st.lists(
        st.sampled_from(
            # with the characters re.I matches to ASCII letters that lower() keeps apart
            [
                *PIECES,
                "Jan ",
                "2026-01-",
                "GB ",
                "EUR ",
                "\u017fep ",
                "MAY ",
                "Twelve ",
                "\u0130",
                "\u0131",
                "\u212a",
                "DOLLARS",
                "Percent",
            ]
        ),
        max_size=60,
    ).map("".join),
    # figures with units in any case, the way pages write them
    st.lists(
        st.sampled_from([*PIECES, "GPU ", "Hours", "H100 ", "MILLION ", "Sept ", "\u0130", "ſ"]),
        max_size=60,
    ).map("".join),
)


@FAST
@given(CASE_FOLDS)
def test_pattern_hints_never_hide_a_figure(text: str) -> None:
    hinted = extract_numbers(text, NOW)
    scan.USE_HINTS = False  # every rule on every sentence
    try:
        assert extract_numbers(text, NOW) == hinted
    finally:
        scan.USE_HINTS = True


@FAST
@given(anything, anything)
def test_claim_matching_never_raises(quote: str, page: str) -> None:
    check = match_claim(quote, page)
    if check.found_text is not None:
        assert check.found_text in page


@FAST
@given(anything)
def test_fast_fold_and_offsets_agree(text: str) -> None:
    assert len(_fold_offsets(text)) == len(fold(text))
    norm = normalize_text(text)
    if norm.folded:
        assert fold(norm.span(0, len(norm.folded))) == norm.folded
    assert _fold_offsets(text) == _fold_offsets_by_char(text)  # the fast way is the same


@FAST
@given(st.text(max_size=2000))
def test_pages_never_raise(html: str) -> None:
    page = extract_page(html, None, NOW)
    assert isinstance(page.text, str)
    classify_response("http://a.example/x", "http://a.example/", 200, html)


@FAST
@given(st.binary(max_size=3000), st.sampled_from([None, "utf-8", "latin-1", "bogus", "utf-16"]))
def test_decode_never_raises(body: bytes, declared: str | None) -> None:
    text, encoding = decode_body(body, declared)
    assert (text is None) == (encoding is None)


@FAST
@given(CASE_FOLDS)
def test_folded_patterns_find_what_the_case_blind_ones_find(text: str) -> None:
    folded = extract_numbers(text, NOW)
    scan.USE_FOLDED = False  # the re.I patterns on the text as it is
    try:
        assert extract_numbers(text, NOW) == folded
    finally:
        scan.USE_FOLDED = True
