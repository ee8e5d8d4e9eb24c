"""The fingerprint's parts on small pages written for each rule (test_fingerprint.py holds
it against full readings of the corpus): the skeleton, what is dropped, blocks, the kept
mask and the check of a new page against a fingerprint."""

from __future__ import annotations

import struct

import pytest
import zstandard

from extractors import fingerprint as fp

MAIN = "Teams get up to $4,000 in cloud credits for the research challenge this year."
PAGE = (
    "<html><head><title>Credits</title><meta name='csrf' content='abc123'>"
    "<script>var token = 'x1';</script><style>p {}</style></head><body>"
    "<nav class='menu'><a href='/a?s=1'>Home</a> <a href='/b'>Share</a></nav>"
    f"<main><p>{MAIN}</p></main>"
    "<footer><span data-request='r-1'>Rendered in 12 ms</span></footer></body></html>"
)


def made(html: str = PAGE) -> bytes:
    """The fingerprint of a PAGE-like page, whose reading is its main paragraph."""
    fingerprint = fp.make(html, MAIN)
    assert fingerprint is not None
    return fingerprint


def test_segments_and_blocks() -> None:
    page = fp.scan("<p>a<b>b</b></p><div>c</div>d<br>e<span>f</span>")
    assert page.segments == ["a", "b", "c", "d", "e", "f"]
    assert fp._blocks(page.parts) == [1, 1, 3, 4, 5, 5]


def test_blocks_of_tags_the_expressions_see_apart_are_counted_by_hand() -> None:
    # a NUL inside a tag splits it in the joined list: each tag is then read on its own
    page = fp.scan("<div title='a\0b'>x</div><P>y</P><br/>z<custom-tag>w")
    assert page.segments == ["x", "y", "z", "w"]
    assert fp._blocks(page.parts) == [1, 3, 5, 5]


def test_comments_scripts_and_styles_are_emptied() -> None:
    html = (
        "<p>a</p><!-- hidden --><SCRIPT type='x'>if (a < b) {}</SCRIPT>"
        "<style>b{}</style ><p>c</p><!-- never closed"
    )
    page = fp.scan(html)
    assert page.segments == ["a", "c"]
    assert "".join(page.parts) == "<p>a</p><script type='x'></script><style></style><p>c</p>"
    unclosed = fp.scan("<p>a</p><script>var x = '<p>b</p>';")
    assert unclosed.segments == ["a"]
    # a capital that lowers to two letters: found by its ASCII lowering
    odd = fp.scan("<p>İstanbul</p><SCRIPT>x</SCRIPT><p>c</p>")
    assert odd.segments == ["İstanbul", "c"]


def test_every_comment_is_dropped_on_its_own() -> None:
    assert fp.scan("<p>a</p><!-- x --><p>b</p><!-- y --><p>c</p>").segments == ["a", "b", "c"]


def test_a_script_end_tag_left_open_ends_the_page() -> None:
    assert fp.scan("<p>a</p><script>x</script").segments == ["a"]


def test_text_before_the_first_block_is_a_block_of_its_own() -> None:
    page = fp.scan("intro<p>Teams get credits</p>")
    assert fp._blocks(page.parts) == [0, 1]
    assert fp.kept_mask(page, "Teams get credits") == [False, True]


def test_a_title_at_the_very_start_is_in_the_skeleton() -> None:
    html = "<title>Nimbus</title><p>Teams get credits for the research challenge.</p>"
    fingerprint = fp.make(html, "Teams get credits for the research challenge.")
    assert fingerprint is not None
    assert not fp.same_text(fingerprint, html.replace("Nimbus", "Nimbux"))  # same length


def test_the_whole_text_of_an_unclosed_json_ld_block_counts() -> None:
    ld = '<p>a</p><script type="application/ld+json">{"datePublished": "2026-01-01"}'
    assert fp.scan(ld).skeleton != fp.scan(ld[:-1] + "]").skeleton


def test_the_skeleton_holds_read_attributes_and_always_kept_text() -> None:
    base = fp.scan(PAGE).skeleton
    same = [
        PAGE.replace("abc123", "zzz999"),  # a CSRF value: not read
        PAGE.replace("r-1", "r-2"),  # a request id
        PAGE.replace("/a?s=1", "/a?s=2"),  # of a link, only that it has an address
        PAGE.replace("var token = 'x1'", "var token = 'x2'"),  # script contents
        PAGE.replace("Rendered in 12 ms", "Rendered in 99 ms"),  # text: not the skeleton
    ]
    for html in same:
        assert fp.scan(html).skeleton == base, html
    different = [
        PAGE.replace("class='menu'", "class='menu2'"),  # read by the extractor
        PAGE.replace("<title>Credits", "<title>Credit"),  # always kept
        PAGE.replace("<main>", "<main><div>"),  # another tag
        PAGE.replace("</p></main>", "</p> x</main>"),  # text where there was none
        PAGE.replace("</head>", "<meta name='date' content='2026-01-01'></head>"),
        PAGE.replace("</p>", "<time>May 5</time></p>"),
        PAGE.replace("</head>", '<script type="application/ld+json">{"a": 1}</script></head>'),
    ]
    for html in different:
        assert fp.scan(html).skeleton != base, html
    ld = '<script type="application/ld+json">{"a": 1}</script>'
    assert fp.scan(ld).skeleton != fp.scan(ld.replace("1", "2")).skeleton


def test_the_kept_mask_is_whole_blocks_and_needs_the_main_text_covered() -> None:
    html = "<div><p>Teams get credits</p> for research <b>this year</b></div><nav>Menu</nav>"
    page = fp.scan(html)
    assert page.segments == ["Teams get credits", " for research ", "this year", "Menu"]
    # "this year" is in the text: its block (the words after </p>) is kept whole
    assert fp.kept_mask(page, "Teams get credits\nthis year") == [True, True, True, False]
    assert fp.kept_mask(page, "Teams get credits") == [True, False, False, False]
    assert fp.kept_mask(page, "Teams get credits and something the page never said") is None
    assert fp.kept_mask(page, "") == [False, False, False, False]
    # folding: case, spaces, entities and thousands commas do not matter
    money = fp.scan("<p>UP TO  $4,000 &amp; more</p><p>x</p>")
    assert fp.kept_mask(money, "up to $4000 & more") == [True, False]


def test_coverage_of_97_percent_is_enough() -> None:
    page = fp.scan(f"<p>{'a' * 97}</p>")
    assert fp.kept_mask(page, "a" * 97 + " " + "b" * 3) is not None
    assert fp.kept_mask(page, "a" * 97 + " " + "b" * 4) is None


def test_words_trafilatura_filters() -> None:
    assert fp.filtered("Twitter")
    assert fp.filtered("intro\n  Print")  # any line of the segment
    assert fp.filtered("&#80;rint")  # as the page shows it
    assert not fp.filtered("Print this page")
    assert not fp.filtered("Teams share credits")


def test_an_unchanged_page_or_one_changed_outside_the_reading_is_the_same() -> None:
    fingerprint = made()
    assert fp.same_text(fingerprint, PAGE)
    assert fp.same_text(fingerprint, PAGE.replace("abc123", "zzz999"))
    assert fp.same_text(fingerprint, PAGE.replace("12 ms", "99 ms"))  # same length


@pytest.mark.parametrize(
    "changed",
    [
        PAGE.replace("$4,000", "$5,000"),  # the main text
        PAGE.replace("12 ms", "123 ms"),  # dropped text of another length
        PAGE.replace("Home", "Mail"),  # a word the filter matches, same length
        PAGE.replace("class='menu'", "class='nav'"),  # the skeleton
        PAGE.replace("<span", "<i>x</i><span"),  # another segment
    ],
)
def test_a_change_the_reading_may_see_is_read(changed: str) -> None:
    assert not fp.same_text(made(), changed)


def test_a_damaged_or_foreign_fingerprint_means_read() -> None:
    fingerprint = made()
    assert not fp.same_text(b"not zstd", PAGE)
    body = zstandard.ZstdDecompressor().decompress(fingerprint)
    again = zstandard.ZstdCompressor().compress
    assert fp.same_text(again(body), PAGE)
    assert not fp.same_text(again(bytes([fp.FORMAT + 1]) + body[1:]), PAGE)
    assert not fp.same_text(again(body[:-1]), PAGE)  # a length missing
    assert not fp.same_text(again(body + b"\0\0"), PAGE)
    count = struct.unpack_from("<BI", body)[1]
    other = body[:1] + struct.pack("<I", count + 1) + body[5:]
    assert not fp.same_text(again(other), PAGE)
    assert not fp.same_text(again(body[:3]), PAGE)


def test_a_segment_too_long_to_measure_is_always_read() -> None:
    long = "z" * 0x7FFF
    html = PAGE.replace("Rendered in 12 ms", long)
    fingerprint = made(html)
    assert not fp.same_text(fingerprint, html)
    shorter = PAGE.replace("Rendered in 12 ms", "z" * 0x7FFE)
    fingerprint = made(shorter)
    assert fp.same_text(fingerprint, shorter)


def test_no_fingerprint_when_the_reading_is_not_on_the_page() -> None:
    assert fp.make(PAGE, "A text this page does not hold anywhere at all.") is None
