"""HTML to main text: trafilatura first, a BeautifulSoup reading where it fails."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator

import lxml.html
import trafilatura
import trafilatura.utils
from bs4 import (
    BeautifulSoup,
    MarkupResemblesLocatorWarning,
    NavigableString,
    PageElement,
    Tag,
)
from bs4.exceptions import ParserRejectedMarkup
from lxml import etree

from extractors.grids import may_hold_grid, tabulate
from extractors.values import PageText

# Elements that never hold the page's own content.
CHROME_TAGS = (
    "script",
    "style",
    "noscript",
    "template",
    "svg",
    "iframe",
    "canvas",
    "nav",
    "header",
    "footer",
    "aside",
    "form",
    "button",
    "select",
    "dialog",
)
# Elements that end a line of text.
BLOCK_TAGS = frozenset(
    "address article blockquote br dd div dl dt fieldset figcaption figure h1 h2 h3 h4 h5 h6 "
    "hr li main ol p pre section table tbody thead tfoot tr ul caption summary details".split()
)
CELL_TAGS = frozenset({"td", "th"})
# Below this many characters trafilatura's reading is compared with the fallback's.
SHORT_TEXT = 200
_SPACES = re.compile(r"[ \t\u00a0\u2009\u202f]+")
# Every element an HtmlElement, its class found in C: lxml.html's parser asks a Python
# method for each element handed to Python (forms, inputs and labels get classes of
# their own), and trafilatura uses none of those classes' extras. A test holds that the
# corpus pages read the same either way.
C_LOOKUP = etree.ElementDefaultClassLookup(
    element=lxml.html.HtmlElement,
    comment=lxml.html.HtmlComment,
    pi=lxml.html.HtmlProcessingInstruction,
    entity=lxml.html.HtmlEntity,
)


def use_element_lookup(lookup: etree.ElementClassLookup) -> None:
    """Set how trafilatura's HTML parser picks element classes (if it still has one)."""
    parser = getattr(trafilatura.utils, "HTML_PARSER", None)
    if parser is not None:
        parser.set_element_class_lookup(lookup)


use_element_lookup(C_LOOKUP)


def extract_main_text(html: str, url: str | None = None) -> PageText:
    """The main text of an HTML page (tables kept, comments dropped) and its title."""
    html = html.replace("\x00", "")
    if not html.strip():
        return PageText(None, "", "empty")
    title = extract_title(html)
    text = _trafilatura_text(html, url)
    if text is not None and len(text) >= SHORT_TEXT:
        return PageText(title, text, "trafilatura")
    # A short page (a one-paragraph notice) is read without its chrome: trafilatura
    # keeps navigation words there, the fallback drops nav, header and footer.
    fallback = fallback_text(html)
    if fallback or not text:
        return PageText(title, fallback, "fallback")
    return PageText(title, text, "trafilatura")


def extract_title(html: str) -> str | None:
    """The page's <title>, white space folded; None when it has none."""
    m = re.search(r"<title[^>]*>(.*?)</title\s*>", html[:200_000], re.I | re.S)
    if m is None:
        return None
    try:
        title = lxml.html.fromstring(f"<p>{m.group(1)}</p>").text_content()
    except (ValueError, lxml.etree.ParserError):
        title = m.group(1)
    title = " ".join(title.split())
    return title or None


def parse_html(html: str) -> object:
    """The page parsed as trafilatura parses it (None when it cannot be parsed)."""
    try:
        return trafilatura.utils.load_html(html.replace("\x00", ""))
    except (ValueError, TypeError, RecursionError, lxml.etree.LxmlError):
        return None


def _trafilatura_text(html: str, url: str | None) -> str | None:
    page: object = html
    if may_hold_grid(html):  # tables built of <div>s: read as tables (extractors/grids.py)
        tree = parse_html(html)
        if tree is not None and tabulate(tree):
            page = tree
    try:
        text = trafilatura.extract(
            page,
            url=url,
            include_tables=True,
            include_comments=False,
            include_images=False,
            output_format="txt",
            # fast: no readability/jusText comparison; favor_recall: keep borderline blocks
            # (a quote lost to a precise reading is a claim not found). On the corpus this
            # reads at least as well as the defaults, in less time (bench/NOTES.md).
            fast=True,
            favor_recall=True,
        )
    except (ValueError, TypeError, RecursionError, lxml.etree.LxmlError):
        return None
    return _tidy(text) if text else None


def fallback_text(html: str) -> str:
    """A plain reading of the page: chrome removed, a line per block, cells apart."""
    try:
        return _fallback_text(html)
    except (RecursionError, ParserRejectedMarkup):
        # absurd nesting, or markup html.parser gives up on ('<![0'): strip the tags
        return _tidy(re.sub(r"<[^>]*>", "\n", html))


def _fallback_text(html: str) -> str:
    with warnings.catch_warnings():  # a page of one line that reads like a URL is a page
        warnings.simplefilter("ignore", MarkupResemblesLocatorWarning)
        soup = BeautifulSoup(html, "html.parser")
    for tag in soup.find_all(CHROME_TAGS):
        tag.decompose()
    root: Tag = soup.find("main") or soup.find("article") or soup.body or soup
    pieces: list[str] = []
    _walk(root, pieces)
    return _tidy("".join(pieces))


def _walk(root: Tag, out: list[str]) -> None:
    """Text in document order with line breaks at blocks; a stack, not recursion, so that
    100,000 levels of nesting are just a long walk."""
    stack: list[Iterator[PageElement] | str] = [iter(root.children)]
    while stack:
        top = stack[-1]
        if isinstance(top, str):  # a closing marker
            stack.pop()
            out.append(top)
            continue
        child = next(top, None)
        if child is None:
            stack.pop()
        elif isinstance(child, NavigableString):
            if type(child) is NavigableString:  # skip comments, doctypes, CDATA
                out.append(str(child))
        elif isinstance(child, Tag):
            if child.name in BLOCK_TAGS:
                out.append("\n")
                stack.append("\n")
            elif child.name in CELL_TAGS:
                out.append(" | ")
            stack.append(iter(child.children))


def _tidy(text: str) -> str:
    """One block a line, white space folded, no blank lines, no stray cell bars."""
    lines = (_SPACES.sub(" ", line).strip(" |") for line in text.splitlines())
    return "\n".join(line for line in lines if line)
