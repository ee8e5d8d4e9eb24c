"""Killed at any point, a refresh loses nothing: the database opens cleanly, holds no
partial snapshot or half-graded record, and the next refresh completes and catches up."""

from __future__ import annotations

import os
import select
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from servers import Page, WebServer
from support import require_browser

from warehouse.db import connect

from .conftest import start_refresh, write_catalog

SOURCES = 60


def wait_for_line(proc, needle: str, timeout: float = 120) -> bool:
    """Read the refresh's stderr until a line holds needle (the moment to kill it)."""
    deadline = time.monotonic() + timeout
    buffer = ""
    fd = proc.stderr.fileno()
    while time.monotonic() < deadline and proc.poll() is None:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            chunk = os.read(fd, 4096).decode(errors="replace")
            buffer += chunk
            if needle in buffer:
                return True
    return False


def processes(match: Callable[[bytes, bytes], bool]) -> list[int]:
    """Live processes whose (command line, environment) match."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes()
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if match(cmd, environ):
            found.append(int(entry.name))
    return found


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
        ("between batches", "stored "),  # the first batch written, the next under way
        ("while grading", "stored 60/"),  # the last batch is written; grading starts
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
