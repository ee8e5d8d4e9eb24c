"""Captures of the pages claims rest on, sent to a Save Page Now 2 stand-in on 127.0.0.1
(tests/spn2.py): queued when a claim is first confirmed and when its page changes, sent
once each in order at the configured rate across runs, never blocking a refresh; 429,
error and pending jobs; the archived copy in `snapshots`, the card and the site."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from servers import Page, WebServer
from spn2 import SaveServer
from support import refresh_at, write_config

from warehouse.db import connect

T0 = datetime(2026, 12, 1, 6, 0, tzinfo=UTC)
ARCHIVED = "/web/20261201061503/"


@pytest.fixture
def spn2() -> Iterator[SaveServer]:
    server = SaveServer()
    yield server
    server.close()


def catalog(
    tmp_path: Path,
    web: WebServer,
    spn2: SaveServer,
    per_minute: int = 2,
    shared: bool = False,
    key_env: str = "EVIDENCE_SECRET_SPN2",
) -> Path:
    """Four records of one primary each: three pages confirm their claim, one does not
    (`shared`: a fifth record cites the first one's page)."""
    records = []
    for r in range(4):
        path = f"/r{r}"
        seats = r * 10 if r < 3 else 999
        web.routes[path] = Page(
            f"<html><main><p>We offer {seats} seats this year.</p></main></html>"
        )
        records.append(
            textwrap.dedent(f"""\
            - id: r{r}
              title: Record {r}
              sources: [{{id: p, url: "{web.url(path)}", role: primary}}]
              claims: [{{id: seats, quote: "We offer {r * 10} seats"}}]
            """)
        )
    if shared:
        records.append(
            f'- id: r4\n  title: Record 4\n  sources: [{{id: p, url: "{web.url("/r0")}", '
            'role: third-party}]\n  claims: [{id: seats, quote: "We offer 0 seats"}]\n'
        )
    return write_config(
        tmp_path,
        "".join(records),
        f"database: {tmp_path / 'w.duckdb'}\nfetch: {{retries: 0}}\n"
        f"archive: {{save: '{spn2.base}', per_minute: {per_minute}, key_env: {key_env}}}\n",
    )


def captures(db: Path) -> list[tuple]:
    con = connect(db, read_only=True)
    try:
        return con.execute(
            "SELECT record_id, reason, state, attempts FROM captures ORDER BY capture_id"
        ).fetchall()
    finally:
        con.close()


@pytest.mark.slow
def test_captures_are_sent_once_each_in_order_at_the_rate(
    prefect_harness: None,
    web: WebServer,
    spn2: SaveServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("EVIDENCE_SECRET_SPN2", "access:secret")
    config = catalog(tmp_path, web, spn2, shared=True)
    db = tmp_path / "w.duckdb"
    urls = [web.url(f"/r{r}") for r in range(3)]
    refresh_at(config, db, T0, monkeypatch)
    # three confirmed pages queued (r4's page is r0's: one capture serves both), the fourth
    # (absent) not; two sent: the rate
    assert [(r, why, state) for r, why, state, _ in captures(db)] == [
        ("r0", "confirmed", "pending"),
        ("r1", "confirmed", "pending"),
        ("r2", "confirmed", "queued"),
    ]
    assert spn2.sent() == urls[:2]
    assert {auth for _, _, auth in spn2.posts} == {"LOW access:secret"}
    from evidence_cli.main import main

    capsys.readouterr()
    assert main(["sources", "--format", "json", "--config", str(config)]) == 0
    queue = {row["record_id"]: row["archive"] for row in json.loads(capsys.readouterr().out)}
    assert queue == {
        "r0": "sent, waiting on the archive",
        "r1": "sent, waiting on the archive",
        "r2": "queued",
        "r3": None,
        "r4": "sent, waiting on the archive",
    }
    refresh_at(config, db, T0 + timedelta(seconds=30), monkeypatch)  # the same minute
    assert spn2.sent() == urls[:2]  # nothing more within the minute
    refresh_at(config, db, T0 + timedelta(minutes=2), monkeypatch)
    assert spn2.sent() == urls  # the third, once
    for minutes in (4, 6):  # each job is asked after once a run, pending the first time
        refresh_at(config, db, T0 + timedelta(minutes=minutes), monkeypatch)
    assert [state for *_, state, _ in captures(db)] == ["archived"] * 3
    assert spn2.sent() == urls  # an answered capture is never sent again
    con = connect(db, read_only=True)
    try:
        copies = con.execute(
            "SELECT DISTINCT record_id, archived_url, archived_at FROM snapshots "
            "WHERE archived_url IS NOT NULL ORDER BY record_id"
        ).fetchall()
    finally:
        con.close()
    assert copies == [
        (f"r{r}", f"{spn2.base}{ARCHIVED}{urls[r]}", datetime(2026, 12, 1, 6, 15, 3, tzinfo=UTC))
        for r in range(3)
    ] + [("r4", f"{spn2.base}{ARCHIVED}{urls[0]}", datetime(2026, 12, 1, 6, 15, 3, tzinfo=UTC))]

    capsys.readouterr()
    assert main(["show", "r0", "--config", str(config)]) == 0
    card = capsys.readouterr().out
    assert f"archived copy (2026-12-01): {spn2.base}{ARCHIVED}{urls[0]}" in card
    assert main(["show", "r4", "--config", str(config)]) == 0  # the same page's copy
    assert (
        f"p: archived copy (2026-12-01): {spn2.base}{ARCHIVED}{urls[0]}" in capsys.readouterr().out
    )
    out = tmp_path / "site"
    assert main(["site", "--config", str(config), "--out", str(out)]) == 0
    page = (out / "records" / "r0.html").read_text()
    assert f'href="{spn2.base}{ARCHIVED}{urls[0]}"' in page and "archived copy" in page

    # the page changes: a capture of the new page, sent once
    web.routes["/r0"] = Page("<html><main><p>We offer 5 seats this year.</p></main></html>")
    refresh_at(config, db, T0 + timedelta(days=1), monkeypatch)
    assert captures(db)[-1][:3] == ("r0", "changed", "pending")
    assert spn2.sent() == [*urls, urls[0]]


@pytest.mark.slow
def test_a_429_waits_an_error_backs_off_a_pending_job_is_asked_after(
    prefect_harness: None,
    web: WebServer,
    spn2: SaveServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = catalog(tmp_path, web, spn2, per_minute=10)
    db = tmp_path / "w.duckdb"
    urls = [web.url(f"/r{r}") for r in range(3)]
    spn2.too_many = 1
    spn2.errors = {urls[1]}
    spn2.stuck = {urls[2]}
    refresh_at(config, db, T0, monkeypatch)
    assert spn2.sent() == []  # 429 on the first: the others wait with it
    refresh_at(config, db, T0 + timedelta(seconds=60), monkeypatch)
    assert spn2.sent() == []  # Retry-After: 120
    refresh_at(config, db, T0 + timedelta(seconds=121), monkeypatch)
    assert spn2.sent() == urls
    for minutes in (3, 5):
        refresh_at(config, db, T0 + timedelta(minutes=minutes), monkeypatch)
    rows = captures(db)
    assert [state for *_, state, _ in rows] == ["archived", "queued", "pending"]
    assert rows[1][3] == 1  # the failed job waits out its back-off before it is sent again
    assert spn2.jobs["spn2-0003"].asked >= 2  # the pending job is asked after, not resent
    refresh_at(config, db, T0 + timedelta(hours=2), monkeypatch)
    assert spn2.sent() == [*urls, urls[1]]  # the error, sent again once
    con = connect(db, read_only=True)
    try:
        error = con.execute("SELECT last_error FROM captures WHERE record_id = 'r1'").fetchone()
    finally:
        con.close()
    assert error == (None,) or "Service unavailable" in error[0]


@pytest.mark.slow
def test_without_archive_save_nothing_is_queued(
    prefect_harness: None, web: WebServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    web.routes["/p"] = Page("<html><main><p>We offer 10 seats this year.</p></main></html>")
    config = write_config(
        tmp_path,
        f'id: r\ntitle: R\nsources: [{{id: p, url: "{web.url("/p")}", role: primary}}]\n'
        'claims: [{id: c, quote: "We offer 10 seats"}]\n',
        f"database: {tmp_path / 'w.duckdb'}\nfetch: {{retries: 0}}\n",
    )
    refresh_at(config, tmp_path / "w.duckdb", T0, monkeypatch)
    assert captures(tmp_path / "w.duckdb") == []


@pytest.mark.slow
def test_the_archive_step_never_fails_a_refresh(
    prefect_harness: None,
    web: WebServer,
    spn2: SaveServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An answer the sender cannot read (a timestamp of another form) leaves the job
    pending; a back-off after many errors stays a day at most."""
    from warehouse.archive import backoff

    assert backoff(1) == timedelta(minutes=5) and backoff(400) == timedelta(days=1)
    config = catalog(tmp_path, web, spn2, per_minute=10)
    db = tmp_path / "w.duckdb"
    spn2.timestamp = "2026-12-01T06:15:03Z"
    spn2.polls_before_done = 0
    refresh_at(config, db, T0, monkeypatch)
    refresh_at(config, db, T0 + timedelta(minutes=2), monkeypatch)
    assert [state for *_, state, _ in captures(db)] == ["pending"] * 3


@pytest.mark.slow
def test_a_catalog_never_sends_a_variable_it_may_not_name(
    prefect_harness: None,
    web: WebServer,
    spn2: SaveServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A pull request's settings naming the CI's own token as the archive's key: the
    captures go without it, and the run says why."""
    monkeypatch.setenv("CI_DEPLOY_TOKEN", "ghp_not-for-the-archive")
    config = catalog(tmp_path, web, spn2, key_env="CI_DEPLOY_TOKEN")
    refresh_at(config, tmp_path / "w.duckdb", T0, monkeypatch)
    assert spn2.posts and {auth for _, _, auth in spn2.posts} == {None}
    assert "archive.key_env 'CI_DEPLOY_TOKEN' ignored" in capsys.readouterr().err
