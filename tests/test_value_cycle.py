"""Statuses and figures over time through real refreshes: a real server on 127.0.0.1,
real Prefect flow runs, a real DuckDB file. A status that flips and a figure that moves
again are told in the summary and the alerts; reextract and gc keep every value."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from servers import Page, WebServer
from support import write_config

from warehouse.db import connect

pytestmark = pytest.mark.slow

T0 = datetime(2026, 11, 2, 6, 0, tzinfo=UTC)
PAGE = (
    "<html><head><title>Nimbus free tier</title></head><body><main>"
    "<h1>Nimbus free tier</h1><p>The free tier gives {hours} GPU hours per month on A100 "
    "nodes.</p><p>Pro costs {price} a month.</p><p>{status}</p></main></body></html>"
)


def page(hours: int, price: str, status: str) -> Page:
    return Page(PAGE.format(hours=hours, price=price, status=status))


def refresh(config: Path, when: datetime, monkeypatch: pytest.MonkeyPatch, capsys) -> str:  # type: ignore[no-untyped-def]
    from evidence_cli.main import main

    monkeypatch.setenv("EVIDENCE_NOW", when.isoformat())
    capsys.readouterr()
    assert main(["refresh", "--config", str(config)]) == 0
    return capsys.readouterr().out


def values(db: Path) -> list[tuple]:
    con = connect(db, read_only=True)
    try:
        return con.execute("SELECT * FROM claim_values").fetchall()
    finally:
        con.close()


def test_statuses_and_figures_over_time(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from evidence_cli.main import main

    web.routes["/free"] = page(500, "$55", "Applications are open for the spring cohort.")
    db = tmp_path / "w.duckdb"
    config = write_config(
        tmp_path,
        f"""\
        id: nimbus
        title: Nimbus free tier
        sources: [{{id: nimbus-free, url: "{web.url("/free")}", role: primary}}]
        claims:
          - id: tier  # stays confirmed: the new page is not held for review
            quote: "Nimbus free tier"
          - id: gpu-hours
            quote: "500 GPU hours per month on A100 nodes"
            expect: {{at_least: 400, severity: error}}
          - id: price
            quote: "Pro costs $50 a month"
          - id: applications
            quote: "Applications are open"
            status: open
            expect: {{status_in: [open, waitlist]}}
        """,
        f"database: {db}\nfetch: {{retries: 0}}\n",
    )
    refresh(config, T0, monkeypatch, capsys)
    web.routes["/free"] = page(300, "$58", "Applications are closed for the spring cohort.")
    out = refresh(config, T0 + timedelta(days=1), monkeypatch, capsys)
    # broken conditions first, then the record line, then every value that moved
    assert out.splitlines()[0].startswith("nimbus/")
    assert "nimbus/gpu-hours: condition fail: 300 is below at_least 400 on nimbus-free" in out
    assert "nimbus/applications: condition warn: closed is not in status_in" in out
    assert "nimbus: gpu-hours on nimbus-free: 500 GPU hours -> 300 GPU hours" in out
    assert "nimbus: applications on nimbus-free: open -> closed" in out
    # the price was `changed` already ($50 quoted, $55 on the page): $55 -> $58 is told
    assert "nimbus: price on nimbus-free: $55 -> $58" in out

    con = connect(db, read_only=True)
    try:
        found = con.execute(
            "SELECT found_status FROM claim_checks WHERE claim_id = 'applications'"
        ).fetchone()
        assert found == ("closed",)
        assert con.execute("SELECT grade, conditions FROM record_status").fetchone() == (
            "contradicted",
            "fail",
        )
        titles = [t for (t,) in con.execute("SELECT title FROM notifications").fetchall()]
    finally:
        con.close()
    assert any(t.startswith("changed: nimbus") and "open -> closed" in t for t in titles)
    assert any(t.startswith("condition: nimbus gpu-hours fail") for t in titles)

    # nothing more moved: no new condition alert while it stays broken
    out = refresh(config, T0 + timedelta(days=2), monkeypatch, capsys)
    assert "condition" not in out
    web.routes["/free"] = page(500, "$58", "Applications are closed for the spring cohort.")
    out = refresh(config, T0 + timedelta(days=3), monkeypatch, capsys)
    assert "nimbus/gpu-hours: condition holds again (fail -> pass)" in out

    kept = values(db)
    hours = [row for row in kept if row[1] == "gpu-hours"]
    assert [(r[3], r[10]) for r in hours] == [(500, False), (300, False), (500, True)]

    capsys.readouterr()
    assert main(["show", "nimbus", "--config", str(config)]) == 0
    card = capsys.readouterr().out
    assert "values on nimbus-free: 500 GPU hours 2026-11-02 to 2026-11-02; 300 GPU hours" in card

    # reextract and gc keep every value
    assert main(["reextract", "--all", "--config", str(config)]) == 0
    assert values(db) == kept
    assert main(["gc", "--fetches-before", "2026-12-01", "--config", str(config)]) == 0
    assert values(db) == kept
    raw = json.loads(
        _sql(main, config, capsys, "SELECT claim_id, condition FROM claim_status ORDER BY 1")
    )
    assert raw == [
        {"claim_id": "applications", "condition": "warn"},
        {"claim_id": "gpu-hours", "condition": "pass"},
        {"claim_id": "price", "condition": None},
        {"claim_id": "tier", "condition": None},
    ]


def _sql(main, config: Path, capsys, query: str) -> str:  # type: ignore[no-untyped-def]
    capsys.readouterr()
    assert main(["sql", query, "--format", "json", "--config", str(config)]) == 0
    return capsys.readouterr().out
