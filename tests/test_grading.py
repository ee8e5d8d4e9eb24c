"""The grade and freshness rules of CONTRACT.md, as small tables of cases.

Each case stores real rows through the warehouse layer (catalog, pages,
fetches, checks) in a real DuckDB file and reads the contract's views.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest
from store_support import T0, Warehouse

from warehouse.db import set_now


@pytest.fixture
def wh(tmp_path: Path) -> Warehouse:
    w = Warehouse(tmp_path / "w.duckdb")
    yield w
    w.con.close()


# (outcome per source, expected claim grade); None = never fetched
CLAIM_CASES = [
    ({"p": "confirmed"}, "documented"),
    ({"p": "confirmed", "t": "absent"}, "documented"),
    ({"p": "confirmed", "p2": "changed"}, "documented"),
    ({"p": "changed", "t": "confirmed"}, "contradicted"),
    ({"p": "changed"}, "contradicted"),
    ({"p": "absent", "t": "confirmed"}, "reported"),
    ({"p": None, "t": "confirmed"}, "reported"),
    ({"p": "absent", "t": "changed"}, "unverified"),
    ({"p": "absent", "t": "absent"}, "unverified"),
    ({"p": None, "t": None}, "unverified"),
]


@pytest.mark.parametrize(("outcomes", "grade"), CLAIM_CASES)
def test_claim_grade_rules(wh: Warehouse, outcomes: dict, grade: str) -> None:
    wh.catalog({"c": None}, list(outcomes))
    for source, outcome in outcomes.items():
        if outcome is not None:
            wh.check("c", source, wh.fetch(source, T0), outcome)
    wh.grade(T0)
    assert wh.claim("c")["grade"] == grade
    confirming = sorted(s for s, o in outcomes.items() if o == "confirmed")
    assert wh.claim("c")["confirming_sources"] == confirming


# claim grades in a record -> record grade
RECORD_CASES = [
    (["documented", "documented"], "documented"),
    (["documented", "reported"], "reported"),
    (["reported", "unverified"], "unverified"),
    (["unverified", "contradicted"], "contradicted"),
    (["documented", "contradicted", "reported"], "contradicted"),
    ([], "unverified"),
]
HOW = {  # outcomes on (p, t) that give each claim grade
    "documented": ("confirmed", "absent"),
    "reported": ("absent", "confirmed"),
    "unverified": ("absent", "absent"),
    "contradicted": ("changed", "confirmed"),
}


@pytest.mark.parametrize(("claim_grades", "grade"), RECORD_CASES)
def test_record_grade_is_the_weakest_claim(wh: Warehouse, claim_grades: list, grade: str) -> None:
    claims = {f"c{i}": None for i in range(len(claim_grades))}
    wh.catalog(claims, ["p", "t"])
    snap_p, snap_t = wh.fetch("p", T0), wh.fetch("t", T0)
    for i, g in enumerate(claim_grades):
        wh.check(f"c{i}", "p", snap_p, HOW[g][0])
        wh.check(f"c{i}", "t", snap_t, HOW[g][1])
    wh.grade(T0)
    row = wh.record()
    assert row["grade"] == grade
    expected_confirming = {
        s for g in claim_grades for s, o in zip("pt", HOW[g], strict=True) if o == "confirmed"
    }
    assert row["sources_confirming"] == len(expected_confirming)


def test_changed_values_are_kept_on_the_claim(wh: Warehouse) -> None:
    wh.catalog({"c": None}, ["p", "t"])
    wh.check("c", "p", wh.fetch("p", T0), "changed", (2500.0,))
    wh.check("c", "t", wh.fetch("t", T0), "changed", (3000.0,))
    wh.grade(T0)
    assert wh.claim("c")["found_values"] == [2500.0]  # the primary's numbers first


def test_checked_at_comes_from_the_sources_backing_the_grade(wh: Warehouse) -> None:
    wh.catalog({"doc": None, "rep": None}, ["p", "t"])
    sp = wh.fetch("p", T0)
    st = wh.fetch("t", T0 + timedelta(days=2))
    wh.check("doc", "p", sp, "confirmed")
    wh.check("doc", "t", st, "confirmed")  # a later third party does not back a documented claim
    wh.check("rep", "p", sp, "absent")
    wh.check("rep", "t", st, "confirmed")
    wh.grade(T0 + timedelta(days=2))
    assert wh.claim("doc")["checked_at"] == T0
    assert wh.claim("rep")["checked_at"] == T0 + timedelta(days=2)
    record = wh.record()
    assert record["checked_at"] == T0  # the weakest link: the oldest claim
    assert record["stale_on"] == T0 + timedelta(days=15)
    assert record["via"] == "live"


def test_newest_of_two_confirming_primaries(wh: Warehouse) -> None:
    wh.catalog({"c": None}, ["p", "p2"])
    wh.check("c", "p", wh.fetch("p", T0), "confirmed")
    wh.check("c", "p2", wh.fetch("p2", T0 + timedelta(hours=5)), "confirmed")
    wh.grade(T0 + timedelta(hours=5))
    assert wh.claim("c")["checked_at"] == T0 + timedelta(hours=5)


@pytest.mark.parametrize(
    ("now", "freshness"),
    [
        (T0 + timedelta(days=14, hours=23), "fresh"),
        (T0 + timedelta(days=15), "stale"),  # stale from stale_on on
        (T0 + timedelta(days=40), "stale"),
    ],
)
def test_freshness_window(wh: Warehouse, now: datetime, freshness: str) -> None:
    wh.catalog({"c": None}, ["p"])
    wh.check("c", "p", wh.fetch("p", T0), "confirmed")
    wh.grade(T0)
    set_now(wh.con, now)
    assert wh.record()["freshness"] == freshness


def test_unverified_claim_leaves_the_record_unchecked(wh: Warehouse) -> None:
    wh.catalog({"a": None, "b": None}, ["p"])
    snap = wh.fetch("p", T0)
    wh.check("a", "p", snap, "confirmed")
    wh.check("b", "p", snap, "absent")
    wh.grade(T0)
    row = wh.record()
    assert (row["checked_at"], row["stale_on"], row["freshness"]) == (None, None, "unchecked")


def test_record_with_no_claims_is_unverified_and_unchecked(wh: Warehouse) -> None:
    wh.catalog({}, ["p"])
    wh.fetch("p", T0)
    wh.grade(T0)
    assert (wh.record()["grade"], wh.record()["freshness"]) == ("unverified", "unchecked")


def test_a_304_moves_checked_at_and_a_failure_does_not(wh: Warehouse) -> None:
    wh.catalog({"c": None}, ["p"])
    snap = wh.fetch("p", T0)
    wh.check("c", "p", snap, "confirmed")
    assert wh.fetch("p", T0 + timedelta(days=1), "not_modified") == snap
    wh.grade(T0 + timedelta(days=1))
    assert wh.claim("c")["checked_at"] == T0 + timedelta(days=1)
    wh.fetch("p", T0 + timedelta(days=2), "http_error")
    wh.grade(T0 + timedelta(days=2))
    assert wh.claim("c")["checked_at"] == T0 + timedelta(days=1)
    assert wh.claim("c")["grade"] == "documented"


def test_unchanged_body_adds_no_snapshot_but_moves_checked_at(wh: Warehouse) -> None:
    wh.catalog({"c": None}, ["p"])
    first = wh.fetch("p", T0)
    wh.check("c", "p", first, "confirmed")
    assert wh.fetch("p", T0 + timedelta(days=3)) == first
    wh.grade(T0 + timedelta(days=3))
    assert wh.con.execute("SELECT count(*) FROM snapshots").fetchone()[0] == 1
    assert wh.claim("c")["checked_at"] == T0 + timedelta(days=3)


def test_archived_copy_counts_at_its_capture_time(wh: Warehouse) -> None:
    wh.catalog({"c": None}, ["p"])
    captured = T0 - timedelta(days=10)
    wh.fetch("p", T0, "connect_error")
    snap = wh.fetch("p", T0, "ok", body="archived", via="archived", fetched_at=captured)
    wh.check("c", "p", snap, "confirmed")
    wh.grade(T0)
    row = wh.record()
    assert (row["checked_at"], row["via"], row["stale_on"]) == (
        captured,
        "archived",
        captured + timedelta(days=15),
    )
    health = wh.con.execute("SELECT consecutive_failures, reachable FROM source_health").fetchone()
    assert health == (1, False)  # the live failure still counts


def test_grade_history_appends_only_on_change(wh: Warehouse) -> None:
    wh.catalog({"c": None}, ["p"])
    snap = wh.fetch("p", T0)
    wh.check("c", "p", snap, "confirmed")
    wh.grade(T0)
    wh.grade(T0 + timedelta(days=1))  # nothing changed
    wh.grade(T0 + timedelta(days=20))  # now stale
    new = wh.fetch("p", T0 + timedelta(days=21), body="v2")
    wh.check("c", "p", new, "changed", (9.0,))
    wh.grade(T0 + timedelta(days=21))  # contradicted, fresh again
    rows = wh.con.execute(
        "SELECT grade, freshness, changed_at FROM grade_history ORDER BY changed_at"
    ).fetchall()
    assert rows == [
        ("documented", "fresh", T0),
        ("documented", "stale", T0 + timedelta(days=20)),
        ("contradicted", "fresh", T0 + timedelta(days=21)),
    ]


def test_claim_limited_to_named_sources(wh: Warehouse) -> None:
    wh.catalog({"c": ["t"]}, ["p", "t"])
    snap_p, snap_t = wh.fetch("p", T0), wh.fetch("t", T0)
    wh.check("c", "p", snap_p, "confirmed")  # stored, but p does not back this claim
    wh.check("c", "t", snap_t, "confirmed")
    wh.grade(T0)
    assert wh.claim("c")["grade"] == "reported"
    assert wh.con.execute("SELECT count(*) FROM claim_checks").fetchone()[0] == 1
