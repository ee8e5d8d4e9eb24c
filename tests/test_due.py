"""Refreshing what is due (docs/design.md, "Refreshing what is due"): the change-rate
estimate against Cho and Garcia-Molina's formula on hand-made histories, and `refresh
--due` on a real catalog: what is fetched, why, and that what is skipped is no failure."""

from __future__ import annotations

import json
import math
import textwrap
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from servers import Page, WebServer
from support import refresh_at, write_config

from warehouse.db import connect

T0 = datetime(2026, 12, 1, 6, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def history(db: Path, fetches: list[tuple[float, int | None]], window_days: int = 15) -> None:
    """One source `r/s`, fetched on each (day, snapshot id or None for a failure)."""
    con = connect(db)
    try:
        con.execute(
            "INSERT INTO store.records (record_id, title, window_s, position) VALUES "
            "('r', 'R', ?, 0)",
            [window_days * 86400],
        )
        con.execute(
            "INSERT INTO store.sources VALUES ('r', 's', 'https://example.org/', 'primary', 0)"
        )
        for k, (day, snapshot) in enumerate(fetches):
            con.execute(
                "INSERT INTO store.fetches (fetch_id, run_id, record_id, source_id, url, "
                "started_at, outcome, snapshot_id, via) VALUES (?, ?, 'r', 's', "
                "'https://example.org/', ?, ?, ?, 'live')",
                [k + 1, f"run{k}", T0 + day * DAY, "ok" if snapshot else "http_error", snapshot],
            )
        con.execute("INSERT INTO store.schedule VALUES (86400, 86400, 0.5, 259200)")
    finally:
        con.close()


def estimate(db: Path) -> tuple:
    con = connect(db, read_only=True)
    try:
        return con.execute(
            "SELECT change_rate, next_due, retry_due, stale_due, change_due FROM store.source_due"
        ).fetchone()
    finally:
        con.close()


def cho(n: int, changes: int, interval_days: float) -> float:
    """The estimator of the paper: -log((n - X + 0.5) / (n + 0.5)) / I."""
    return -math.log((n - changes + 0.5) / (n + 0.5)) / interval_days


def test_regular_changes(tmp_path: Path) -> None:
    # fetched daily 21 times, a new page every other day: 10 changes in 20 intervals
    history(tmp_path / "w.duckdb", [(d, 1 + d // 2) for d in range(21)])
    rate, next_due, _, stale_due, change_due = estimate(tmp_path / "w.duckdb")
    assert rate == pytest.approx(cho(20, 10, 1.0))
    last = T0 + 20 * DAY
    assert change_due == last + timedelta(days=math.log(2) / rate)  # an even chance
    assert stale_due == last + 13 * DAY  # 15-day window, less a run and the margin
    assert next_due == min(change_due, stale_due)


def test_no_changes_leaves_only_the_window(tmp_path: Path) -> None:
    # watched unchanged daily for more than its 15-day window: learned
    history(tmp_path / "w.duckdb", [(d, 1) for d in range(17)])
    rate, next_due, _, stale_due, change_due = estimate(tmp_path / "w.duckdb")
    assert rate == 0 and change_due is None and next_due == stale_due == T0 + 29 * DAY


def test_changes_faster_than_the_fetches_count_the_hidden_ones(tmp_path: Path) -> None:
    # weekly fetches, a change seen at every one: more than one a week is likely
    history(tmp_path / "w.duckdb", [(7 * w, w + 1) for w in range(11)])
    rate, *_ = estimate(tmp_path / "w.duckdb")
    assert rate == pytest.approx(cho(10, 10, 7.0)) and rate > 10 / 70  # the naive X / T


def test_a_failing_source_is_tried_again_further_apart(tmp_path: Path) -> None:
    history(tmp_path / "w.duckdb", [(0, 1), (1, None), (2, None), (3, None)])
    _, next_due, retry_due, *_ = estimate(tmp_path / "w.duckdb")
    assert next_due == retry_due == T0 + 3 * DAY + 4 * DAY  # three failures: four runs on


def test_never_fetched_is_due_at_once(tmp_path: Path) -> None:
    history(tmp_path / "w.duckdb", [])
    assert estimate(tmp_path / "w.duckdb")[:2] == (None, None)


def _catalog(tmp_path: Path, web: WebServer, quote_b: str = "We offer 20 seats") -> Path:
    return write_config(
        tmp_path,
        textwrap.dedent(f"""\
        - id: a
          title: A
          sources: [{{id: a1, url: "{web.url("/a1")}", role: primary}},
                    {{id: a2, url: "{web.url("/gone")}", role: third-party}}]
          claims: [{{id: seats, quote: "We offer 10 seats"}}]
        - id: b
          title: B
          sources: [{{id: b1, url: "{web.url("/b1")}", role: primary}}]
          claims: [{{id: seats, quote: "{quote_b}"}}]
        """),
        f"database: {tmp_path / 'w.duckdb'}\nfetch: {{retries: 0}}\n"
        "alerts: {after_failures: 2, resend_after: 7d}\n",
    )


def _due(
    config: Path, capsys: pytest.CaptureFixture[str], at: datetime | None = None
) -> dict[str, str]:
    """What `sources --due` lists: for the next scheduled run, or for a run at `at`."""
    from evidence_cli.main import main

    capsys.readouterr()
    when = ["--at", at.isoformat()] if at else []
    assert main(["sources", "--due", *when, "--format", "json", "--config", str(config)]) == 0
    return {
        f"{r['record_id']}/{r['source_id']}": r["reason"]
        for r in json.loads(capsys.readouterr().out)
    }


@pytest.mark.slow
def test_refresh_due_fetches_what_is_due_and_says_why(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    web.routes["/a1"] = Page("<html><main><p>We offer 10 seats this year.</p></main></html>")
    web.routes["/b1"] = Page("<html><main><p>We offer 20 seats this year.</p></main></html>")
    web.routes["/gone"] = Page("gone", status=404)
    config = _catalog(tmp_path, web)
    db = tmp_path / "w.duckdb"
    refresh_at(config, db, T0, monkeypatch)
    hits = dict(web.hits)

    # asked just after that run, it answers for the next one, a day on: the failing source
    # (tried again one run later) and the new ones, being learned (a day after their first
    # fetch)
    learning = "learning how often it changes"
    monkeypatch.setenv("EVIDENCE_NOW", (T0 + timedelta(minutes=5)).isoformat())
    assert _due(config, capsys) == {
        "a/a1": learning,
        "a/a2": "failing (1 in a row): tried again",
        "b/b1": learning,
    }
    assert _due(config, capsys, at=T0 + timedelta(hours=1)) == {}  # a run then: nothing
    from flows.refresh import refresh_flow

    monkeypatch.setenv("EVIDENCE_NOW", (T0 + DAY).isoformat())
    report = refresh_flow(str(config), str(db), None, True)
    assert web.hits["/a1"] == hits["/a1"] + 1 and web.hits["/b1"] == hits["/b1"] + 1
    assert web.hits["/gone"] > hits["/gone"]
    assert report.urls == 3 and report.failed == 1
    # two days on: the failing one waits two runs now; the new ones, watched a day, are
    # due again (a day after); nothing fails, nothing is raised
    monkeypatch.setenv("EVIDENCE_NOW", (T0 + 2 * DAY).isoformat())
    assert _due(config, capsys, at=T0 + 2 * DAY) == {"a/a1": learning, "b/b1": learning}
    report = refresh_flow(str(config), str(db), None, True)
    assert report.urls == 2 and report.failures == [] and report.alerts == []
    hits = dict(web.hits)
    con = connect(db, read_only=True)
    try:
        status = con.execute(
            "SELECT record_id, grade, freshness FROM record_status ORDER BY 1"
        ).fetchall()
        health = con.execute(
            "SELECT source_id, consecutive_failures, next_due FROM source_health ORDER BY 1"
        ).fetchall()
    finally:
        con.close()
    assert status == [("a", "documented", "fresh"), ("b", "documented", "fresh")]
    assert health == [
        ("a1", 0, T0 + 4 * DAY),  # watched two days unchanged: two days on
        ("a2", 2, T0 + DAY + 2 * DAY),
        ("b1", 0, T0 + 4 * DAY),
    ]

    # a claim changed, a source asked for; then, 13 days after those, the window
    config = _catalog(tmp_path, web, quote_b="We offer 20 seats this year")
    monkeypatch.setenv("EVIDENCE_NOW", (T0 + 2 * DAY).isoformat())
    from evidence_cli.main import main
    from flows.catalog import load_catalog
    from flows.planning import catalog_rows
    from warehouse.store import sync_catalog

    con = connect(db)  # the catalog as the next refresh will store it: b1 has a new quote
    try:
        sync_catalog(con, *catalog_rows(load_catalog(config)))
        b1_due = con.execute("SELECT next_due FROM source_health WHERE source_id = 'b1'").fetchone()
    finally:
        con.close()
    assert b1_due == (T0 + 2 * DAY,)  # due since its last fetch
    assert main(["refresh", "--due", "--source", "a/a1", "--config", str(config)]) == 0
    assert web.hits["/a1"] == hits["/a1"] + 1 and web.hits["/b1"] == hits["/b1"] + 1
    monkeypatch.setenv("EVIDENCE_NOW", (T0 + 14 * DAY + timedelta(hours=1)).isoformat())
    due = _due(config, capsys)  # the next run: T0 + 15 days
    assert due["a/a1"] == due["b/b1"] == "its record would go stale before the next run"


def test_a_source_unknown_to_source_is_one_line(
    web: WebServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from evidence_cli.main import main

    config = _catalog(tmp_path, web)
    assert main(["refresh", "--due", "--source", "a/a9", "--config", str(config)]) == 2
    assert "no source 'a/a9'" in capsys.readouterr().err


def test_rates_are_said_to_three_significant_figures(tmp_path: Path) -> None:
    """A page new at every fetch, fetched every few hours for a day: many changes a
    day, said as the estimate can bear."""
    db = tmp_path / "w.duckdb"
    history(db, [(k * 0.35, k + 1) for k in range(4)])
    con = connect(db, now=T0 + 2 * DAY)
    try:
        (rate,) = con.execute("SELECT change_rate FROM source_health").fetchone()
        (full,) = con.execute("SELECT change_rate FROM store.source_due").fetchone()
        from warehouse import queries

        (due,) = queries.due_sources(con)
    finally:
        con.close()
    assert full == pytest.approx(cho(3, 3, 0.35)) and full != rate
    assert rate == float(f"{full:.3g}")
    assert due.reason == f"likely changed ({float(f'{full:.3g}'):g} changes a day)"
    assert len(due.reason.split("(")[1].split()[0].replace(".", "").strip("0")) <= 3


def test_a_rate_needs_a_day_of_watching(tmp_path: Path) -> None:
    """Two fetches minutes apart, the page new at each: no rate (not "1180 changes a
    day"); the source is still being learned, and due a day after its last fetch."""
    db = tmp_path / "w.duckdb"
    history(db, [(0, 1), (0.001, 2)])
    rate, next_due, *_ = estimate(db)
    assert rate is None
    assert next_due == T0 + timedelta(days=0.001) + DAY


@pytest.mark.parametrize(
    ("fetches", "wait_days"),
    [
        ([(0, 1)], 1),  # fetched once: again a day later
        ([(0, 1), (1, 1)], 1),  # watched a day: again a day later (day 2)
        ([(0, 1), (1, 1), (2, 1)], 2),  # two days: day 4
        ([(0, 1), (1, 1), (2, 1), (4, 1)], 4),  # day 8
    ],
)
def test_a_new_source_is_learned_at_growing_intervals(
    tmp_path: Path, fetches: list[tuple[float, int]], wait_days: int
) -> None:
    db = tmp_path / "w.duckdb"
    history(db, fetches)
    _, next_due, *_ = estimate(db)
    assert next_due == T0 + fetches[-1][0] * DAY + wait_days * DAY


def test_a_learned_source_is_planned_by_its_rate_or_its_window(tmp_path: Path) -> None:
    # unchanged for a whole window: learned, and due by its window only
    db = tmp_path / "w.duckdb"
    history(db, [(0, 1), (1, 1), (2, 1), (4, 1), (8, 1), (16, 1)])
    _, next_due, _, stale_due, change_due = estimate(db)
    assert change_due is None and next_due == stale_due == T0 + 29 * DAY


def test_the_default_threshold_is_the_documented_one() -> None:
    from flows.catalog import Settings

    assert Settings().schedule.change_threshold == 0.1


def test_sources_due_says_for_which_run(
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from evidence_cli.main import main

    config = _catalog(tmp_path, web)
    history(tmp_path / "w.duckdb", [])
    monkeypatch.setenv("EVIDENCE_NOW", "2026-12-01T07:30:00+00:00")
    assert main(["sources", "--due", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 source(s) due at the next scheduled run, 2026-12-02 06:00 UTC")
    assert "never fetched" in out
    assert main(["sources", "--at", "2026-12-05", "--config", str(config)]) == 2
    assert "--at goes with --due" in capsys.readouterr().err
