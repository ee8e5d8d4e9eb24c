"""Reading one page: the main text's fallback reading, the parser trafilatura is given,
and what extract_page returns (text, title, method, figures, statuses and dates)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import lxml.html
import pytest
import trafilatura.utils

from extractors.claims import fold
from extractors.numbers import extract_numbers
from extractors.page import extract_page
from extractors.statuses import extract_statuses
from extractors.text import (
    C_LOOKUP,
    SHORT_TEXT,
    extract_main_text,
    fallback_text,
    parse_html,
    use_element_lookup,
)
from extractors.values import PageText

FETCHED = datetime(2026, 11, 4, 6, 0, tzinfo=UTC)
PARAGRAPH = "<p>" + "Credits are given to teams that apply before the deadline. " * 5 + "</p>"


def test_trafilatura_parses_into_plain_html_elements() -> None:
    html = (
        "<html><body><form><input name='q'><label>Q</label></form>" + PARAGRAPH + "</body></html>"
    )
    try:
        use_element_lookup(lxml.html.HtmlElementClassLookup())
        assert type(parse_html(html).find(".//form")) is lxml.html.FormElement
    finally:
        use_element_lookup(C_LOOKUP)
    tree = parse_html(html)
    assert {type(e) for e in tree.iter("form", "input", "label")} == {lxml.html.HtmlElement}
    assert trafilatura.utils.HTML_PARSER is not None


def test_nul_characters_are_dropped_before_parsing() -> None:
    tree = parse_html("<html><body><p>cre\x00dits</p></body></html>")
    assert tree.find(".//p").text_content() == "credits"


@pytest.mark.parametrize(
    ("html", "text"),
    [
        (
            "<body><p>outside</p><article><p>story</p></article>"
            "<main><p>the main part</p></main></body>",
            "the main part",
        ),
        ("<body><p>outside</p><article><p>the story</p></article></body>", "the story"),
        ("<html><head><title>T</title></head><body><p>the body</p></body></html>", "the body"),
        ("just text, no body", "just text, no body"),
        # Python's own parser: what follows </body> is not put back into the body
        ("<body><p>one</p></body><p>two</p>", "one"),
    ],
)  # fmt: skip
def test_the_fallback_reads_main_then_article_then_body(html: str, text: str) -> None:
    assert fallback_text(html) == text


def test_the_fallback_drops_chrome_and_breaks_lines_at_blocks() -> None:
    html = (
        "<body><nav>Home</nav><header>Site</header><div>First <b>line</b></div>"
        "<table><tr><td>a</td><td>b</td></tr></table><!-- note --><footer>(c)</footer></body>"
    )
    assert fallback_text(html) == "First line\na | b"


def test_markup_the_parser_rejects_is_read_with_its_tags_stripped() -> None:
    assert fallback_text("<p>Up to $300</p><![0<p>a month</p>") == "Up to $300\na month"


def test_a_short_page_is_read_without_its_chrome() -> None:
    html = "<html><body><nav>Home About Pricing</nav><p>Credits are closed.</p></body></html>"
    page = extract_main_text(html)
    assert (page.text, page.method) == ("Credits are closed.", "fallback")
    assert extract_main_text("  \n ").method == "empty"


def test_a_short_page_whose_fallback_finds_nothing_keeps_trafilaturas_reading() -> None:
    html = "<html><head><title>T</title></head><body><nav><p>Credits are closed.</p></nav>"
    assert extract_main_text(html) == PageText("T", "Credits are closed.", "trafilatura")


def test_a_page_of_exactly_the_short_length_is_trafilaturas() -> None:
    paragraph = "Credits " + "x" * (SHORT_TEXT - 9) + "."
    assert len(paragraph) == SHORT_TEXT
    html = f"<html><body><main><p>{paragraph}</p></main></body></html>"
    assert extract_main_text(html) == PageText(None, paragraph, "trafilatura")
    shorter = f"<html><body><main><p>{paragraph[1:]}</p></main></body></html>"
    assert extract_main_text(shorter).method == "fallback"


def test_nul_characters_do_not_split_words() -> None:
    text = extract_main_text("<html><body><p>cre\x00dits for every team</p></body></html>").text
    assert text == "credits for every team"


def test_extract_page_returns_every_reading() -> None:
    html = (
        "<html><head><title>Nimbus  credits</title></head><body><article>"
        "<p>Teams get up to $4,000 in credits. Applications are closed for 2026.</p>"
        + PARAGRAPH
        + "</article></body></html>"
    )
    page = extract_page(html, "https://nimbus.example/credits", FETCHED)
    assert page.title == "Nimbus credits"
    assert page.method == "trafilatura"
    assert page.text.startswith("Teams get up to $4,000 in credits.")
    assert page.folded == fold(page.text)
    assert page.numbers == tuple(extract_numbers(page.text, FETCHED))
    assert any(n.value == 4000 for n in page.numbers)
    assert page.statuses == tuple(extract_statuses(page.text))
    assert [s.status for s in page.statuses] == ["closed"]


def test_a_page_with_no_date_of_its_own_is_dated_by_htmldate() -> None:
    # only a free-text footer date: our dates find nothing, htmldate's quick search does
    html = (
        "<html><head><title>T</title></head><body>"
        "<div class='footer'>Last edited 2019-07-08 by admin</div>" + PARAGRAPH + "</body></html>"
    )
    assert extract_page(html, None, FETCHED).published_on == date(2019, 7, 8)


def test_htmldate_is_not_asked_to_guess_from_a_copyright_line() -> None:
    html = "<html><body>" + PARAGRAPH + "<footer>© 2018 Nimbus</footer></body></html>"
    assert extract_page(html, None, FETCHED).published_on is None


def test_htmldate_takes_no_date_after_the_fetch() -> None:
    html = (
        "<html><head><title>T</title></head><body>"
        "<div class='footer'>Last edited 2026-11-20 by admin</div>" + PARAGRAPH + "</body></html>"
    )
    found = extract_page(html, None, FETCHED).published_on
    assert found is None or found <= FETCHED.date()


def test_the_pages_own_dates_are_not_replaced_by_htmldate() -> None:
    html = (
        "<html><head><title>T</title><meta property='article:published_time' content='2021-03-04'>"
        "<meta property='article:modified_time' content='2022-05-06'></head><body>"
        "<div class='footer'>Last edited 2019-07-08 by admin</div>" + PARAGRAPH + "</body></html>"
    )
    page = extract_page(html, None, FETCHED)
    assert (page.published_on, page.modified_on) == (date(2021, 3, 4), date(2022, 5, 6))


def test_a_page_with_no_main_text_is_not_dated() -> None:
    # htmldate would find the footer's date; a page with nothing to read needs none
    html = "<html><body><footer>Last edited 2019-07-08 by admin</footer></body></html>"
    page = extract_page(html, None, FETCHED)
    assert (page.text, page.published_on) == ("", None)
