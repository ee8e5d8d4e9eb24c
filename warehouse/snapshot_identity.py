"""Snapshot identity: which snapshot each fetch of a batch points at, and which fetches
make a new one. A snapshot is a distinct reading (title and main text) of a source:

- a 304 points at its source's newest snapshot (at none, when there is none);
- a failure, or an answer with no body, points at none;
- an archived copy points at the snapshot kept for the same capture (the same page at
  the same capture time), else makes one;
- a live body points at its source's newest snapshot when it is that snapshot's page,
  or a page that reads the same (`same_as` maps a body the workers did not read, because
  it cannot read differently, to the page it reads like); else it makes one.

A fetch reads the state the fetches before it in the batch left. The plan is made from
what it is given, reads no database and changes none of its inputs: store.write_fetches
gives the new snapshots their ids and writes them, and returns the new states.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from evidence_base.words import Render
from extractors.values import Outcome, Via
from warehouse.rows import FetchRow, SourceState

Key = tuple[str, str]  # (record_id, source_id)
Capture = tuple[str, str, str, datetime]  # (record_id, source_id, page, fetched_at)


@dataclass(frozen=True, slots=True)
class Added:
    """The batch's `index`-th new snapshot (from 0, in fetch order), before it has an id."""

    index: int


SnapshotRef = int | Added  # a kept snapshot's id, or one the batch adds


@dataclass(frozen=True, slots=True)
class NewSnapshot:
    """A snapshot the batch adds: the columns of store.snapshots but its id."""

    record_id: str
    source_id: str
    url: str
    fetched_at: datetime
    content_hash: str
    via: Via
    render: Render


@dataclass(frozen=True, slots=True)
class Newest:
    """A source's newest snapshot as the batch leaves it: a SourceState whose snapshot may
    be one the batch adds."""

    snapshot: SnapshotRef
    content_hash: str
    etag: str | None
    last_modified: str | None
    text_hash: str | None

    @classmethod
    def of(cls, state: SourceState) -> Newest:
        return cls(
            snapshot=state.snapshot_id,
            content_hash=state.content_hash,
            etag=state.etag,
            last_modified=state.last_modified,
            text_hash=state.text_hash,
        )


@dataclass(frozen=True, slots=True)
class SnapshotPlan:
    """What a batch of fetches does to the snapshots."""

    points_at: tuple[SnapshotRef | None, ...]  # per fetch, in the batch's order
    added: tuple[NewSnapshot, ...]
    newest: Mapping[Key, Newest]  # each source the batch fetched live
    used: frozenset[str]  # pages to store: new snapshots rest on them, or read again
    read_alike: Mapping[str, str]  # a new page -> the kept page it reads like

    def snapshot_ids(self, ids: Sequence[int]) -> list[int | None]:
        """The snapshot each fetch points at, the added ones numbered by `ids`."""
        return [None if ref is None else _numbered(ref, ids) for ref in self.points_at]

    def states(self, ids: Sequence[int]) -> dict[Key, SourceState]:
        """The new state of each source the batch fetched live (the others' are as they
        were), the added snapshots numbered by `ids`."""
        return {
            key: SourceState(
                snapshot_id=_numbered(n.snapshot, ids),
                content_hash=n.content_hash,
                etag=n.etag,
                last_modified=n.last_modified,
                text_hash=n.text_hash,
            )
            for key, n in self.newest.items()
        }


def plan_snapshots(
    states: Mapping[Key, SourceState],
    fetches: Sequence[FetchRow],
    readings: Mapping[str, str],
    same_as: Mapping[str, str] | None = None,
    archived: Mapping[Capture, int] | None = None,
) -> SnapshotPlan:
    """The snapshot each fetch points at, given each source's newest snapshot (`states`),
    the reading hash of each page the batch's bodies are or read like (`readings`), and
    the archived snapshots already kept for the batch's captures (`archived`)."""
    same_as = same_as or {}
    archived = archived or {}
    newest: dict[Key, Newest] = {}
    added: list[NewSnapshot] = []
    points_at: list[SnapshotRef | None] = []
    used: set[str] = set()
    read_alike: dict[str, str] = {}
    for f in fetches:
        key = (f.record_id, f.source_id)
        before = newest.get(key) or (Newest.of(states[key]) if key in states else None)
        if f.outcome == Outcome.NOT_MODIFIED:
            points_at.append(before.snapshot if before is not None else None)
            continue
        if f.outcome != Outcome.OK or f.content_hash is None:
            points_at.append(None)
            continue
        page = same_as.get(f.content_hash, f.content_hash)
        text_hash = readings.get(page)
        kept: SnapshotRef | None = None
        kept_page, kept_text = page, text_hash
        if f.via == Via.ARCHIVED:
            if f.fetched_at is not None:
                kept = archived.get((f.record_id, f.source_id, page, f.fetched_at))
        elif before is not None and (
            before.content_hash == page or (text_hash is not None and before.text_hash == text_hash)
        ):
            kept, kept_page, kept_text = before.snapshot, before.content_hash, before.text_hash
        if kept is None:
            kept = Added(len(added))
            added.append(
                NewSnapshot(
                    record_id=f.record_id,
                    source_id=f.source_id,
                    url=f.url,
                    fetched_at=f.fetched_at or f.started_at,
                    content_hash=page,
                    via=f.via,
                    render=f.render,
                )
            )
        if page != kept_page:
            read_alike[page] = kept_page
        else:
            used.add(page)  # a new snapshot's page, or one read again by a newer extractor
        points_at.append(kept)
        if f.via == Via.LIVE:
            newest[key] = Newest(
                snapshot=kept,
                content_hash=kept_page,
                etag=f.etag,
                last_modified=f.last_modified,
                text_hash=kept_text,
            )
    return SnapshotPlan(
        points_at=tuple(points_at),
        added=tuple(added),
        newest=newest,
        used=frozenset(used),
        read_alike=read_alike,
    )


def _numbered(ref: SnapshotRef, ids: Sequence[int]) -> int:
    return ids[ref.index] if isinstance(ref, Added) else ref
