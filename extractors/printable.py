"""Text from pages and config made safe to print on a terminal.

A page's words are someone else's: an escape sequence among them (`ESC]0;title BEL`,
`ESC[2J`, an 8-bit CSI) would retitle, clear or rewrite the reader's terminal, and a
bidirectional override would show words in another order than they are. Each such
character is shown as its escape (`\\x1b`, `\\u202e`) instead; line breaks and tabs
stay. CSV cells that a spreadsheet would run as a formula are written as text.
"""

from __future__ import annotations

import re

# C0 but tab and line feed, DEL, C1, and the bidirectional marks, embeddings and overrides.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# OWASP's list: a cell starting with one of these is read as a formula by spreadsheets.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _escape(match: re.Match[str]) -> str:
    code = ord(match[0])
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` with every character that steers a terminal shown as its escape."""
    return _UNSAFE.sub(_escape, text)


_BREAKS = re.compile("[\n\r\x0b\x0c\x85\u2028\u2029]")


def one_line(text: str) -> str:
    """`text` as one line of a terminal or a log: printable, with its line breaks shown as
    escapes too (a break in a value would start a line of its own, which a CI runner
    reads as a command when it starts with `::`)."""
    return printable(_BREAKS.sub(_escape, text))


def spreadsheet_safe(text: str) -> str:
    """A CSV cell's text, prefixed with `'` when a spreadsheet would run it as a formula."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text
