"""`evidence review`: the queue of what needs a person (warehouse/keeping.py), with the
review_by dates as the record files say them now: a date edited since the last refresh
takes its row out at once."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime
from pathlib import Path

from evidence_base.errors import EvidenceError
from flows.catalog import dead_source_step, file_digest, load_yaml
from warehouse import keeping
from warehouse.db import Connection
from warehouse.keeping import QueueItem


def review_items(con: Connection, now: datetime, scope: str = "") -> list[QueueItem]:
    """The queue, each `evidence` command carrying `scope` (` --config DIR --db PATH`)."""
    items = [_with_lines(con, i) for i in keeping.review_queue(con, now, scope)]
    dues = [i for i in items if i.kind == "review-by"]
    if not dues:
        return items
    edited: dict[str, dict[tuple[str, str | None], date | None]] = {}
    digests: dict[str, str] = {}  # a file of many records is read once
    dates: dict[str, dict[tuple[str, str | None], date | None]] = {}
    for stored in keeping.stored_files(con, sorted({i.record_id for i in dues})):
        path = stored.config_file
        if path not in digests:
            digests[path] = file_digest(Path(path))
        if digests[path] != stored.digest:
            if path not in dates:
                dates[path] = _review_dates(Path(path))
            edited[stored.record_id] = dates[path]
    today = now.date()
    kept = []
    for item in items:
        if item.kind == "review-by" and item.record_id in edited:
            due = edited[item.record_id].get((item.record_id, item.item))
            if due is None or due > today:
                continue
        kept.append(item)
    return kept


def _with_lines(con: Connection, item: QueueItem) -> QueueItem:
    """A dead source's item, its next step with the exact lines of its record file."""
    source = item.source or item.item
    if item.kind != "dead" or source is None:
        return item
    files = keeping.stored_files(con, [item.record_id])
    if not files or not Path(files[0].config_file).is_file():
        return item
    step = dead_source_step(Path(files[0].config_file), item.record_id, source)
    return replace(item, command=step)


def _review_dates(path: Path) -> dict[tuple[str, str | None], date | None]:
    """The review_by dates of the file's records as it says them now, by (record, claim);
    none when unreadable."""
    try:
        data, _ = load_yaml(path)
    except (OSError, EvidenceError):
        return {}
    dates: dict[tuple[str, str | None], date | None] = {}
    for record in data if isinstance(data, list) else [data]:
        if not isinstance(record, dict) or not isinstance(record.get("id"), str):
            continue
        record_id = record["id"]
        dates[(record_id, None)] = _date(record.get("review_by"))
        for claim in record.get("claims") or []:
            if isinstance(claim, dict):
                dates[(record_id, claim.get("id"))] = _date(claim.get("review_by"))
    return dates


def _date(value: object) -> date | None:
    try:
        return date.fromisoformat(str(value)) if value is not None else None
    except ValueError:
        return None
