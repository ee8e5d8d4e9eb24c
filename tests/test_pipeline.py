"""Batches of the refresh: how many requests each holds, and how they are handed over."""

from __future__ import annotations

from datetime import UTC, datetime

from extractors.values import Outcome
from flows.fetching import Attempt, FetchRequest
from flows.pipeline import Batches
from flows.runtime import Sealed


def test_a_sealed_value_is_handed_over_once() -> None:
    bodies = [b"x" * 1000]
    sealed = Sealed(bodies)
    assert sealed.take() is bodies
    assert sealed.value is None  # whoever still holds the wrapper holds no bodies


def test_batches_hold_twice_as_many_conditional_requests() -> None:
    def request_batches(requests: list[FetchRequest], size: int) -> list[list[FetchRequest]]:
        return list(iter(Batches(requests, size).next, []))  # as formed before any came back

    fresh = [FetchRequest(f"http://127.0.0.1/f{i}") for i in range(600)]
    known = [FetchRequest(f"http://127.0.0.1/k{i}", etag=f'"{i}"') for i in range(600)]
    dated = [FetchRequest("http://127.0.0.1/d", last_modified="Mon, 30 Nov 2026 07:00:00 GMT")]
    # unconditional requests ramp up (an eighth, a quarter, a half, then whole batches)
    assert [len(b) for b in request_batches(fresh, 250)] == [31, 62, 125, 250, 132]
    assert [len(b) for b in request_batches(known, 250)] == [500, 100]
    mixed = request_batches(known[:400] + fresh[:100] + dated, 250)
    assert [len(b) for b in mixed] == [431, 62, 8]  # 400 halves + 31 fresh; 62 fresh; rest
    assert [r for b in mixed for r in b] == known[:400] + fresh[:100] + dated  # order kept
    late = request_batches(fresh[:200] + known[:400], 250)
    assert [len(b) for b in late] == [31, 62, 107 + 286, 114]  # 107 + 286 halves = 250


def test_conditional_requests_weigh_what_the_last_batch_brought() -> None:
    known = [FetchRequest(f"http://127.0.0.1/k{i}", etag=f'"{i}"') for i in range(3000)]
    now = datetime(2026, 11, 30, tzinfo=UTC)

    def came_back(batch: list[FetchRequest], bodies: int) -> dict[str, list[Attempt]]:
        return {
            r.url: [
                Attempt(
                    url=r.url,
                    started_at=now,
                    elapsed_ms=1,
                    outcome=Outcome.OK,
                    http_status=200,
                    content_hash="d" * 64,
                )
                if i < bodies
                else Attempt(
                    url=r.url,
                    started_at=now,
                    elapsed_ms=1,
                    outcome=Outcome.NOT_MODIFIED,
                    http_status=304,
                )
            ]
            for i, r in enumerate(batch)
        }

    batcher = Batches(known, 250)
    first = batcher.next()
    assert len(first) == 500  # a half each before any came back
    batcher.observe(first, came_back(first, 0))
    unchanged = batcher.next()
    assert len(unchanged) == 750  # all 304s: a third each, no less
    batcher.observe(unchanged, came_back(unchanged, 750))
    changed = batcher.next()
    assert len(changed) == 250  # every one brought a body: no more bodies than a batch
    batcher.observe(changed, came_back(changed, 50))
    assert len(batcher.next()) == 750  # a fifth brought one: a third each again
    assert sum(len(b) for b in iter(batcher.next, [])) == 3000 - 500 - 750 - 250 - 750
