"""What the catalog's pages show, assembled once for the static site (`evidence site`) and
the keeper's desk (`evidence ui`) alike: typed values (index rows, a record's page, the
review queue, feed entries, the Dataset), which the command line renders with its
templates. Every read is the caller's connection's; nothing here renders or writes."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from evidence_base.errors import UnknownRecord
from evidence_base.meta import PROJECT_URL
from extractors.grading import urgency
from extractors.values import Freshness, Grade
from flows.catalog import license_url
from flows.commands.review import review_items
from warehouse import queries
from warehouse.card import Card, SourceHealthRow
from warehouse.db import Connection
from warehouse.keeping import QueueItem

SITE_TITLE = "Evidence catalog"


@dataclass(frozen=True, slots=True)
class IndexRow:
    """A record as a line of the index: its status, with its dates as days and its last
    change said."""

    record_id: str
    title: str
    grade: Grade
    freshness: Freshness
    sources_confirming: int
    stale_on: str | None
    days_left: int | None  # until it goes stale
    last_change: str | None
    moved: str
    unreachable: int
    conditions: str | None = None  # the worst of its claims' conditions (pass, warn, fail)


@dataclass(frozen=True, slots=True)
class RecordPage:
    """What a record's page shows: its card, its grade's history, its last change."""

    card: Card
    history: tuple[queries.GradeChange, ...]
    moved: str
    last_change: str | None


@dataclass(frozen=True, slots=True)
class FeedEntry:
    """A change of the catalog as an Atom entry: dated by the change, named within the
    catalog's own id."""

    title: str
    id: str
    updated: str
    record_id: str
    summary: str


@dataclass(frozen=True, slots=True)
class Catalog:
    """Every record's line of the index (as `evidence status` orders them) and each one's
    grade history, read at once."""

    records: list[IndexRow]
    history: dict[str, list[queries.GradeChange]]


def catalog_pages(con: Connection, now: datetime) -> Catalog:
    history: defaultdict[str, list[queries.GradeChange]] = defaultdict(list)
    for change in queries.grade_history(con):
        history[change.record_id].append(change)
    changes = queries.newest_changes(con)
    records = [
        _index_row(r, what_moved(r.record_id, history[r.record_id], changes), now.date())
        for r in queries.site_records(con)
    ]
    records.sort(  # as `evidence status` orders them; among equals, unreachable first
        key=lambda r: (
            urgency(r.grade, r.freshness),
            0 if r.unreachable else 1,
            natural(r.record_id),
        )
    )
    return Catalog(records, dict(history))


def record_page(
    con: Connection,
    record_id: str,
    history: list[queries.GradeChange] | None = None,
    row: IndexRow | None = None,
) -> RecordPage:
    """A record's page; EvidenceError for a record the database does not hold."""
    card = queries.card(con, record_id)
    if card is None:
        raise UnknownRecord(record_id, queries.record_ids(con), "the database")
    if history is None:
        history = queries.grade_history(con, record_id)
    if row is None:
        moved = what_moved(record_id, history, queries.newest_changes(con))
        last = history[-1].changed_at if history else None
        return RecordPage(card, tuple(history), moved, day(last))
    return RecordPage(card, tuple(history), row.moved, row.last_change)


def queue(con: Connection, now: datetime, scope: str = "") -> list[QueueItem]:
    """The review queue, as `evidence review` lists it."""
    return review_items(con, now, scope)


def sources(con: Connection) -> list[SourceHealthRow]:
    """Source health, the failing first."""
    return sorted(
        queries.source_health(con),
        key=lambda s: (bool(s.reachable), natural(s.record_id), natural(s.source_id)),
    )


def dataset(
    records: list[IndexRow],
    now: datetime,
    license: str | None,
    files: list[tuple[str, str, str]],
) -> dict[str, Any]:
    """The catalog as a schema.org Dataset (JSON-LD), as dataset search engines read it;
    its distributions are the exports written beside the site."""
    data: dict[str, Any] = {
        "@context": "https://schema.org/",
        "@type": "Dataset",
        "name": SITE_TITLE,
        "description": (
            f"{len(records)} records of a catalog of facts, each claim checked against its "
            "primary and third-party sources: its evidence grade (documented, reported, "
            "unverified, contradicted), when it was checked and when it goes stale."
        ),
        "dateModified": now.astimezone(UTC).isoformat(),
        "variableMeasured": ["grade", "freshness", "checked_at", "stale_on"],
        # schema.org: a Dataset's creator is an Organization or a Person
        "creator": {"@type": "Organization", "name": "evidence-pipeline", "url": PROJECT_URL},
    }
    if license:
        data["license"] = license_url(license)  # an SPDX id given as its licence's URL
    if files:
        data["distribution"] = [
            {
                "@type": "DataDownload",
                "name": path.rsplit("/", 1)[-1],
                "contentUrl": path,
                "encodingFormat": media,
            }
            for path, _, media in files
        ]
    return data


def feed_entries(
    con: Connection, history: dict[str, list[queries.GradeChange]], catalog: str
) -> list[FeedEntry]:
    """Grade and freshness changes (going stale among them), values that moved and claims
    now `changed`, newest first."""
    base = f"urn:evidence-pipeline:catalog:{catalog}"
    entries = []
    for record_id, rows in history.items():
        for previous, row in zip([None, *rows], rows, strict=False):
            if previous is None:
                what = f"{record_id} graded {row.grade} ({row.freshness})"
            elif row.freshness == Freshness.STALE and previous.freshness != Freshness.STALE:
                what = f"{record_id} went stale"
            else:
                what = (
                    f"{record_id}: {previous.grade} ({previous.freshness}) -> "
                    f"{row.grade} ({row.freshness})"
                )
            entries.append(
                FeedEntry(
                    title=what,
                    id=f"{base}:{record_id}:{row.changed_at.isoformat()}",
                    updated=row.changed_at.astimezone(UTC).isoformat(),
                    record_id=record_id,
                    summary=what,
                )
            )
    for v in queries.value_moves(con):
        what = f"{v.record_id} {v.claim_id} on {v.source_id}: {v.was} -> {v.now}"
        entries.append(
            FeedEntry(
                title=what,
                id=f"{base}:{v.record_id}:{v.claim_id}:"
                f"{v.source_id}:value:{v.first_seen_at.isoformat()}",
                updated=v.first_seen_at.astimezone(UTC).isoformat(),
                record_id=v.record_id,
                summary=f"{what}. Values: {v.history}",
            )
        )
    for c in queries.changed_claims(con):
        entries.append(
            FeedEntry(
                title=f"{c.record_id} {c.claim_id} changed on {c.source_id}"
                + (f": {c.status} -> {c.found_status}" if c.found_status else ""),
                id=f"{base}:{c.record_id}:{c.claim_id}:{c.source_id}:{c.changed_at.isoformat()}",
                updated=c.changed_at.astimezone(UTC).isoformat(),
                record_id=c.record_id,
                summary=f"now: {c.found_text}",
            )
        )
    entries.sort(key=lambda e: e.updated, reverse=True)
    return entries[:500]


def what_moved(record_id: str, history: list[queries.GradeChange], changes: dict[str, str]) -> str:
    """The record's last change, said plainly: "documented -> contradicted: gpu-hours 500
    GPU hours -> 300 GPU hours" (the figures from its `changed:` alert, when a changed
    claim is what made it contradicted)."""
    if not history:
        return ""
    last = history[-1]
    if len(history) == 1:
        return f"{last.grade} ({last.freshness}), first graded"
    prev = history[-2]
    if prev.grade != last.grade:
        moved = f"{prev.grade} -> {last.grade}"
    else:
        moved = f"{prev.freshness} -> {last.freshness}"
    title = changes.get(record_id)
    if last.grade == Grade.CONTRADICTED and title:
        moved += ": " + title.removeprefix(f"changed: {record_id} ")
    return moved


def natural(text: str) -> tuple[tuple[int, int | str], ...]:
    """A sort key that reads the numbers in a name as numbers: r2 before r10."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text) if part
    )


def day(value: datetime | date | None) -> str | None:
    """A time as the pages write it: its UTC day."""
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.astimezone(UTC).date().isoformat()
    return value.isoformat()


def _index_row(r: queries.SiteRecord, moved: str, today: date) -> IndexRow:
    return IndexRow(
        record_id=r.record_id,
        title=r.title,
        grade=r.grade,
        freshness=r.freshness,
        sources_confirming=r.sources_confirming,
        stale_on=day(r.stale_on),
        days_left=(r.stale_on.date() - today).days if r.stale_on is not None else None,
        last_change=day(r.last_change),
        moved=moved,
        unreachable=r.unreachable,
        conditions=r.conditions,
    )
