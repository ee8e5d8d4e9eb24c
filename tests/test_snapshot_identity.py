"""Which snapshot each fetch of a batch points at: the plan is made from its inputs alone
and leaves them as they were."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta

import pytest

from extractors.values import Outcome, Via
from warehouse.rows import FetchRow, SourceState
from warehouse.snapshot_identity import Added, plan_snapshots

T0 = datetime(2026, 12, 1, 6, tzinfo=UTC)
KEPT = {
    ("r", "s"): SourceState(
        snapshot_id=7, content_hash="p1", etag='"e1"', last_modified=None, text_hash="t1"
    )
}
READINGS = {"p1": "t1", "p2": "t2", "p1b": "t1"}  # p1b: other bytes, read like p1


def fetch(
    outcome: Outcome = Outcome.OK,
    page: str | None = "p1",
    via: Via = Via.LIVE,
    source: str = "s",
    at: datetime = T0,
    etag: str | None = None,
) -> FetchRow:
    return FetchRow(
        record_id="r",
        source_id=source,
        url=f"https://example.org/{source}",
        started_at=at,
        elapsed_ms=5,
        outcome=outcome,
        via=via,
        fetched_at=at,
        content_hash=page if outcome == Outcome.OK else None,
        etag=etag,
    )


@pytest.mark.parametrize(
    ("batch", "points_at", "added"),
    [
        ([fetch(page="p1")], [7], 0),  # the same page
        ([fetch(page="p1b")], [7], 0),  # other bytes, the same reading
        ([fetch(page="p2")], [Added(0)], 1),  # another reading
        ([fetch(Outcome.NOT_MODIFIED)], [7], 0),
        ([fetch(Outcome.HTTP_ERROR)], [None], 0),
        ([fetch(Outcome.NOT_MODIFIED, source="new")], [None], 0),  # nothing kept to point at
        ([fetch(page="p2", source="new")], [Added(0)], 1),  # a source's first page
        # a 304 after a new reading in the same batch points at that reading
        ([fetch(page="p2"), fetch(Outcome.NOT_MODIFIED)], [Added(0), Added(0)], 1),
        # back to the kept page after another: a new snapshot again (the newest is compared)
        ([fetch(page="p2"), fetch(page="p1")], [Added(0), Added(1)], 2),
    ],
)
def test_each_fetch_points_at_its_snapshot(
    batch: list[FetchRow], points_at: list[object], added: int
) -> None:
    plan = plan_snapshots(KEPT, batch, READINGS)
    assert list(plan.points_at) == points_at
    assert len(plan.added) == added


def test_the_plan_changes_none_of_its_inputs_and_numbers_what_it_adds() -> None:
    states = dict(KEPT)
    batch = [fetch(page="p2", etag='"e2"'), fetch(page="p2", source="t")]
    before = copy.deepcopy((states, batch))
    plan = plan_snapshots(states, batch, READINGS)
    assert (states, batch) == before
    assert plan.snapshot_ids([40, 41]) == [40, 41]
    assert plan.states([40, 41]) == {
        ("r", "s"): SourceState(
            snapshot_id=40, content_hash="p2", etag='"e2"', last_modified=None, text_hash="t2"
        ),
        ("r", "t"): SourceState(
            snapshot_id=41, content_hash="p2", etag=None, last_modified=None, text_hash="t2"
        ),
    }
    assert plan.used == {"p2"} and not plan.read_alike


def test_a_page_read_like_the_kept_one_is_stored_as_it() -> None:
    plan = plan_snapshots(KEPT, [fetch(page="p1b", etag='"e2"')], READINGS)
    assert plan.read_alike == {"p1b": "p1"} and not plan.used
    assert plan.states([]) == {
        ("r", "s"): SourceState(
            snapshot_id=7, content_hash="p1", etag='"e2"', last_modified=None, text_hash="t1"
        )
    }


def test_a_body_not_read_is_the_page_it_reads_like() -> None:
    plan = plan_snapshots(KEPT, [fetch(page="digest")], {"p1": "t1"}, same_as={"digest": "p1"})
    assert plan.points_at == (7,) and plan.used == {"p1"}


def test_an_archived_copy_is_its_capture_and_leaves_the_live_state_alone() -> None:
    old = T0 - timedelta(days=30)
    kept = {("r", "s", "p2", old): 3}
    batch = [fetch(page="p2", via=Via.ARCHIVED, at=old), fetch(page="p2", via=Via.ARCHIVED)]
    plan = plan_snapshots(KEPT, batch, READINGS, archived=kept)
    assert plan.points_at == (3, Added(0))  # a capture kept, then one not yet
    assert plan.added[0].via == Via.ARCHIVED and plan.added[0].fetched_at == T0
    assert plan.states([9]) == {}
