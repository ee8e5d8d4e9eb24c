"""`evidence review`: the queue of what needs a person (warehouse/keeping.py), with the
review_by dates as the record files say them now: a date edited since the last refresh
takes its row out at once."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

from flows.catalog import file_digest, load_yaml
from warehouse import keeping
from warehouse.db import Connection
from warehouse.errors import EvidenceError
from warehouse.keeping import QueueItem


def review_items(con: Connection, now: datetime, scope: str = "") -> list[QueueItem]:
    """The queue, each `evidence` command carrying `scope` (` --config DIR --db PATH`)."""
    items = keeping.review_queue(con, now, scope)
    dues = [i for i in items if i.kind == "review-by"]
    if not dues:
        return items
    edited: dict[str, dict[tuple[str, str | None], date | None]] = {}
    for record_id in {i.record_id for i in dues}:
        stored = keeping.stored_file(con, record_id)
        if stored is not None and file_digest(Path(stored.config_file)) != stored.digest:
            edited[record_id] = _review_dates(Path(stored.config_file), record_id)
    today = now.date()
    kept = []
    for item in items:
        if item.kind == "review-by" and item.record_id in edited:
            due = edited[item.record_id].get((item.record_id, item.item))
            if due is None or due > today:
                continue
        kept.append(item)
    return kept


def _review_dates(path: Path, record_id: str) -> dict[tuple[str, str | None], date | None]:
    """The record's review_by dates as its file says them now (none when unreadable)."""
    try:
        data, _ = load_yaml(path)
    except (OSError, EvidenceError):
        return {}
    items = data if isinstance(data, list) else [data]
    record = next((r for r in items if isinstance(r, dict) and r.get("id") == record_id), None)
    if record is None:
        return {}
    dates: dict[tuple[str, str | None], date | None] = {
        (record_id, None): _date(record.get("review_by"))
    }
    for claim in record.get("claims") or []:
        if isinstance(claim, dict):
            dates[(record_id, claim.get("id"))] = _date(claim.get("review_by"))
    return dates


def _date(value: object) -> date | None:
    try:
        return date.fromisoformat(str(value)) if value is not None else None
    except ValueError:
        return None
