"""Tables whose every cell stands on a line of its own, as a page's text keeps a table
whose markup was lost: the header's cells, then each row's label and values, so many
lines a row.

    Plan                  ->   | Plan | Price ($/month) | Seats |
    Price ($/month)            | Free | 0 | 1 |
    Seats                      | Team | 29 | 10 |
    Free
    0
    1
    Team
    29
    10

Such a run of lines is written back as the table's rows, with their cells kept apart by
`|`, before the lines are read: its header's units then reach its cells as any table's
do (extractors/figures/tables.py), and its rows are quoted as the other tables' are.
"""

from __future__ import annotations

import re

MAX_COLUMNS = 8
MIN_ROWS = 2
MAX_HEADER_CELL = 40  # characters
MAX_LABEL = 60
MAX_VALUE_CELL = 32

# A cell that holds a value: a number with what little is written around it ("$29",
# "250,000", "1M tokens", "20/min", "up to 5"), or a word tables put in place of one.
_VALUE_CELL = re.compile(
    r"(?:up to|over|from|at least|~|≈|<|>)?\s*(?:[$€£¥]|US\$|USD|EUR)?\s?\d[\d,.]*"
    r"(?:\s?[A-Za-z%$€£/().+-][\w%$€£/(). +-]*)?",
    re.I,
)
_NO_VALUE = frozenset(
    """unlimited n/a na - — – none custom yes no included ✓ ✗ ✔ ✘ x varies
    contact""".split()
)
_LIST_NUMBER = re.compile(r"\(?\d{1,3}[.)]")
_LETTER = re.compile(r"[^\W\d_]")
_DIGIT = re.compile(r"\d")


def _value(cell: str) -> bool:
    cell = cell.strip()
    if len(cell) > MAX_VALUE_CELL or _LIST_NUMBER.fullmatch(cell) or cell.endswith("."):
        return False  # long, a numbered list's "1.", a sentence
    return cell.lower() in _NO_VALUE or _VALUE_CELL.fullmatch(cell) is not None


def _header(cell: str) -> bool:
    cell = cell.strip()
    return (
        0 < len(cell) <= MAX_HEADER_CELL
        and _LETTER.search(cell) is not None
        and "|" not in cell
        and not _value(cell)
        and not cell.endswith((".", "!", "?", ":"))
    )


def _row(cells: list[str]) -> bool:
    label, values = cells[0].strip(), cells[1:]
    return (
        0 < len(label) <= MAX_LABEL
        and _LETTER.search(label) is not None
        and not label.endswith((".", "!", "?", ":"))
        and "|" not in label
        and not _value(label)
        and all(_value(v) for v in values)
        and any(_DIGIT.search(v) for v in values)
    )


def _rows_after(lines: list[str], start: int, width: int) -> int:
    """How many rows of `width` cells follow `start`."""
    rows = 0
    at = start
    while at + width <= len(lines) and _row(lines[at : at + width]):
        rows += 1
        at += width
    return rows


def cell_tables(lines: list[str]) -> list[str]:
    """The lines, each run of them that is a table of one cell a line written back as
    its rows."""
    out: list[str] = []
    k = 0
    while k < len(lines):
        best = (0, 0)  # rows, width
        if _header(lines[k]):
            for width in range(2, MAX_COLUMNS + 1):
                if k + width * (1 + MIN_ROWS) > len(lines):
                    break
                if not _header(lines[k + width - 1]):
                    break  # a header's cells are each a header's
                rows = _rows_after(lines, k + width, width)
                if rows >= MIN_ROWS and rows >= best[0]:
                    best = (rows, width)
        rows, width = best
        if not rows:
            out.append(lines[k])
            k += 1
            continue
        for r in range(rows + 1):
            row = lines[k + r * width : k + (r + 1) * width]
            out.append("| " + " | ".join(c.strip() for c in row) + " |")
        k += (rows + 1) * width
    return out
