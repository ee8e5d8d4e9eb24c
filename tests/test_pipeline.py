"""The extraction step on a real process pool: pages read once, claims checked in hand."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

import pytest

from extractors.claims import match_claim
from extractors.values import CheckOutcome
from flows.attempts import Attempt, Outcome
from flows.extraction import extract_batch
from warehouse import bodies

PAGE = """<html><head><title>Credits</title></head><body><article>
<h1>Reproduction challenge</h1>
<p>The challenge offers $4,000 in GPU credits for the best runs, split between teams.</p>
<p>First place: $2,500. Applications are open until 15 December.</p>
</article></body></html>"""


def attempt(url: str, body: str) -> Attempt:
    raw = body.encode()
    return Attempt(
        url,
        datetime(2026, 11, 30, tzinfo=UTC),
        5,
        Outcome.OK,
        200,
        body=raw,
        digest=hashlib.sha256(raw).hexdigest(),
        content_type="text/html",
        encoding="utf-8",
    )


@pytest.mark.parametrize("workers", [1, 2])
def test_each_page_read_once_with_its_quotes_checked(workers: int) -> None:
    a = attempt("http://127.0.0.1/a", PAGE)
    same_body = attempt("http://127.0.0.1/b", PAGE)
    other = attempt("http://127.0.0.1/c", PAGE.replace("$4,000", "$5,000"))
    quotes = {
        a.url: ("$4,000 in GPU credits for the best runs",),
        same_body.url: ("First place: $2,000",),
        other.url: ("$4,000 in GPU credits for the best runs",),
    }
    wanted = {a.digest, other.digest}
    out = extract_batch([a, same_body, other], wanted, quotes, workers=workers)
    by_hash = {e.page.content_hash: e for e in out}
    assert set(by_hash) == wanted  # the shared body is read once
    first = by_hash[a.digest]
    assert bodies.decompress(first.page.body_z) == PAGE.encode()
    assert first.page.body_z == bodies.compress(PAGE.encode())  # compressed in the worker
    checks = dict(first.checks)
    assert set(checks) == set(quotes[a.url]) | set(quotes[same_body.url])
    assert checks["$4,000 in GPU credits for the best runs"].outcome is CheckOutcome.CONFIRMED
    assert checks["First place: $2,000"].outcome is CheckOutcome.CHANGED
    assert checks["First place: $2,000"].found_values == (2500.0,)
    changed = dict(by_hash[other.digest].checks)["$4,000 in GPU credits for the best runs"]
    assert changed == match_claim(
        "$4,000 in GPU credits for the best runs", by_hash[other.digest].page.text
    )
    assert changed.outcome is CheckOutcome.CHANGED


def test_pages_not_wanted_are_not_read() -> None:
    a = attempt("http://127.0.0.1/a", PAGE)
    assert extract_batch([a], set(), {a.url: ("x",)}, workers=1) == []


def test_a_sealed_value_is_handed_over_once() -> None:
    from flows.tasks import Sealed

    bodies = [b"x" * 1000]
    sealed = Sealed(bodies)
    assert sealed.take() is bodies
    assert sealed.value is None  # whoever still holds the wrapper holds no bodies


def test_batches_hold_twice_as_many_conditional_requests() -> None:
    from flows.attempts import FetchRequest
    from flows.pipeline import Batches

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
    from flows.attempts import Attempt, FetchRequest, Outcome
    from flows.pipeline import Batches

    known = [FetchRequest(f"http://127.0.0.1/k{i}", etag=f'"{i}"') for i in range(3000)]
    now = datetime(2026, 11, 30, tzinfo=UTC)

    def came_back(batch: list[FetchRequest], bodies: int) -> dict[str, list[Attempt]]:
        return {
            r.url: [
                Attempt(r.url, now, 1, Outcome.OK, 200, digest="d" * 64)
                if i < bodies
                else Attempt(r.url, now, 1, Outcome.NOT_MODIFIED, 304)
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
