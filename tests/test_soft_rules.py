"""The rules of soft failures one at a time, at their edges: the reasons given, the
thresholds, and app shells (the saved real pages are in test_soft.py)."""

from __future__ import annotations

import pytest

from extractors.soft import (
    MAX_HEADING,
    SHELL_TEXT,
    WALL_TEXT,
    SoftFailure,
    classify_response,
    is_app_shell,
    is_placeholder,
    marker_gates,
    review_reason,
)
from extractors.values import Outcome

URL = "https://nimbus.example/research/credits"


def page(title: str = "Nimbus credits", body: str = "<p>Welcome</p>") -> str:
    return f"<html><head><title>{title}</title></head><body>{body}</body></html>"


def both(url: str, final: str, status: int, html: str, **kw: object) -> SoftFailure | None:
    """The verdict, which must be the same whether the raw UTF-8 bytes are given or not."""
    verdict = classify_response(url, final, status, html, **kw)  # type: ignore[arg-type]
    as_bytes = classify_response(url, final, status, html, utf8=html.encode(), **kw)  # type: ignore[arg-type]
    assert verdict == as_bytes
    return verdict


def test_a_challenge_title_blocks_whatever_the_status() -> None:
    assert both(URL, URL, 200, page("Just a moment...")) == SoftFailure(
        Outcome.BLOCKED, "challenge page (HTTP 200): title 'just a moment...'"
    )
    assert both(URL, URL, 503, page("  Access&nbsp;<b>Denied</b> ")) == SoftFailure(
        Outcome.BLOCKED, "challenge page (HTTP 503): title 'access denied'"
    )


def test_a_marker_blocks_only_a_page_with_next_to_no_text() -> None:
    widget = '<div class="g-recaptcha"></div>'
    # the head (title included) is not visible text
    short = page(body=widget + "<p>" + "x" * (WALL_TEXT - 1) + "</p>")
    assert both(URL, URL, 200, short) == SoftFailure(
        Outcome.BLOCKED, "challenge page (HTTP 200): 'g-recaptcha'"
    )
    # text hidden in scripts, styles and comments is not the page's own
    hidden = "<script>var a = '" + "y" * 5000 + "';</script><!-- " + "z" * 5000 + " -->"
    assert both(URL, URL, 403, page(body=widget + hidden)) is not None
    filled = page(body=widget + "<p>" + "x" * WALL_TEXT + "</p>")
    assert both(URL, URL, 200, filled) is None  # WALL_TEXT visible characters: a page


@pytest.mark.parametrize(("status", "soft"), [(399, True), (400, False), (404, False)])
def test_an_error_status_is_never_a_soft_404(status: int, soft: bool) -> None:
    verdict = both(URL, URL, status, page("Page not found"))
    assert (verdict is not None) is soft


@pytest.mark.parametrize(
    ("url", "final", "reason"),
    [
        (URL, "https://nimbus.example/", "redirected to the site root: https://nimbus.example/"),
        (URL + "/", "https://nimbus.example", "redirected to the site root: https://nimbus.example"),
        (URL, "https://nimbus.example/Not-Found/", "redirected to a not-found page: https://nimbus.example/Not-Found/"),
        (URL, "https://nimbus.example/x?code=404", "redirected to a not-found page: https://nimbus.example/x?code=404"),
        ("https://nimbus.example/", "https://nimbus.example/?lang=en", None),  # was the root
        ("https://nimbus.example//", "https://nimbus.example/", None),
        (URL, "https://nimbus.example/?from=credits", None),  # a root with a query is a page
        (URL, "https://other.example/research/credits", None),
    ],
)  # fmt: skip
def test_redirects(url: str, final: str, reason: str | None) -> None:
    verdict = both(url, final, 200, page())
    assert verdict == (None if reason is None else SoftFailure(Outcome.SOFT_404, reason))


@pytest.mark.parametrize(
    ("title", "heading", "reason"),
    [
        ("Error", "", "title: 'error'"),
        ("  404!  ", "", "title: '404!'"),
        ("Nimbus", "<span>Seite</span> nicht gefunden", "heading: 'seite nicht gefunden'"),
        ("Nimbus", "Page not found &amp; gone", "heading: 'page not found & gone'"),
        ("Nimbus", "Tom&#39;s page not found", "heading: \"tom's page not found\""),
        ("Error handling in Rust", "", None),
        ("Nimbus", "Errors we found", None),
    ],
)  # fmt: skip
def test_not_found_titles_and_headings(title: str, heading: str, reason: str | None) -> None:
    html = page(title, f"<h1 class='x'>{heading}</h1><p>Sorry.</p>" if heading else "<p>Hi</p>")
    verdict = both(URL, URL, 200, html)
    if reason is not None:
        reason = f"not-found page by its {reason}"
    assert verdict == (None if reason is None else SoftFailure(Outcome.SOFT_404, reason))


def test_a_title_or_heading_longer_than_a_heading_is_an_article() -> None:
    at_most = "page not found " + "a" * (MAX_HEADING - 15)
    assert len(at_most) == MAX_HEADING
    assert both(URL, URL, 200, page(at_most)) is not None
    assert both(URL, URL, 200, page(at_most + "a")) is None


def test_no_title_and_no_heading_is_no_verdict() -> None:
    assert both(URL, URL, 200, "<p>just text</p>") is None


@pytest.mark.parametrize(
    ("before", "after", "confirmed_before", "confirmed_after", "reason"),
    [
        (400, 119, 0, 0, "main text fell from 400 to 119 characters"),
        (400, 120, 0, 0, None),  # keeps 30%
        (399, 0, 0, 0, None),  # too short to judge by length
        (5000, 4000, 2, 0, "all 2 claims it confirmed are gone at once"),
        (5000, 4000, 1, 0, None),
        (5000, 4000, 2, 1, None),
        # a small page gutted to a stub: its only claim went with more than half its text
        (
            230,
            40,
            1,
            0,
            "the claim it confirmed is gone with most of its text (230 to 40 characters)",
        ),
        (230, 115, 1, 0, None),  # half kept: an edit
        (230, 40, 1, 1, None),
    ],
)
def test_review_reason_edges(
    before: int, after: int, confirmed_before: int, confirmed_after: int, reason: str | None
) -> None:
    assert review_reason(before, after, confirmed_before, confirmed_after) == reason


def test_markers_sharing_a_five_byte_piece_get_it_as_gate() -> None:
    assert marker_gates((b"abcdeX", b"Yabcde", b"ZZabcdeZ", b"other")) == (
        b"abcde",
        b"abcde",
        b"abcde",
        None,
    )
    assert marker_gates(()) == ()
    # the piece most markers hold comes first; the rest share another
    markers = (b"captcha-a", b"captcha-b", b"captcha-c", b"captcha-d", b"wall-1", b"wall-2")
    assert marker_gates(markers, shared_by=2) == (b"captcha-",) * 4 + (b"wall-",) * 2


BUNDLE = '<script src="/main.js"></script>'
PLEA = "<noscript>You need to enable JavaScript to run this app.</noscript>"


@pytest.mark.parametrize(
    ("html", "shell"),
    [
        ('<div id="root"></div>' + BUNDLE, True),
        ("<div id='__next'> Loading… </div>", True),
        ("<app-root></app-root>", True),
        (BUNDLE + PLEA, True),
        ('<script type="module">go()</script><p>JavaScript is required</p>', True),
        (BUNDLE, False),  # scripts alone: a page that may simply be empty
        (PLEA, False),
        ('<div id="root"><p>Text</p></div>', False),
    ],
)
def test_app_shells(html: str, shell: bool) -> None:
    assert is_app_shell(html, "") is shell


def test_a_page_with_text_is_no_shell() -> None:
    html = '<div id="root"></div>' + BUNDLE
    assert is_app_shell(html, " " + "t" * (SHELL_TEXT - 1) + " ")
    assert not is_app_shell(html, "t" * SHELL_TEXT)


@pytest.mark.parametrize(
    ("text", "placeholder"),
    [
        ("Loading…", True),
        ("Home Docs\nLoading...", True),  # a page's chrome around its loading line
        ("Loading, please wait", True),
        ("Cargando…", True),
        ("", True),  # a spinner: no words at all
        ("  ⟳  ", True),
        ("Loading dock holds 300 pallets", False),  # the word, not the placeholder
        ("Public page with 300 seats.", False),
        ("Loading…\n" + "Each team gets $4,000 in GPU credits. " * 6, False),  # text is there
    ],
)
def test_placeholders(text: str, placeholder: bool) -> None:
    assert is_placeholder(text) is placeholder
