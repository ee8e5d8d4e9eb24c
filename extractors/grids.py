"""Tables a page builds from <div>s and <span>s, read as tables.

A pricing page often lays out its rows as blocks of inline cells: `<div class="row">
<span>Pro</span><span>29</span><span>40</span></div>`. Flattened to text, the cells run
together ("Pro2940"), and no reader can tell where one number ends. Read from the page's
structure first, each run of two or more sibling blocks of the same kind, each of two or
more short cells and as many as each other, is a table: it is rewritten as one (`<table>`,
`<tr>`, `<td>`) before the main text is extracted, so that its rows come out as cells
apart ("Pro | 29 | 40"), to be read under their header as any table is.
"""

from __future__ import annotations

import re

from lxml import etree

MAX_CELL = 80  # characters: a cell is a short piece of text, not a paragraph
BLOCKS = frozenset({"div", "li", "p", "section", "article", "a", "dl"})
_NOT_CELLS = frozenset({"table", "ul", "ol", "p", "div", "section", "article", "h1", "h2"})
# A cheap look before the page is parsed for it: inline cells, three or more in a row.
_MAY_HOLD = re.compile(
    r"(?:<(?:span|div|dd|dt)\b[^<>]{0,200}>[^<>]{0,80}</(?:span|div|dd|dt)>\s*){3}"
)


def may_hold_grid(html: str) -> bool:
    return _MAY_HOLD.search(html) is not None


def tabulate(tree: etree._Element) -> int:
    """Rewrite each grid of the tree as a table; how many were found."""
    found = 0
    for parent in list(tree.iter()):
        if not isinstance(parent.tag, str):
            continue
        children = [c for c in parent if isinstance(c.tag, str)]
        run: list[etree._Element] = []
        for child in [*children, None]:
            if child is not None and run and _same_row(run[0], child):
                run.append(child)
                continue
            if len(run) >= 2:
                _as_table(parent, run)
                found += 1
            run = [child] if child is not None and _cells(child) else []
    return found


def _cells(row: etree._Element) -> list[etree._Element] | None:
    """A row's cells: two or more elements, each short text with no block inside."""
    if row.tag not in BLOCKS or (row.text or "").strip():
        return None
    cells = [c for c in row if isinstance(c.tag, str)]
    if len(cells) < 2:
        return None
    for cell in cells:
        if cell.tag in _NOT_CELLS and any(isinstance(d.tag, str) for d in cell):
            return None
        if any(isinstance(d.tag, str) and d.tag in _NOT_CELLS for d in cell.iterdescendants()):
            return None
        text = " ".join("".join(cell.itertext()).split())
        if len(text) > MAX_CELL or (cell.tail or "").strip():
            return None
    return cells


def _same_row(first: etree._Element, other: etree._Element) -> bool:
    a, b = _cells(first), _cells(other)
    return (
        a is not None
        and b is not None
        and len(a) == len(b)
        and first.tag == other.tag
        and first.get("class") == other.get("class")
    )


def _as_table(parent: etree._Element, rows: list[etree._Element]) -> None:
    table = etree.Element("table")
    parent.insert(parent.index(rows[0]), table)
    for row in rows:
        tr = etree.SubElement(table, "tr")
        for cell in _cells(row) or []:
            td = etree.SubElement(tr, "td")
            td.text = " ".join("".join(cell.itertext()).split())
        tail = row.tail
        parent.remove(row)
        if tail and tail.strip():
            table.tail = (table.tail or "") + tail
