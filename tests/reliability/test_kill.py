"""Killed at any point, a refresh loses nothing: the database opens cleanly, holds no
partial snapshot or half-graded record, and the next refresh completes and catches up."""

from __future__ import annotations

import os
import select
import signal
import time
from pathlib import Path

import pytest
from servers import WebServer

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


def orphans(pid: int) -> list[int]:
    """Processes started by the killed refresh (forkserver, workers) still alive."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes()
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if b"multiprocessing" in cmd and b"EVIDENCE_BATCH_SIZE=" in environ:
            found.append(int(entry.name))
    return found


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
