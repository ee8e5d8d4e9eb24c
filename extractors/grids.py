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
_LEAF = r"<(?:span|div|dd|dt)\b[^<>]{0,200}>[^<>]{0,80}</(?:span|div|dd|dt)>"
_MAY_HOLD = re.compile(rf"(?:{_LEAF}\s*){{3}}")
# The same run found from its first cell's end, a literal the search skips to: the
# pattern above tried at every tag costs more than the rest of the look.
_AFTER_FIRST = re.compile(rf"</(?:span|div|dd|dt)>\s*{_LEAF}\s*{_LEAF}")
_FIRST_CELL = 300  # characters: the most a first cell's tag and text take


def may_hold_grid(html: str) -> bool:
    for m in _AFTER_FIRST.finditer(html):
        if _MAY_HOLD.search(html, max(0, m.start() - _FIRST_CELL), m.end()):
            return True
    return False


def tabulate(tree: etree._Element) -> int:
    """Rewrite each grid of the tree as a table; how many were found."""
    found = 0
    for parent in list(tree.iter()):
        if not isinstance(parent.tag, str):
            continue
        children = [c for c in parent if isinstance(c.tag, str)]
        run: list[etree._Element] = []
        width = 0  # the first row's cells
        for child in [*children, None]:
            cells = _cells(child) if child is not None and child.tag in BLOCKS else None
            if run and cells is not None and _same_kind(run[0], child, width, len(cells)):
                run.append(child)
                continue
            if len(run) >= 2:
                _as_table(parent, run)
                found += 1
            run, width = ([child], len(cells)) if cells else ([], 0)
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


def _same_kind(first: etree._Element, other: etree._Element, width: int, cells: int) -> bool:
    """Rows of one table: as many cells, the same tag and class."""
    return width == cells and first.tag == other.tag and first.get("class") == other.get("class")


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
