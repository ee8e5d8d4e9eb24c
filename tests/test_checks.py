"""Claim checks and review holds (flows/checks.py) on rows stored through the warehouse
layer: which pairs get checked, what each check row holds, and which new primary pages
are held for a person's eye."""

from __future__ import annotations

from datetime import timedelta

import pytest
from store_support import T0, Warehouse

from extractors.claims import match_claim
from extractors.values import CheckOutcome, ClaimCheck
from flows import checks

QUOTE = "Up to $300 in credits for each new account"
PAGES = {
    "same": "Welcome. Up to $300 in credits for each new account. Terms apply.",
    "other": "Welcome. Up to $200 in credits for each new account. Terms apply.",
    "near": "Welcome. Up to $300 in credit for every new account. Terms apply.",
    "none": "This page is about something else entirely.",
}


def stored_checks(wh: Warehouse) -> dict[tuple[str, str], tuple]:
    rows = wh.con.execute(
        "SELECT claim_id, source_id, snapshot_id, quote, outcome, found_text, found_values, "
        "closest_text, closest_score FROM store.checks"
    ).fetchall()
    return {(r[0], r[1]): r[2:] for r in rows}


def test_every_claim_is_checked_once_against_each_newest_page(wh: Warehouse) -> None:
    wh.catalog({"c": None}, ["p", "p2", "t", "t2"], quotes={"c": QUOTE})
    snaps = {
        "p": wh.fetch("p", T0, body=PAGES["same"]),
        "p2": wh.fetch("p2", T0, body=PAGES["other"]),
        "t": wh.fetch("t", T0, body=PAGES["near"]),
        "t2": wh.fetch("t2", T0, body=PAGES["none"]),
    }
    assert checks.check_claims(wh.con) == 4
    got = stored_checks(wh)
    assert set(got) == {("c", s) for s in snaps}
    for (_, source), row in got.items():
        assert row[:2] == (snaps[source], QUOTE)
    body = {"p": "same", "p2": "other", "t": "near", "t2": "none"}
    for source, name in body.items():
        # each row holds exactly what matching the quote against that page gives
        want = match_claim(QUOTE, PAGES[name])
        assert got[("c", source)][2:] == (
            want.outcome.value,
            want.found_text,
            list(want.found_values),
            want.closest_text,
            want.closest_score,
        ), source
    outcomes = {s: got[("c", s)][2] for s in snaps}
    assert outcomes == {"p": "confirmed", "p2": "changed", "t": "absent", "t2": "absent"}
    assert got[("c", "p2")][4] == [200.0]
    assert got[("c", "t")][5] is not None  # the near page's closest passage is kept
    # nothing is left to check until a page or a quote changes
    assert checks.check_claims(wh.con) == 0
    assert len(stored_checks(wh)) == 4


def test_a_new_page_or_a_new_quote_is_checked_again(wh: Warehouse) -> None:
    wh.catalog({"c": None}, ["p"], quotes={"c": QUOTE})
    first = wh.fetch("p", T0, body=PAGES["same"])
    assert checks.check_claims(wh.con) == 1
    second = wh.fetch("p", T0 + timedelta(days=1), body=PAGES["other"])
    assert checks.check_claims(wh.con) == 1
    wh.catalog({"c": None}, ["p"], quotes={"c": "Terms apply"})
    assert checks.check_claims(wh.con) == 1
    rows = wh.con.execute(
        "SELECT snapshot_id, quote, outcome FROM store.checks ORDER BY snapshot_id, quote DESC"
    ).fetchall()
    assert rows == [
        (first, QUOTE, "confirmed"),
        (second, QUOTE, "changed"),
        (second, "Terms apply", "confirmed"),
    ]


def test_a_claim_named_for_some_sources_is_checked_only_there(wh: Warehouse) -> None:
    wh.catalog({"c": ["t"], "d": None}, ["p", "t"], quotes={"c": QUOTE, "d": "Terms apply"})
    wh.fetch("p", T0, body=PAGES["same"])
    wh.fetch("t", T0, body=PAGES["same"])
    assert checks.check_claims(wh.con) == 3
    assert sorted(stored_checks(wh)) == [("c", "t"), ("d", "p"), ("d", "t")]


def test_checks_made_by_the_workers_are_stored_as_made(wh: Warehouse) -> None:
    wh.catalog({"c": None}, ["p", "t"], quotes={"c": QUOTE})
    wh.fetch("p", T0, body=PAGES["same"])
    wh.fetch("t", T0, body=PAGES["same"])
    # a worker's check for p's page is taken as it is, not made again
    made = ClaimCheck(CheckOutcome.CHANGED, "found here", (7.0, 8.0), None, None)
    assert checks.check_claims(wh.con, known={("p-" + PAGES["same"], QUOTE): made}) == 2
    got = stored_checks(wh)
    assert got[("c", "p")][2:] == ("changed", "found here", [7.0, 8.0], None, None)
    assert got[("c", "t")][2] == "confirmed"


def test_only_the_pages_named_are_checked(wh: Warehouse) -> None:
    wh.catalog({"c": None}, ["p", "t"], quotes={"c": QUOTE})
    wh.fetch("p", T0, body=PAGES["same"])
    wh.fetch("t", T0, body=PAGES["other"])
    assert checks.check_claims(wh.con, hashes=["t-" + PAGES["other"]]) == 1
    assert list(stored_checks(wh)) == [("c", "t")]
    assert checks.check_claims(wh.con, hashes=[]) == 0
    assert checks.check_claims(wh.con) == 1
    assert sorted(stored_checks(wh)) == [("c", "p"), ("c", "t")]


def test_texts_are_read_in_chunks_and_none_is_missed(
    wh: Warehouse, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checks, "TEXTS_PER_READ", 2)
    sources = ["p", "p2", "t", "t2"]
    wh.catalog({"c": None}, sources, quotes={"c": QUOTE})
    for source in sources:
        wh.fetch(source, T0, body=PAGES["same"])  # four pages: each hash names its source
    assert checks.check_claims(wh.con) == 4
    assert {k: v[2] for k, v in stored_checks(wh).items()} == {
        ("c", s): "confirmed" for s in sources
    }


LONG = "A long page about credits for new accounts. " * 46  # 2,024 characters


def reviews(wh: Warehouse) -> list[tuple]:
    return wh.con.execute(
        "SELECT source_id, snapshot_id, reason FROM store.snapshot_reviews ORDER BY snapshot_id"
    ).fetchall()


def test_a_primary_that_loses_most_of_its_text_is_held(wh: Warehouse) -> None:
    wh.catalog({"c": None}, ["p", "t"])
    first = wh.fetch("p", T0, body=LONG)
    wh.fetch("t", T0, body=LONG)
    # a first page has nothing to compare with: looked at, passed, not returned
    assert checks.review_snapshots(wh.con, T0) == []
    assert reviews(wh) == [("p", first, None)]  # third parties are never held
    kept = wh.fetch("p", T0 + timedelta(days=1), body=LONG[: int(len(LONG) * 0.31)])
    assert checks.review_snapshots(wh.con, T0) == []  # 31% left: passed
    gutted = wh.fetch("p", T0 + timedelta(days=2), body=LONG[:150])
    held = checks.review_snapshots(wh.con, T0 + timedelta(days=2))
    assert [(r.record_id, r.source_id, r.snapshot_id) for r in held] == [("r", "p", gutted)]
    # compared with the last page that counted, not with the one before
    assert held[0].reason == "main text fell from 627 to 150 characters"
    assert reviews(wh)[1:] == [("p", kept, None), ("p", gutted, held[0].reason)]
    flagged = wh.con.execute(
        "SELECT flagged_at FROM store.snapshot_reviews WHERE snapshot_id = ?", [gutted]
    ).fetchone()[0]
    assert flagged == T0 + timedelta(days=2)
    assert checks.review_snapshots(wh.con, T0) == []  # each page is looked at once
    # a page after a held one is compared with the last one that counted
    back = wh.fetch("p", T0 + timedelta(days=3), body=LONG[:100])
    again = checks.review_snapshots(wh.con, T0 + timedelta(days=3))
    assert [(r.snapshot_id, r.reason) for r in again] == [
        (back, "main text fell from 627 to 100 characters")
    ]


def test_a_primary_that_loses_every_confirmed_claim_is_held(wh: Warehouse) -> None:
    quotes = {"a": "credits for new accounts", "b": "A long page"}
    wh.catalog({"a": None, "b": None}, ["p"], quotes=quotes)
    wh.fetch("p", T0, body=LONG)
    checks.check_claims(wh.con)
    checks.review_snapshots(wh.con, T0)
    # the same length, but neither quote is there any more
    new = wh.fetch("p", T0 + timedelta(days=1), body="Z" * len(LONG))
    checks.check_claims(wh.con)
    held = checks.review_snapshots(wh.con, T0 + timedelta(days=1))
    assert [(r.snapshot_id, r.reason) for r in held] == [
        (new, "all 2 claims it confirmed are gone at once")
    ]


def test_an_archived_copy_is_not_reviewed(wh: Warehouse) -> None:
    wh.catalog({"c": None}, ["p"])
    wh.fetch("p", T0, body=LONG)
    checks.review_snapshots(wh.con, T0)
    wh.fetch("p", T0, "connect_error")
    wh.fetch("p", T0, body="short", via="archived", fetched_at=T0 - timedelta(days=3))
    assert checks.review_snapshots(wh.con, T0) == []
    assert len(reviews(wh)) == 1
