"""The grade and freshness rules of docs/grading.md, as small tables of cases.

Each case stores real rows through the warehouse layer (catalog, pages,
fetches, checks) in a real DuckDB file and reads the stable views.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from store_support import T0, Warehouse

from warehouse.db import set_now

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


def test_a_claim_is_dated_only_by_the_checks_behind_its_grade(wh: Warehouse) -> None:
    later = T0 + timedelta(days=2)
    wh.catalog({"contra": None, "doc": None}, ["p", "t"])
    sp, st = wh.fetch("p", T0), wh.fetch("t", later)
    wh.check("contra", "p", sp, "changed", (5.0,))
    wh.check("contra", "t", st, "confirmed")  # a later third party does not date it
    wh.check("doc", "p", sp, "confirmed")
    wh.check("doc", "t", st, "changed", (6.0,))  # nor does a later change elsewhere
    wh.grade(later)
    assert (wh.claim("contra")["grade"], wh.claim("contra")["checked_at"]) == ("contradicted", T0)
    assert (wh.claim("doc")["grade"], wh.claim("doc")["checked_at"]) == ("documented", T0)


def test_via_comes_from_the_newest_backing_check(wh: Warehouse) -> None:
    wh.catalog({"c": None}, ["p", "p2"])
    captured = T0 - timedelta(days=3)
    wh.fetch("p", T0, "connect_error")
    archived = wh.fetch("p", T0, "ok", body="old", via="archived", fetched_at=captured)
    wh.check("c", "p", archived, "confirmed")
    wh.check("c", "p2", wh.fetch("p2", T0), "confirmed")
    wh.grade(T0)
    assert (wh.record()["via"], wh.record()["checked_at"]) == ("live", T0)


def test_one_claim_resting_on_an_archived_copy_makes_the_record_archived(wh: Warehouse) -> None:
    wh.catalog({"a": ["p"], "b": ["p2"]}, ["p", "p2"])
    wh.fetch("p", T0, "connect_error")
    archived = wh.fetch("p", T0, "ok", body="old", via="archived", fetched_at=T0)
    wh.check("a", "p", archived, "confirmed")
    wh.check("b", "p2", wh.fetch("p2", T0), "confirmed")
    wh.grade(T0)
    assert wh.record()["via"] == "archived"


def test_changed_values_come_from_the_newest_primary_before_any_third_party(
    wh: Warehouse,
) -> None:
    wh.catalog({"c": None}, ["p", "p2", "t"])
    wh.check("c", "p", wh.fetch("p", T0), "changed", (2500.0,))
    wh.check("c", "p2", wh.fetch("p2", T0 + timedelta(hours=1)), "changed", (3000.0,))
    wh.check("c", "t", wh.fetch("t", T0 + timedelta(hours=2)), "changed", (9.0,))
    wh.grade(T0 + timedelta(hours=2))
    assert wh.claim("c")["found_values"] == [3000.0]


def test_an_unchecked_page_counts_as_absent_and_no_values_are_empty(wh: Warehouse) -> None:
    wh.catalog({"c": None}, ["p", "t"])
    wh.check("c", "p", wh.fetch("p", T0), "confirmed")
    snap_t = wh.fetch("t", T0)  # fetched, never checked
    wh.grade(T0)
    rows = wh.con.execute(
        "SELECT source_id, snapshot_id, outcome, found_values FROM claim_checks ORDER BY source_id"
    ).fetchall()
    assert rows[1] == ("t", snap_t, "absent", [])
    assert rows[0][2:] == ("confirmed", [])
    assert wh.claim("c")["found_values"] == []


def test_history_notes_a_grade_that_comes_back(wh: Warehouse) -> None:
    wh.catalog({"c": None}, ["p"])
    wh.check("c", "p", wh.fetch("p", T0), "confirmed")
    wh.grade(T0)
    wh.check("c", "p", wh.fetch("p", T0 + timedelta(days=1), body="v2"), "changed", (1.0,))
    wh.grade(T0 + timedelta(days=1))
    wh.check("c", "p", wh.fetch("p", T0 + timedelta(days=2), body="v3"), "confirmed")
    wh.grade(T0 + timedelta(days=2))
    grades = wh.con.execute("SELECT grade FROM grade_history ORDER BY changed_at").fetchall()
    assert [g for (g,) in grades] == ["documented", "contradicted", "documented"]


def test_history_notes_freshness_that_comes_back(wh: Warehouse) -> None:
    wh.catalog({"c": None}, ["p"])
    wh.check("c", "p", wh.fetch("p", T0), "confirmed")
    wh.grade(T0)
    wh.grade(T0 + timedelta(days=16))  # stale
    wh.fetch("p", T0 + timedelta(days=17))  # the same page again: checked, fresh
    wh.grade(T0 + timedelta(days=17))
    rows = wh.con.execute("SELECT freshness FROM grade_history ORDER BY changed_at").fetchall()
    assert [f for (f,) in rows] == ["fresh", "stale", "fresh"]
