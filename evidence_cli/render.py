"""Plain-text tables, CSV and JSON, and the lines of the record card: presentation only."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
import sys
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

from extractors.printable import one_line, printable, spreadsheet_safe
from extractors.values import CheckOutcome, Freshness, Grade, Via
from warehouse.card import ClaimState, SourceCheck, SourceHealthRow

# Why a record has its grade: what its weakest claims lack, named (docs/grading.md, "Grades")
WHY_GRADED = {
    Grade.DOCUMENTED: "a primary source confirms every claim",
    Grade.REPORTED: "only third parties confirm {claims}",
    Grade.CONTRADICTED: "a primary source says otherwise on {claims}",
    Grade.UNVERIFIED: "nothing confirms {claims}",
}
MAX_CLAIMS_NAMED = 3


def cell(value: Any) -> str:
    """A value as a table shows it on a terminal: one line, control characters escaped."""
    return one_line(_plain(value))


def _plain(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return f"{value:%Y-%m-%d %H:%M} {value.tzname() or ''}".rstrip()
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v) for v in value)
    return str(value)


def table(columns: Sequence[str], rows: Sequence[Sequence[Any]], max_width: int = 60) -> str:
    """An aligned text table with a header rule; long cells are cut with an ellipsis."""
    body = [[_cut(cell(v), max_width) for v in row] for row in rows]
    widths = [max([len(c), *(len(r[i]) for r in body)]) for i, c in enumerate(columns)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in body]
    return "\n".join(lines)


def _cut(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def to_json_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, list | tuple):
        return [to_json_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json_value(v) for k, v in value.items()}
    return value


def as_json(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    objects = [{c: to_json_value(v) for c, v in zip(columns, row, strict=True)} for row in rows]
    # json escapes C0 itself; C1 (an 8-bit CSI) and bidi marks are escaped here
    return printable_json(json.dumps(objects, ensure_ascii=False, indent=2))


def printable_json(text: str) -> str:
    """JSON text with the characters that steer a terminal written as \\u escapes
    (the same JSON value)."""
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


_JSON_UNSAFE = re.compile("[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def as_csv(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    return "\n".join([csv_line(columns), *(csv_line(_csv_row(row)) for row in rows)])


def _csv_row(row: Sequence[Any]) -> list[Any]:
    return [
        json.dumps(to_json_value(v))
        if isinstance(v, list | dict)
        else ("" if v is None else _csv_value(to_json_value(v)))
        for v in row
    ]


def csv_line(fields: Sequence[Any]) -> str:
    """One CSV line; a field holding a line break of either kind is quoted."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(fields)
    return out.getvalue()[:-2]


def write_rows(
    out: SupportsWrite[str],
    fmt: str,
    columns: Sequence[str],
    batches: Iterable[Sequence[Sequence[Any]]],
    max_width: int = 80,
) -> None:
    """Rows as `fmt` (table, csv or json) written to `out` a batch at a time, so that
    memory follows the batch, not the result. A table's columns are as wide as its
    first batch needs, or wider for later rows."""
    if fmt == "csv":
        out.write(csv_line(columns))
        for batch in batches:
            out.write("".join("\n" + csv_line(_csv_row(row)) for row in batch))
        out.write("\n")
        return
    if fmt == "json":
        first = True
        out.write("[")
        for batch in batches:
            for row in batch:
                obj = {c: to_json_value(v) for c, v in zip(columns, row, strict=True)}
                text = json.dumps(obj, ensure_ascii=False, indent=2).replace("\n", "\n  ")
                out.write(("\n  " if first else ",\n  ") + printable_json(text))
                first = False
        out.write("]\n" if first else "\n]\n")
        return
    widths: list[int] | None = None
    for batch in batches:
        body = [[_cut(cell(v), max_width) for v in row] for row in batch]
        seen = [max([len(c), *(len(r[i]) for r in body)]) for i, c in enumerate(columns)]
        if widths is None:
            widths = seen
            out.write(_header(columns, widths) + "\n")
        else:
            widths = [max(a, b) for a, b in zip(widths, seen, strict=True)]
        out.write("".join(_line(r, widths) + "\n" for r in body))
    if widths is None:
        out.write(_header(columns, [len(c) for c in columns]) + "\n")


def formatted(
    fmt: str, columns: list[str], rows: Sequence[Sequence[Any]], max_width: int = 80
) -> str:
    """Rows as a command prints them: a table, CSV or JSON (`--format`)."""
    if fmt == "json":
        return as_json(columns, rows)
    if fmt == "csv":
        text = as_csv(columns, rows)
        return printable(text) if sys.stdout.isatty() else text  # exact when piped
    return table(columns, rows, max_width=max_width)


def fields_of(cls: type) -> list[str]:
    """The columns a typed row prints as: its fields, in order."""
    return [f.name for f in dataclasses.fields(cls)]


def formatted_rows(
    fmt: str, rows: Sequence[Any], columns: Sequence[str], max_width: int = 80
) -> str:
    """Typed rows as `formatted` prints them: these of their fields, in this order."""
    shown = [tuple(getattr(r, c) for c in columns) for r in rows]
    return formatted(fmt, list(columns), shown, max_width)


class TerminalSafe:
    """A text stream to a terminal: what goes through it has its control characters
    escaped."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(printable(text))


def _header(columns: Sequence[str], widths: list[int]) -> str:
    return _line(columns, widths) + "\n" + "  ".join("-" * w for w in widths)


def _line(values: Sequence[str], widths: list[int]) -> str:
    return "  ".join(v.ljust(w) for v, w in zip(values, widths, strict=True)).rstrip()


def _csv_value(value: Any) -> Any:
    return spreadsheet_safe(value) if isinstance(value, str) else value


def day(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d") if value else "never"


def failing_note(h: SourceHealthRow | None) -> str | None:
    """What a claim line says of a source whose page fails now: `last fetch failed:
    http_error 404 since 2026-11-03` (and that a dead one no longer counts); None while
    it answers. The card and the site's record page say it alike."""
    if h is None or h.reachable or h.last_outcome is None:
        return None
    what = h.last_outcome + (f" {h.last_http_status}" if h.last_http_status else "")
    note = f"last fetch failed: {what} since {day(h.failing_since)}"
    if h.dead_since is not None:
        note += f"; dead since {day(h.dead_since)}, its page no longer counts"
    return note


def evidence_said(grade: str, claims: Sequence[ClaimState], checks: Sequence[SourceCheck]) -> str:
    """`<n> sources; <who said so>`, from the rows the grade comes from: each claim's grade
    (claim_status) and each source's check of it with the source's role (claim_checks).
    The sources are those that confirm a claim, as `sources_confirming` counts them."""
    roles: dict[str, str] = {}
    for check in checks:
        if check.outcome == CheckOutcome.CONFIRMED and check.counts:  # (a dead page: no)
            roles.setdefault(check.source_id, check.role)
    noun = "source" if len(roles) == 1 else "sources"
    who = (
        "confirmed by " + _and([f"{s} ({role})" for s, role in roles.items()])
        if roles
        else "no source confirms a claim"
    )
    if not claims:
        return f"{len(roles)} {noun}; no claims to check"
    weakest = [c.claim_id for c in claims if c.grade == grade]
    named = weakest[:MAX_CLAIMS_NAMED]
    if len(weakest) > MAX_CLAIMS_NAMED:
        named.append(f"{len(weakest) - MAX_CLAIMS_NAMED} more")
    why = WHY_GRADED[Grade(grade)].format(claims=_and(named))
    return f"{len(roles)} {noun}; {who}; {why}"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def evidence_line(grade: str, claims: Sequence[ClaimState], checks: Sequence[SourceCheck]) -> str:
    return f"Evidence: {grade} — {evidence_said(grade, claims, checks)}"


def freshness_line(
    freshness: str, checked_at: datetime | None, stale_on: datetime | None, via: str | None
) -> str:
    if checked_at is None:
        return "Freshness: unchecked — no page checked now backs every claim"
    state = Freshness.FRESH if freshness == Freshness.FRESH else f"stale on {day(stale_on)}"
    return f"Freshness: {state} — checked {day(checked_at)} ({via or Via.LIVE})"
