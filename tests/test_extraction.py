"""The extraction step on a real process pool: pages read once, claims checked in hand."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

import pytest

from extractors.claims import match_claim
from extractors.values import CheckOutcome, Outcome
from flows.fetching import Attempt
from flows.reading import extract_batch
from warehouse import bodies

PAGE = """<html><head><title>Credits</title></head><body><article>
<h1>Reproduction challenge</h1>
<p>The challenge offers $4,000 in GPU credits for the best runs, split between teams.</p>
<p>First place: $2,500. Applications are open until 15 December.</p>
</article></body></html>"""


def attempt(url: str, body: str) -> Attempt:
    raw = body.encode()
    return Attempt(
        url=url,
        started_at=datetime(2026, 11, 30, tzinfo=UTC),
        elapsed_ms=5,
        outcome=Outcome.OK,
        http_status=200,
        body=raw,
        content_hash=hashlib.sha256(raw).hexdigest(),
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
    wanted = {a.content_hash, other.content_hash}
    out = extract_batch([a, same_body, other], wanted, quotes, workers=workers)
    by_hash = {e.page.content_hash: e for e in out}
    assert set(by_hash) == wanted  # the shared body is read once
    first = by_hash[a.content_hash]
    assert bodies.decompress(first.page.body_z) == PAGE.encode()
    assert first.page.body_z == bodies.compress(PAGE.encode())  # compressed in the worker
    checks = dict(first.checks)
    assert set(checks) == set(quotes[a.url]) | set(quotes[same_body.url])
    assert checks["$4,000 in GPU credits for the best runs"].outcome is CheckOutcome.CONFIRMED
    assert checks["First place: $2,000"].outcome is CheckOutcome.CHANGED
    assert checks["First place: $2,000"].found_values == (2500.0,)
    changed = dict(by_hash[other.content_hash].checks)["$4,000 in GPU credits for the best runs"]
    assert changed == match_claim(
        "$4,000 in GPU credits for the best runs", by_hash[other.content_hash].page.text
    )
    assert changed.outcome is CheckOutcome.CHANGED


def test_pages_not_wanted_are_not_read() -> None:
    a = attempt("http://127.0.0.1/a", PAGE)
    assert extract_batch([a], set(), {a.url: ("x",)}, workers=1) == []
