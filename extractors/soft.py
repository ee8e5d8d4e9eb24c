"""Soft failures: pages that answer but are not the page (signals kept as data).

`classify_response` looks only at the response: a redirect to the site root or
to a not-found path, a not-found title or main heading, a challenge or bot-wall
page. `review_reason` compares a primary page with its last trusted snapshot.
`is_app_shell` tells a page that JavaScript must fill in from one with no text;
`is_placeholder` tells a rendered page that still shows what stands in for its text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from urllib.parse import urlsplit

import yaml

from extractors.rule_files import check_rule_file
from extractors.values import Outcome

_HEAD_LIMIT = 300_000  # bytes of HTML looked at for titles, headings and markers
_TITLE = re.compile(r"<title[^>]*>(.*?)</title\s*>", re.I | re.S)
_H1 = re.compile(r"<h1[^>]*>(.*?)</h1\s*>", re.I | re.S)
_TAGS = re.compile(r"<[^>]+>")
_INVISIBLE = re.compile(
    r"<(script|style|noscript|template|svg|head)\b.*?</\1\s*>|<!--.*?-->", re.I | re.S
)
WALL_TEXT = 1500  # characters of visible text below which a challenge marker makes a wall
MAX_HEADING = 120  # a longer title or heading is an article about errors, not an error page
# A primary page that keeps less than this share of its main text is suspect.
TEXT_LOSS = 0.3
MIN_TEXT_FOR_LOSS = 400
# A page of any size whose every confirmed claim goes at once with more than this share
# of its text was gutted to a stub, not edited.
STUB_LOSS = 0.5
SHELL_TEXT = 200  # characters of main text below which a page may be an app shell
# The mount points of client-side frameworks (React, Vue, Next, Nuxt, Angular, Svelte,
# Gradio), empty or holding only a loading word.
_MOUNT = re.compile(
    r"<(?:div|main|section)\b[^>]*\bid=[\"']?(root|app|__next|__nuxt|svelte|main|q-app|"
    r"gatsby|___gatsby)[\"']?[^>]*>\s*(?:loading[.…]*)?\s*</(?:div|main|section)>"
    r"|<(app-root|gradio-app)\b[^>]*>\s*</\2>",
    re.I,
)
_SCRIPT_BUNDLE = re.compile(r"<script\b[^>]*\b(?:src=|type=[\"']?module)", re.I)
_NON_WORD = re.compile(r"[^\w\s]+")
_NEEDS_JS = re.compile(r"enable javascript|requires javascript|javascript (?:is )?required", re.I)


@dataclass(frozen=True, slots=True)
class SoftFailure:
    outcome: Outcome  # soft_404 or blocked
    reason: str


@dataclass(frozen=True, slots=True)
class Signals:
    not_found_phrases: tuple[str, ...]
    not_found_titles: frozenset[str]
    not_found_paths: frozenset[str]
    blocked_titles: frozenset[str]
    blocked_markers: tuple[str, ...]
    # the markers as bytes, when every one is ASCII (then found in raw UTF-8 as is)
    blocked_marker_bytes: tuple[bytes, ...] | None = None
    # for each of those, a piece it shares with other markers (or None): where the piece
    # is not in the page, neither is any marker holding it
    marker_gates: tuple[bytes | None, ...] = ()
    placeholder_lines: frozenset[str] = frozenset()


_TEXTS = {"type": "list", "of": "text"}
SCHEMA = {
    "type": "mapping",
    "required": [
        "not_found_phrases",
        "not_found_titles",
        "not_found_paths",
        "blocked_titles",
        "blocked_markers",
    ],
    "keys": {
        name: _TEXTS
        for name in (
            "not_found_phrases",
            "not_found_titles",
            "not_found_paths",
            "blocked_titles",
            "blocked_markers",
            "placeholder_lines",
        )
    },
}


@cache
def signals() -> Signals:
    raw = check_rule_file(
        "soft_failures.yaml",
        yaml.safe_load(
            resources.files("extractors.data").joinpath("soft_failures.yaml").read_text("utf-8")
        ),
        SCHEMA,
    )
    markers = tuple(m.lower() for m in raw["blocked_markers"])
    as_bytes = tuple(m.encode() for m in markers) if all(m.isascii() for m in markers) else None
    return Signals(
        tuple(p.lower() for p in raw["not_found_phrases"]),
        frozenset(t.lower() for t in raw["not_found_titles"]),
        frozenset(p.lower().rstrip("/") for p in raw["not_found_paths"]),
        frozenset(t.lower() for t in raw["blocked_titles"]),
        markers,
        as_bytes,
        marker_gates(as_bytes or ()),
        frozenset(_line_words(p) for p in raw.get("placeholder_lines", ())),
    )


def marker_gates(markers: tuple[bytes, ...], shared_by: int = 3) -> tuple[bytes | None, ...]:
    """A gate for each marker: a piece of 5 bytes or more that `shared_by` markers or more
    hold (the piece most of them hold first), else None.

    A search of a page costs about the same whatever the marker, so one search for a gate
    stands for the markers behind it when the page lacks it ("captcha" for the captcha
    markers).
    """
    gates: list[bytes | None] = [None] * len(markers)
    while True:
        open_ = [m for m, g in zip(markers, gates, strict=True) if g is None]
        pieces = {m[i:j] for m in open_ for i in range(len(m)) for j in range(i + 5, len(m) + 1)}
        counted = [(sum(p in m for m in open_), len(p), p) for p in pieces]
        best = max(counted, default=(0, 0, b""))
        if best[0] < shared_by:
            return tuple(gates)
        gates = [
            g if g is not None or best[2] not in m else best[2]
            for m, g in zip(markers, gates, strict=True)
        ]


def classify_response(
    url: str,
    final_url: str,
    status: int,
    html: str,
    expect_redirect: bool = False,
    utf8: bytes | None = None,
) -> SoftFailure | None:
    """soft_404 or blocked when the response is not the page; None when it may be.

    `utf8`: the raw body when it is UTF-8 (html decoded from it), searched for the
    challenge markers as bytes, which is cheaper than lowering the decoded text.
    """
    s = signals()
    head = html[:_HEAD_LIMIT]
    title = _clean(_first(_TITLE, head))
    if title in s.blocked_titles:
        return SoftFailure(Outcome.BLOCKED, f"challenge page (HTTP {status}): title {title!r}")
    marker = _marker(head, utf8, s)
    # Captcha widgets and bot-management scripts sit on normal pages too (comment forms,
    # newsletters): a marker makes a wall only on a page with next to no text of its own.
    if marker is not None and _visible_chars(head) < WALL_TEXT:
        return SoftFailure(Outcome.BLOCKED, f"challenge page (HTTP {status}): {marker!r}")
    if status >= 400:
        return None  # a plain error status is an http_error, not a soft one
    if not expect_redirect and final_url != url:
        before, after = urlsplit(url), urlsplit(final_url)
        path = after.path.lower().rstrip("/")
        if before.path.rstrip("/") and not path and not after.query:
            return SoftFailure(Outcome.SOFT_404, f"redirected to the site root: {final_url}")
        if path in s.not_found_paths or "404" in after.query:
            return SoftFailure(Outcome.SOFT_404, f"redirected to a not-found page: {final_url}")
    heading = _clean(_first(_H1, head))
    for label, text in (("title", title), ("heading", heading)):
        if text and _says_not_found(text, s):
            return SoftFailure(Outcome.SOFT_404, f"not-found page by its {label}: {text!r}")
    return None


def _marker(head: str, utf8: bytes | None, s: Signals) -> str | None:
    """The first challenge marker in the page, matched case-insensitively."""
    if utf8 is not None and s.blocked_marker_bytes is not None:
        # ASCII letters are themselves in UTF-8 and no byte of a multi-byte character is
        # ASCII, so lowering the bytes finds what lowering the text finds (bar the few
        # non-ASCII capitals that lower to ASCII, such as the Kelvin sign), looking at
        # the first _HEAD_LIMIT bytes rather than characters.
        lowered_bytes = utf8[:_HEAD_LIMIT].lower()
        gates = {g: g in lowered_bytes for g in s.marker_gates if g is not None}
        found = (
            m
            for m, b, g in zip(
                s.blocked_markers, s.blocked_marker_bytes, s.marker_gates, strict=True
            )
            if (g is None or gates[g]) and b in lowered_bytes
        )
        return next(found, None)
    lowered = head.lower()
    return next((m for m in s.blocked_markers if m in lowered), None)


def _visible_chars(html: str) -> int:
    body = _INVISIBLE.sub(" ", html)
    return len(" ".join(_TAGS.sub(" ", body).split()))


def _says_not_found(text: str, s: Signals) -> bool:
    if len(text) > MAX_HEADING:
        return False
    if text.strip(" .!") in s.not_found_titles:
        return True
    return any(p in text for p in s.not_found_phrases)


def _first(pattern: re.Pattern[str], html: str) -> str:
    m = pattern.search(html)
    return m.group(1) if m else ""


def _clean(fragment: str) -> str:
    text = _TAGS.sub(" ", fragment)
    text = text.replace("&amp;", "&").replace("&nbsp;", " ").replace("&#39;", "'")
    return " ".join(text.split()).lower()


def is_app_shell(html: str, text: str) -> bool:
    """A page with (next to) no main text whose HTML is an application shell: an empty
    mount point of a client-side framework, or script bundles and a plea for JavaScript.
    Fetched over HTTP it holds nothing to check: it needs `render: browser`."""
    if len(text.strip()) >= SHELL_TEXT:
        return False
    head = html[:_HEAD_LIMIT]
    if _MOUNT.search(head):
        return True
    return _SCRIPT_BUNDLE.search(head) is not None and _NEEDS_JS.search(head) is not None


def review_reason(
    previous_chars: int, chars: int, previously_confirmed: int, confirmed: int
) -> str | None:
    """Why a new primary snapshot needs a person's eye before it counts, or None."""
    if previous_chars >= MIN_TEXT_FOR_LOSS and chars < previous_chars * TEXT_LOSS:
        return f"main text fell from {previous_chars} to {chars} characters"
    if previously_confirmed >= 2 and confirmed == 0:
        return f"all {previously_confirmed} claims it confirmed are gone at once"
    if previously_confirmed and not confirmed and chars < previous_chars * STUB_LOSS:
        return (
            f"the claim it confirmed is gone with most of its text ({previous_chars} to "
            f"{chars} characters)"
        )
    return None


def is_placeholder(text: str) -> bool:
    """Whether a rendered page's visible text (lines as the browser lays them out) is what
    a page shows while its text is on its way: a loading line ("Loading…", "Please wait")
    on a page with next to no text, or no words at all (a spinner)."""
    if len(text.strip()) >= SHELL_TEXT:
        return False
    lines = [_line_words(line) for line in text.splitlines()]
    words = [line for line in lines if line]
    if not words:
        return True
    return any(line in signals().placeholder_lines for line in words)


def _line_words(line: str) -> str:
    """A line's words, lowered, without dots, ellipses, commas and other marks."""
    return " ".join(_NON_WORD.sub(" ", line.lower()).split())
