"""`evidence diff`: what changed in a source's main text between two snapshots, word by
word, then the figures and statuses that appeared or went."""

from __future__ import annotations

import os
import sys
from datetime import UTC, date, datetime, time, timedelta

from evidence_base.errors import EvidenceError, UnknownRecord, UnknownSource
from extractors.printable import printable
from extractors.textdiff import MAX_DIFF_TOKENS, Op, appeared_and_went, cut_for_diff, word_diff
from warehouse import queries
from warehouse.db import Connection

CONTEXT = 80  # characters of unchanged text kept on each side of a change
_COLOURS = {"-": "\033[31m", "+": "\033[32m"}
_RESET = "\033[0m"

Snapshot = queries.SnapshotText


def diff_report(
    con: Connection,
    record_id: str,
    source_id: str | None,
    since: date | None,
    until: date | None,
    colour: bool | None = None,
) -> str:
    """The report of `evidence diff` for each source of the record (or the one named)."""
    if since is not None and until is not None and since > until:
        raise EvidenceError(f"--from {since} is after --to {until}: give them the other way")
    history = queries.snapshot_history(con, record_id, source_id)
    if not history:
        known = queries.record_ids(con)
        if record_id not in known:
            raise UnknownRecord(record_id, known, "the database")
        sources = queries.snapshot_history(con, record_id, None)
        raise UnknownSource(str(source_id), sources, owner=record_id)
    if colour is None:
        colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    out = []
    failing = queries.failing_since(con, record_id)
    for source, snapshots in history.items():
        pair = pick(snapshots, since, until)
        if pair is None:
            where = " in that range" if since is not None or until is not None else " yet"
            line = f"{source}: fewer than two snapshots{where}: nothing to compare"
            if source in failing:
                outcome, when = failing[source]
                line += f" (its page has failed since {when:%Y-%m-%d}: {outcome})"
            out.append(line)
            continue
        old, new = pair
        head = f"{source}: snapshot {_label(old)} -> {_label(new)}"
        if old.snapshot_id == new.snapshot_id or old.text == new.text:
            out.append(f"{head}: no change")
            continue
        out.append(head)
        if cut_for_diff(old.text)[1] or cut_for_diff(new.text)[1]:
            out.append(f"  (long texts: their first {MAX_DIFF_TOKENS:,} words and spaces compared)")
        out.extend("  " + line for line in changed_lines(word_diff(old.text, new.text), colour))
        out.extend(printable(e) for e in _extracts(con, old.snapshot_id, new.snapshot_id))
    return "\n".join(out)


def pick(
    snapshots: list[Snapshot], since: date | None, until: date | None
) -> tuple[Snapshot, Snapshot] | None:
    """(old, new): the snapshots current at the end of `since` and of `until` (default:
    the newest, and the one before it)."""
    upto = [s for s in snapshots if until is None or s.fetched_at < _day_end(until)]
    if not upto:
        return None
    new = upto[-1]
    if since is None:
        return (upto[-2], new) if len(upto) >= 2 else None
    before = [s for s in snapshots if s.fetched_at < _day_end(since)]
    return (before[-1], new) if before else None


def _day_end(day: date) -> datetime:
    return datetime.combine(day + timedelta(days=1), time(0), tzinfo=UTC)


def _label(s: Snapshot) -> str:
    return f"{s.snapshot_id} ({s.fetched_at.astimezone(UTC).date().isoformat()})"


def changed_lines(runs: list[tuple[Op, str]], colour: bool = False) -> list[str]:
    """The lines holding a change, with `[-removed-]` and `{+added+}` marked (coloured on
    a terminal), long unchanged stretches cut; `…` stands for unchanged lines between."""
    lines: list[list[tuple[Op, str]]] = [[]]
    for op, text in runs:
        for i, piece in enumerate(text.split("\n")):
            if i:
                lines.append([])
            if piece:
                lines[-1].append((op, piece))
    out: list[str] = []
    last = -2
    for number, parts in enumerate(lines):
        if all(op == "=" for op, _ in parts):
            continue
        if out and number > last + 1:
            out.append("…")
        out.append(
            "".join(_show(op, text, i, len(parts), colour) for i, (op, text) in enumerate(parts))
        )
        last = number
    return out


def _show(op: Op, text: str, at: int, count: int, colour: bool) -> str:
    text = printable(text)  # the page's words: never an escape sequence of their own
    if op == "=":
        if at == 0 and len(text) > CONTEXT:
            return "…" + text[-CONTEXT:]
        if at == count - 1 and len(text) > CONTEXT:
            return text[:CONTEXT] + "…"
        if len(text) > 2 * CONTEXT:
            return text[:CONTEXT] + " … " + text[-CONTEXT:]
        return text
    marked = f"[-{text}-]" if op == "-" else f"{{+{text}+}}"
    return f"{_COLOURS[op]}{marked}{_RESET}" if colour else marked


def _extracts(con: Connection, old_id: int, new_id: int) -> list[str]:
    old_numbers, old_statuses = queries.snapshot_extracts(con, old_id)
    new_numbers, new_statuses = queries.snapshot_extracts(con, new_id)
    out = []
    added, gone = appeared_and_went(old_numbers, new_numbers)
    if added or gone:
        out.append(
            "  figures: "
            + "  ".join([*(f"+{_figure(n)}" for n in added), *(f"-{_figure(n)}" for n in gone)])
        )
    added_s, gone_s = appeared_and_went(old_statuses, new_statuses)
    if added_s or gone_s:
        out.append(
            "  statuses: "
            + "  ".join(
                [
                    *(f"+{s.status} ({s.phrase!r})" for s in added_s),
                    *(f"-{s.status} ({s.phrase!r})" for s in gone_s),
                ]
            )
        )
    return out


def _figure(n: queries.ExtractedFigure) -> str:
    what = " ".join(str(x) for x in (n.kind, n.currency or n.unit, n.qualifier) if x)
    return f"{n.raw} ({what})"
