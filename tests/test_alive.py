"""Evidence that is alive: sources that disagree or die, through real refreshes of pages
served on 127.0.0.1, days apart by EVIDENCE_NOW (docs/grading.md, "Sources that disagree or
die")."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from servers import Page, WebServer
from support import git, refresh_at, write_config

from evidence_cli.main import main
from flows.refresh import refresh_flow
from warehouse.db import connect

pytestmark = pytest.mark.slow

T0 = datetime(2026, 11, 2, 6, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def _page(sentence: str) -> str:
    return (
        "<html><head><title>Acme research credits</title></head><body><main>"
        "<h1>Acme research credits</h1>"
        f"<p>{sentence}</p>"
        "<p>Teams of academic researchers may apply through the form on this page; each "
        "application is read by two reviewers within a fortnight of its arrival.</p>"
        "</main></body></html>"
    )


OLD = _page("Each team receives $4,000 in GPU credits for the year.")
NEW = _page("Each team receives $2,500 in GPU credits for the year.")


def _catalog(tmp_path: Path, web: WebServer, claims: str) -> tuple[Path, Path]:
    db = tmp_path / "w.duckdb"
    config = write_config(
        tmp_path,
        f"""
        id: acme
        title: Acme research credits
        sources:
          - {{id: programme, url: "{web.url("/programme")}", role: primary}}
          - {{id: launch-post, url: "{web.url("/launch")}", role: primary}}
        claims:
{claims}
        """,
        f"database: {db}\nfetch: {{retries: 0}}\n",
    )
    return config, db


CREDITS = '          - {id: gpu-credits, quote: "$4,000 in GPU credits"}'


def _rows(db: Path, sql: str) -> list[tuple]:
    con = connect(db, read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def _grade(db: Path, claim: str = "gpu-credits") -> tuple:
    (row,) = _rows(db, f"SELECT grade FROM claim_status WHERE claim_id = '{claim}'")  # noqa: S608
    return row[0]


def _review(db: Path, config: Path, capsys: pytest.CaptureFixture[str]) -> list[dict]:
    assert main(["review", "--format", "json", "--config", str(config), "--db", str(db)]) == 0
    return json.loads(capsys.readouterr().out or "[]")


def _run_as_printed(command: str, cwd: Path, when: datetime) -> subprocess.CompletedProcess:
    """A printed command run as a person would: from another folder, with no EVIDENCE_
    variable but the clock."""
    argv = shlex.split(command)
    assert argv[0] == "evidence"
    env = {k: v for k, v in os.environ.items() if not k.startswith("EVIDENCE_")}
    env["EVIDENCE_NOW"] = when.isoformat()
    return subprocess.run(
        [sys.executable, "-m", "evidence_cli", *argv[1:]],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_moved_page_and_a_dead_one(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config, db = _catalog(tmp_path, web, CREDITS)
    web.routes["/programme"] = Page(OLD)
    web.routes["/launch"] = Page(OLD)
    refresh_at(config, db, T0, monkeypatch)
    assert _grade(db) == "documented"

    # the programme page moves; the launch post answers 404 from now on
    web.routes["/programme"] = Page(NEW)
    web.routes["/launch"] = Page("<html><body>Not here</body></html>", status=404)
    refresh_at(config, db, T0 + DAY, monkeypatch)
    # the newest evidence decides: the launch post's copy is a day older
    assert _grade(db) == "contradicted"
    assert main(["show", "acme", "--config", str(config), "--db", str(db)]) == 0
    card = capsys.readouterr().out
    (line,) = [x for x in card.splitlines() if x.strip().startswith("launch-post (primary)")]
    assert "last fetch failed: http_error 404 since 2026-11-03" in line
    assert _rows(db, "SELECT dead_since FROM source_health WHERE source_id = 'launch-post'") == [
        (None,)
    ]

    for day in (2, 3, 4):
        refresh_at(config, db, T0 + day * DAY, monkeypatch)
    # three days and three attempts, every one a 404: dead since the attempt that met both
    ((dead_since,),) = _rows(
        db, "SELECT dead_since FROM source_health WHERE source_id = 'launch-post'"
    )
    assert dead_since == T0 + 4 * DAY
    dead = _rows(db, "SELECT title FROM notifications WHERE kind = 'dead'")
    assert len(dead) == 1 and dead[0][0].startswith("dead: acme launch-post")
    refresh_at(config, db, T0 + 5 * DAY, monkeypatch)
    assert len(_rows(db, "SELECT 1 FROM notifications WHERE kind = 'dead'")) == 1  # once

    items = _review(db, config, capsys)
    kinds = {(i["kind"], i["item"]) for i in items}
    assert ("dead", "launch-post") in kinds
    assert ("unreachable", "launch-post") not in kinds
    (changed,) = [i for i in items if i["kind"] == "changed"]
    assert changed["what"].startswith("$4,000 -> $2,500 on programme")
    assert "--source programme" in changed["command"]
    assert f"--config {config.resolve()}" in changed["command"]

    # run as printed, from another folder, with no environment: it settles the item
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = _run_as_printed(changed["command"], elsewhere, T0 + 5 * DAY)
    assert done.returncode == 0, done.stderr
    assert "-> documented" in done.stdout
    assert _grade(db) == "documented"
    items = _review(db, config, capsys)
    assert [(i["kind"], i["item"]) for i in items] == [("dead", "launch-post")]

    # the first success revives it
    web.routes["/launch"] = Page(NEW)
    refresh_at(config, db, T0 + 6 * DAY, monkeypatch)
    assert _rows(db, "SELECT dead_since FROM source_health WHERE source_id = 'launch-post'") == [
        (None,)
    ]
    assert _review(db, config, capsys) == []


def test_a_dead_source_stops_backing_the_grade(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config, db = _catalog(tmp_path, web, CREDITS)
    web.routes["/programme"] = Page(_page("A page that no longer quotes the figure at all."))
    web.routes["/launch"] = Page(OLD)
    refresh_at(config, db, T0, monkeypatch)
    assert _grade(db) == "documented"  # on the launch post alone
    web.routes["/launch"] = Page("gone", status=410)
    for day in (1, 2, 3):
        refresh_at(config, db, T0 + day * DAY, monkeypatch)
    assert _grade(db) == "documented"  # failing, not dead yet: its copy still counts
    refresh_at(config, db, T0 + 4 * DAY, monkeypatch)
    assert _grade(db) == "unverified"  # dead: its copy no longer backs the grade


def test_two_healthy_primaries_each_with_its_own_claim_need_nobody(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    claims = (
        '          - {id: gpu-credits, quote: "$4,000 in GPU credits"}\n'
        '          - {id: reviewers, quote: "read by two reviewers"}'
    )
    config, db = _catalog(tmp_path, web, claims)
    web.routes["/programme"] = Page(OLD)
    web.routes["/launch"] = Page(
        _page("The programme has read by two reviewers every proposal since launch.")
    )
    refresh_at(config, db, T0, monkeypatch)
    assert _grade(db, "gpu-credits") == "documented"
    assert _grade(db, "reviewers") == "documented"
    # each claim absent on the other page: no disagreement, nothing to review
    assert _review(db, config, capsys) == []


def test_primaries_that_disagree_in_one_run(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config, db = _catalog(tmp_path, web, CREDITS)
    web.routes["/programme"] = Page(OLD)
    web.routes["/launch"] = Page(OLD)
    refresh_at(config, db, T0, monkeypatch)
    web.routes["/programme"] = Page(NEW)
    refresh_at(config, db, T0 + DAY, monkeypatch)
    assert _grade(db) == "documented"  # one run: neither is newer
    (item,) = _review(db, config, capsys)
    assert item["kind"] == "disagree" and item["item"] == "gpu-credits"
    assert item["what"].startswith("primaries disagree: $4,000 -> $2,500 on programme")
    assert "confirmed on launch-post" in item["what"]
    assert "sources: [programme]" in item["command"]


def test_a_held_page_is_in_the_summary_and_a_date_range_is_a_value(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = tmp_path / "w.duckdb"
    config = write_config(
        tmp_path,
        f"""
        - id: window
          title: Acme call window
          sources: [{{id: call, url: "{web.url("/call")}", role: primary}}]
          claims:
            - {{id: dates, quote: "open July 15 to August 2, 2026"}}
        - id: held
          title: Acme grants
          sources: [{{id: own, url: "{web.url("/own")}", role: primary}}]
          claims:
            - {{id: credits, quote: "$4,000 in GPU credits"}}
            - {{id: reviewers, quote: "read by two reviewers"}}
        """,
        f"database: {db}\nfetch: {{retries: 0}}\n",
    )
    web.routes["/call"] = Page(_page("The call is open July 15 to August 2, 2026."))
    web.routes["/own"] = Page(OLD)
    monkeypatch.setenv("EVIDENCE_NOW", T0.isoformat())
    refresh_flow(str(config), str(db), None)
    web.routes["/call"] = Page(_page("The call is open July 15 to August 9, 2026."))
    web.routes["/own"] = Page("<html><body><p>Under maintenance.</p></body></html>")
    monkeypatch.setenv("EVIDENCE_NOW", (T0 + DAY).isoformat())
    report = refresh_flow(str(config), str(db), None)
    lines = report.summary_lines()
    assert any(
        "dates on call: July 15 to August 2, 2026 -> July 15 to August 9, 2026" in x for x in lines
    ), lines
    held = [x for x in lines if x.startswith("held for review: held/own")]
    assert len(held) == 1, lines
    held = held[0]
    assert f"evidence accept held own --config {config.resolve()}" in held
    values = _rows(db, "SELECT text, current FROM claim_values WHERE claim_id = 'dates'")
    assert values == [("July 15 to August 2, 2026", False), ("July 15 to August 9, 2026", True)]


def _said(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_a_source_that_fails_dies_and_revives_is_told_alike_everywhere(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    config, db = _catalog(tmp_path, web, CREDITS)
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", "config")
    git(tmp_path, "commit", "-q", "-m", "catalog")
    scope = ["--config", str(config), "--db", str(db)]
    web.routes["/programme"] = Page(_page("A page that no longer quotes the figure at all."))
    web.routes["/launch"] = Page(OLD)
    refresh_at(config, db, T0, monkeypatch)
    assert _grade(db) == "documented"

    web.routes["/launch"] = Page("gone", status=410)
    for day in (1, 2, 3):
        refresh_at(config, db, T0 + day * DAY, monkeypatch)
    assert _grade(db) == "documented"  # failing: its copy still counts
    monkeypatch.setenv("EVIDENCE_NOW", (T0 + 4 * DAY).isoformat())
    report = refresh_flow(str(config), str(db), None)
    assert _grade(db) == "unverified"
    said = "\n".join(report.summary_lines())
    # the move is explained by the source that stopped counting, by name
    assert "launch-post's page no longer counts (its source is dead): gpu-credits" in said

    # every place that counts confirming sources counts as the grade does
    (status,) = json.loads(_said(["status", "--format", "json", *scope], capsys))
    assert status["sources_confirming"] == 0
    card = _said(["show", "acme", *scope], capsys)
    evidence = next(line for line in card.splitlines() if "Evidence" in line)
    assert "launch-post" not in evidence.partition("confirmed by")[2], card
    assert "confirmed by launch-post" not in card
    site = tmp_path / "site"
    _said(["site", "--out", str(site), *scope], capsys)
    page = (site / "records" / "acme.html").read_text()
    assert "unverified" in page and "no longer counts" in page
    assert "confirmed by launch-post" not in page, page
    # check and plan grade as the refresh did: removing the dead source moves nothing
    record = config / "records" / "r.yaml"
    text = record.read_text()
    line = next(x for x in text.splitlines(keepends=True) if "id: launch-post" in x)
    record.write_text(text.replace(line, ""))
    plan = _said(["plan", *scope], capsys)
    assert "1 record(s) edited" in plan and "documented -> " not in plan, plan
    git(tmp_path, "checkout", "--", "config")

    # one dead message, dated by the first failure, with the exact lines to edit
    dead = _rows(db, "SELECT title, body FROM notifications WHERE kind = 'dead'")
    assert len(dead) == 1
    title, body = dead[0]
    assert title == f"dead: acme launch-post has failed for good since {(T0 + DAY).date()}"
    assert f"{record}:" in body and "fetch.archive_fallback" in body
    (item,) = [i for i in _review(db, config, capsys) if i["kind"] == "dead"]
    assert item["command"].startswith(f"fix its url ({record}:")
    unreachable = _rows(db, "SELECT count(*) FROM notifications WHERE kind = 'unreachable'")
    for day in (5, 6):
        refresh_at(config, db, T0 + day * DAY, monkeypatch)
    # after its death no unreachable message is sent again
    assert _rows(db, "SELECT count(*) FROM notifications WHERE kind = 'unreachable'") == (
        unreachable
    )

    web.routes["/launch"] = Page(OLD)
    monkeypatch.setenv("EVIDENCE_NOW", (T0 + 7 * DAY).isoformat())
    report = refresh_flow(str(config), str(db), None)
    assert _grade(db) == "documented"
    said = "\n".join(report.summary_lines())
    assert "unverified" in said and "documented" in said
    assert _rows(db, "SELECT count(*) FROM notifications WHERE kind = 'recovered'") == [(1,)]
    assert _rows(db, "SELECT dead_since FROM source_health WHERE source_id = 'launch-post'") == [
        (None,)
    ]
