"""A page's own dates, place by place (extractors/dates.py): visible lines, JSON-LD,
meta tags and <time> elements, each with its edges; the real pages are in
test_provenance.py."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime

import pytest

from extractors.dates import EARLIEST, page_dates

FETCHED = datetime(2026, 11, 4, 6, 0, tzinfo=UTC)
D1, D2, D3, D4 = date(2021, 3, 4), date(2022, 5, 6), date(2023, 7, 8), date(2024, 9, 10)


def dates(html: str = "", text: str = "") -> tuple[date | None, date | None]:
    return page_dates(html, text, FETCHED)


def ld(*blocks: object) -> str:
    return "".join(
        f'<script type="application/ld+json">{b if isinstance(b, str) else json.dumps(b)}</script>'
        for b in blocks
    )


@pytest.mark.parametrize(
    ("day", "believed"),
    [
        (EARLIEST, True),
        (date(1994, 12, 31), False),
        (FETCHED.date(), True),
        (date(2026, 11, 5), False),  # after the fetch
    ],
)
def test_only_dates_between_1995_and_the_fetch_are_believed(day: date, believed: bool) -> None:
    html = f'<meta property="article:published_time" content="{day.isoformat()}T10:00:00Z">'
    assert dates(html) == ((day if believed else None), None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Published on: March 4, 2021", (D1, None)),
        ("  Originally published 4 March 2021\nLast updated May 6, 2022", (D1, D2)),
        ("Posted 2021-03-04", (D1, None)),
        ("Last modified: May 6, 2022", (None, D2)),
        ("Modified May 6, 2022", (None, D2)),
        ("Last reviewed on May 6, 2022", (None, D2)),
        ("Updated May 6, 2022\nUpdated July 8, 2023", (None, D2)),  # the first line counts
        ("Published in the journal Nature\nPublished March 4, 2021", (D1, None)),
        ("Published 250 papers since 2020", (None, None)),  # a count and a year: no date
        ("The report was published March 4, 2021", (None, None)),  # not a line of its own
        ("Updated March 3-5, 2022", (None, None)),  # a range dates nothing
    ],
)
def test_visible_published_and_updated_lines(text: str, expected: tuple) -> None:
    assert dates(text=text) == expected


def test_only_the_start_of_a_long_text_is_searched_for_lines() -> None:
    assert dates(text="x" * 19_990 + "\nPublished March 4, 2021") == (None, None)
    assert dates(text="x" * 19_960 + "\nPublished March 4, 2021") == (D1, None)
    # cut in its year: the line reads "March 4, 202", which is no date of 2021
    line = "\nPublished March 4, 2021"
    assert dates(text="x" * (20_001 - len(line)) + line)[0] != D1


def test_a_visible_line_outranks_json_ld_which_outranks_meta_and_time() -> None:
    meta = (
        f'<meta property="article:published_time" content="{D3}">'
        f'<meta property="article:modified_time" content="{D3}">'
    )
    time = f'<time datetime="{D4}"></time><time class="updated" datetime="{D4}"></time>'
    block = ld({"datePublished": str(D2), "dateModified": str(D2)})
    assert dates(meta + time + block, "Published March 4, 2021") == (D1, D2)
    assert dates(meta + time + block) == (D2, D2)
    assert dates(meta + time) == (D3, D3)
    assert dates(time) == (D4, D4)


@pytest.mark.parametrize(
    ("blocks", "expected"),
    [
        ([{"datePublished": "2021-03-04T09:00:00+02:00"}], (D1, None)),
        ([{"dateModified": "2022-05-06"}], (None, D2)),
        ([{"@graph": [{"@type": "WebPage"}, {"datePublished": "2021-03-04"}]}], (D1, None)),
        ([{"mainEntity": {"dateModified": "2022-05-06"}}], (None, D2)),
        ([{"mainEntityOfPage": {"datePublished": "2021-03-04"}}], (D1, None)),
        ([[{"x": 1}, {"datePublished": "2021-03-04"}]], (D1, None)),
        ([{"datePublished": ["2021-03-04", "2022-05-06"]}], (D1, None)),  # a list: its first
        ([{"datePublished": 20210304}], (None, None)),
        ([{"datePublished": []}], (None, None)),
        (['{"datePublished": "2021-03-04"};'], (D1, None)),  # a stray semicolon
        (['{"broken": ', {"datePublished": "2021-03-04"}], (D1, None)),  # next block read
        # the outer object first, then inner ones
        ([{"datePublished": "2021-03-04", "@graph": [{"datePublished": "2023-07-08"}]}],
         (D1, None)),
        # once both are found, later blocks are not read
        ([{"datePublished": "2021-03-04", "dateModified": "2022-05-06"},
          {"datePublished": "2023-07-08", "dateModified": "2024-09-10"}], (D1, D2)),
        # one found in each block
        ([{"datePublished": "2021-03-04"},
          {"datePublished": "2023-07-08", "dateModified": "2022-05-06"}], (D1, D2)),
    ],
)  # fmt: skip
def test_json_ld_dates(blocks: list, expected: tuple) -> None:
    assert dates(ld(*blocks)) == expected


def nested(depth: int) -> dict:
    item: dict = {"datePublished": "2021-03-04"}
    for _ in range(depth):
        item = {"@graph": [item]}  # a list inside an object: two levels each
    return item


def test_json_ld_is_read_six_levels_deep_and_fifty_items_wide() -> None:
    assert dates(ld({"mainEntity": {"mainEntity": {"datePublished": "2021-03-04"}}}))[0] == D1
    assert dates(ld(nested(3)))[0] == D1  # the date's object at depth 6
    assert dates(ld(nested(3) | {"x": 0}))[0] == D1
    assert dates(ld({"x": nested(3)}))[0] is None  # not a place dates are kept
    assert dates(ld({"mainEntity": nested(3)}))[0] is None  # depth 7
    wide = [{"x": i} for i in range(49)]
    assert dates(ld([*wide, {"datePublished": "2021-03-04"}]))[0] == D1
    assert dates(ld([*wide, {"x": 49}, {"datePublished": "2021-03-04"}]))[0] is None


@pytest.mark.parametrize(
    ("metas", "expected"),
    [
        ('<meta name="date" content="2023-07-08">'
         '<meta property="og:published_time" content="2021-03-04">', (D1, None)),
        ("<meta NAME='DC.date.issued' CONTENT='2021-03-04'>", (D1, None)),
        ("<meta itemprop=datePublished content=2021-03-04>", (D1, None)),
        ('<meta property="og:updated_time" name="x" content="2022-05-06">', (None, D2)),
        ('<meta name="lastmod" content="2022-05-06">'
         '<meta name="lastmod" content="2023-07-08">', (None, D2)),
        ('<meta name="pubdate" content="not a date">'
         '<meta name="date" content="2021-03-04">', (D1, None)),
        ('<meta name="pubdate" content="2021-02-30">', (None, None)),  # no such day
        ('<meta name="pubdate">', (None, None)),
        ('<meta content="2021-03-04">', (None, None)),
    ],
)  # fmt: skip
def test_meta_dates(metas: str, expected: tuple) -> None:
    assert dates(f"<html><head>{metas}</head></html>") == expected


@pytest.mark.parametrize(
    ("times", "expected"),
    [
        ('<time datetime="2021-03-04">March 4</time>', (D1, None)),
        ('<time>March 4</time><time datetime="2021-03-04">', (D1, None)),
        ('<time datetime="2021-03-04"><time datetime="2023-07-08">', (D1, None)),
        ("<time class='entry-date updated' datetime='2022-05-06'>", (None, D2)),
        ('<time itemprop="dateModified" datetime="2022-05-06">', (None, D2)),
        ('<time id="last-updated" datetime="2022-05-06">', (None, D2)),
        ('<TIME CLASS="Modified" DATETIME="2022-05-06">'
         '<time class="modified" datetime="2023-07-08">', (None, D2)),
        ('<time class="published" datetime="2021-03-04">'
         '<time class="updated" datetime="2022-05-06">', (D1, D2)),
        ('<time datetime="soon"><time datetime="2021-03-04">', (D1, None)),
    ],
)  # fmt: skip
def test_time_element_dates(times: str, expected: tuple) -> None:
    assert dates(f"<p>{times}</p>") == expected


def test_only_the_first_400000_characters_of_the_html_are_read() -> None:
    meta = '<meta name="date" content="2021-03-04">'
    assert dates(" " * (400_000 - len(meta)) + meta)[0] == D1
    assert dates(" " * (400_001 - len(meta)) + meta)[0] is None
