"""Killed at any point, a refresh loses nothing: the database opens cleanly, holds no
partial snapshot or half-graded record, and the next refresh completes and catches up."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from servers import Page, WebServer
from support import processes, require_browser, wait_for_line

from warehouse.db import connect

from .conftest import start_refresh, write_catalog

SOURCES = 60


def orphans(pid: int) -> list[int]:
    """Processes started by the killed refresh (forkserver, workers) still alive."""
    return processes(lambda cmd, env: b"multiprocessing" in cmd and b"EVIDENCE_BATCH_SIZE=" in env)


def check_consistent(db: Path) -> tuple[int, int]:
    """Every stored row hangs together; returns (snapshots, graded records)."""
    con = connect(db, read_only=True)
    try:
        orphans = con.execute(
            "SELECT count(*) FROM store.snapshots s ANTI JOIN store.pages p USING (content_hash)"
        ).fetchone()[0]
        dangling = con.execute(
            "SELECT count(*) FROM store.fetches f WHERE snapshot_id IS NOT NULL AND NOT EXISTS "
            "(SELECT 1 FROM store.snapshots s WHERE s.snapshot_id = f.snapshot_id)"
        ).fetchone()[0]
        records = con.execute("SELECT count(*) FROM store.records").fetchone()[0]
        graded = con.execute("SELECT count(*) FROM store.record_grades").fetchone()[0]
        claims = con.execute("SELECT count(*) FROM store.claims").fetchone()[0]
        claim_grades = con.execute("SELECT count(*) FROM store.claim_grades").fetchone()[0]
        snapshots = con.execute("SELECT count(*) FROM snapshots").fetchone()[0]
    finally:
        con.close()
    assert orphans == 0 and dangling == 0
    assert graded in (0, records) and claim_grades in (0, claims)  # all graded, or none yet
    return snapshots, graded


@pytest.mark.slow
@pytest.mark.parametrize(
    ("moment", "needle"),
    [
        ("during fetch", "refreshing"),  # the first batch is still being fetched
        ("between batches", "fetched "),  # the first batch written, the next under way
        ("while grading", "fetched 60/"),  # the last batch is written; grading starts
    ],
)
def test_sigkill_at_any_moment_then_catch_up(
    web: WebServer, tmp_path: Path, moment: str, needle: str
) -> None:
    config = write_catalog(tmp_path, web, SOURCES, delay_s=0.05)
    db = tmp_path / "w.duckdb"
    proc = start_refresh(config)
    try:
        assert wait_for_line(proc, needle), f"never reached {moment}"
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    deadline = time.monotonic() + 15  # its extraction workers and forkserver follow it
    while time.monotonic() < deadline and orphans(proc.pid):
        time.sleep(0.5)
    assert orphans(proc.pid) == []
    if db.exists():
        check_consistent(db)
    again = start_refresh(config)  # the lock died with the process: no wait
    _, err = again.communicate(timeout=300)
    assert again.returncode == 0, err
    snapshots, graded = check_consistent(db)
    assert snapshots == SOURCES and graded == SOURCES // 5
    con = connect(db, read_only=True)
    try:
        ok = con.execute("SELECT count(*) FROM source_health WHERE reachable").fetchone()[0]
        documented = con.execute(
            "SELECT count(*) FROM record_status WHERE grade = 'documented'"
        ).fetchone()[0]
    finally:
        con.close()
    assert ok == SOURCES and documented == SOURCES // 5


def browser_leftovers(marker: bytes) -> tuple[list[int], list[Path]]:
    """Chromium processes started for a refresh (their environment holds marker), and
    Playwright's profile and artifact directories."""
    procs = processes(lambda cmd, env: marker in env and (b"chrom" in cmd or b"playwright" in cmd))
    dirs = [p for p in Path(os.environ.get("TMPDIR", "/tmp")).glob("playwright*")]
    return procs, dirs


@pytest.mark.slow
def test_killed_while_rendering_leaves_no_browser_behind(web: WebServer, tmp_path: Path) -> None:
    require_browser()
    config = write_catalog(tmp_path, web, 5)
    web.routes["/restless"] = Page(
        "<html><body><script>setInterval(() => fetch('/tick?' + Math.random()), 100);"
        "</script></body></html>"
    )
    web.routes["/tick"] = Page("{}", content_type="application/json", etag=False)
    records = config / "records" / "all.yaml"
    records.write_text(
        records.read_text()
        + f'- {{id: shell, title: Shell, sources: [{{id: s, url: "{web.url("/restless")}", '
        "role: primary, render: browser}]}\n"
    )
    settings = config / "settings.yaml"
    settings.write_text(settings.read_text().replace("timeout_s: 10", "timeout_s: 60"))
    marker = f"EVIDENCE_KILL_MARK={tmp_path.name}"
    before_dirs = set(browser_leftovers(b"\0")[1])
    proc = start_refresh(config, batch=5, EVIDENCE_KILL_MARK=tmp_path.name)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and web.hits["/tick"] < 5:
        time.sleep(0.1)  # the page is rendering: its script polls
    assert web.hits["/tick"] >= 5, "the page was never rendered"
    assert browser_leftovers(marker.encode())[0], "no browser process to kill"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        procs, dirs = browser_leftovers(marker.encode())
        if not procs and not set(dirs) - before_dirs:
            break
        time.sleep(0.2)
    procs, dirs = browser_leftovers(marker.encode())
    assert procs == [], f"browser processes left behind: {procs}"
    assert set(dirs) - before_dirs == set(), "profile directories left behind"


def _synthetic_warehouse(db: Path, pages: int = 1500) -> None:
    """A database with tens of MB of pages and many fetch rows, made directly (a copy of
    it takes long enough to be killed in the middle)."""
    from warehouse.db import insert_rows

    con = connect(db)
    try:
        insert_rows(
            con,
            "store.bodies",
            [{"content_hash": f"h{i}", "body": os.urandom(20_000)} for i in range(pages)],
            per=100,
        )
        insert_rows(
            con,
            "store.pages",
            [
                {
                    "content_hash": f"h{i}",
                    "bytes": 20_000,
                    "title": f"Page {i}",
                    "text": f"Teams get ${i} in credits.",
                    "text_hash": f"t{i}",
                    "extractor_version": "2",
                }
                for i in range(pages)
            ],
            per=100,
        )
        con.execute(
            "INSERT INTO store.snapshots (snapshot_id, record_id, source_id, url, fetched_at, "
            "content_hash, via) SELECT nextval('store.snapshot_ids'), 'r', 's' || (i % 50), "
            "'https://example.org/' || (i % 50), TIMESTAMPTZ '2026-11-01' + to_days(i), "
            "'h' || i, 'live' FROM range(?) t(i)",
            [pages],
        )
        con.execute(
            "INSERT INTO store.fetches (fetch_id, run_id, record_id, source_id, url, started_at, "
            "outcome, via) SELECT nextval('store.fetch_ids'), 'run' || (i % 1000), 'r', "
            "'s' || (i % 50), 'https://example.org/' || (i % 50), "
            "TIMESTAMPTZ '2026-11-01' + to_minutes(i), 'timeout', 'live' FROM range(200000) t(i)"
        )
    finally:
        con.close()


def _contents(db: Path) -> tuple:
    con = connect(db, read_only=True)
    try:
        row = con.execute(
            "SELECT (SELECT count(*) FROM store.pages), (SELECT bit_xor(hash(body)) FROM "
            "store.bodies), (SELECT count(*) FROM snapshots), (SELECT count(*) FROM fetches), "
            "(SELECT max(fetch_id) FROM fetches)"
        ).fetchone()
    finally:
        con.close()
    return row


@pytest.mark.slow
def test_gc_killed_at_any_moment_leaves_a_whole_file(tmp_path: Path) -> None:
    import subprocess
    import sys

    db = tmp_path / "w.duckdb"
    _synthetic_warehouse(db)
    before = _contents(db)
    spare = db.with_name(db.name + ".compacting")
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.yaml").write_text("history: {keep_pages: 100000}\n")  # drop none
    command = [sys.executable, "-m", "evidence_cli", "gc", "--config", str(config), "--db", str(db)]
    env = {**os.environ}
    env.pop("EVIDENCE_NOW", None)
    landed_mid_copy = 0
    for delay in (0.0, 0.05, 0.2, 0.5, 1.0):
        proc = subprocess.Popen(
            command,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            assert wait_for_line(proc, "compacting"), "gc never reached its compaction"
            time.sleep(delay)
            landed_mid_copy += spare.exists() and proc.poll() is None
            proc.send_signal(signal.SIGKILL)
        finally:
            proc.wait()
        # old file or new one, each whole: same rows, the same bytes of every page
        assert _contents(db) == before
    assert landed_mid_copy >= 1, "no kill landed while the copy was being written"
    done = subprocess.run(
        command,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert " -> " in done.stdout and not spare.exists()
    assert _contents(db) == before
