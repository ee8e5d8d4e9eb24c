"""Two refreshes on one database, and reads while a refresh writes."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from servers import WebServer
from support import wait_paused

from .conftest import start_refresh, write_catalog


def _read(config: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "evidence_cli", *args, "--config", str(config)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "EVIDENCE_NOW"},
    )


@pytest.mark.slow
def test_second_refresh_exits_at_once_and_reads_never_break(web: WebServer, tmp_path: Path) -> None:
    config = write_catalog(tmp_path, web, 40)
    pause = tmp_path / "pause"
    pause.mkdir()
    (pause / "grade.armed").touch()  # the first refresh holds its lock, paused in grading
    first = start_refresh(config, batch=5, EVIDENCE_PAUSE_DIR=str(pause))
    try:
        wait_paused(pause, "grade", first)
        second = start_refresh(config)
        _, err = second.communicate(timeout=60)
        assert second.returncode == 2
        assert err.strip() == (
            f"evidence: a refresh is already running on {tmp_path / 'w.duckdb'} "
            f"(pid {first.pid}); wait for it to finish"
        )
        assert "Traceback" not in err
        (pause / "grade.go").touch()
        # reads while it finishes: the last committed state, or a plain "refresh is writing"
        while first.poll() is None:
            read = _read(config, "sources")
            out, err = read.communicate(timeout=60)
            assert "Traceback" not in err, err
            if read.returncode != 0:
                assert read.returncode == 2 and "a refresh is writing" in err, err
    finally:
        (pause / "grade.go").touch()
        _, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    read = _read(config, "sources")
    out, err = read.communicate(timeout=60)
    assert read.returncode == 0 and out.count("127.0.0.1") == 40, (out, err)


ROUNDS = 6


def _with_notify(config: Path, web: WebServer) -> None:
    """Alerts to the test server, so that a flow-failed message would be seen."""
    settings = config / "settings.yaml"
    port = web.base.rsplit(":", 1)[1]
    settings.write_text(
        settings.read_text() + f'alerts: {{notify: ["json://127.0.0.1:{port}/hook"]}}\n'
    )


@pytest.mark.slow
def test_two_refreshes_started_at_the_same_instant(web: WebServer, tmp_path: Path) -> None:
    """Both pass the quick check before Prefect starts; the lock decides, every time."""
    config = write_catalog(tmp_path, web, 10, delay_s=0.3)
    _with_notify(config, web)
    db = tmp_path / "w.duckdb"
    for round_ in range(ROUNDS):
        pair = [start_refresh(config), start_refresh(config)]
        results = [(p, *p.communicate(timeout=300)) for p in pair]
        codes = sorted(p.returncode for p, _, _ in results)
        assert codes == [0, 2], (round_, [err[-2000:] for _, _, err in results])
        (winner, out, _), (_, lost_out, lost_err) = sorted(results, key=lambda r: r[0].returncode)
        assert "10 URL(s) fetched" in out and lost_out == ""
        assert lost_err.strip() == (
            f"evidence: a refresh is already running on {db} (pid {winner.pid}); "
            "wait for it to finish"
        ), (round_, lost_err)
    assert not [body for _, body in web.posts if b"flow-failed" in body]


@pytest.mark.slow
def test_a_flow_that_finds_the_database_taken_is_cancelled_quietly(
    prefect_harness: None, web: WebServer, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A scheduled run (serve) takes the lock inside the flow: it ends cancelled, with one
    line and no flow-failed alert, and touches nothing."""
    from flows.refresh import refresh_flow

    config = write_catalog(tmp_path, web, 5)
    _with_notify(config, web)
    db = tmp_path / "w.duckdb"
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD_LOCK, str(db)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        capfd.readouterr()
        state = refresh_flow(str(config), str(db), None, return_state=True)
        err = capfd.readouterr().err
    finally:
        holder.kill()
        holder.wait()
    assert state.is_cancelled()
    message = f"a refresh is already running on {db} (pid {holder.pid}); wait for it to finish"
    assert state.message == message
    assert f"evidence: {message}" in err and "Traceback" not in err
    assert not db.exists() and web.hits.total() == 0
    assert not [body for _, body in web.posts if b"flow-failed" in body]


_HOLD_LOCK = """
import sys, time
from pathlib import Path
from warehouse.lock import refresh_lock
with refresh_lock(Path(sys.argv[1])):
    print("held", flush=True)
    time.sleep(120)
"""


@pytest.mark.slow
def test_every_read_waits_for_a_write_then_says_so_in_one_line(
    web: WebServer, tmp_path: Path
) -> None:
    """A refresh held inside a write transaction (a pause point) keeps the file: each
    read command waits READ_WAIT_S, then says a refresh is writing (exit 2, one line); a
    read that starts while it writes and outlives the write answers."""
    from warehouse.db import READ_WAIT_S

    config = write_catalog(tmp_path, web, 10)
    done = start_refresh(config)
    assert done.wait(timeout=300) == 0, done.communicate()[1]
    web.routes["/r0/s0"].body = b"<html><main><p>Record 0 offers 999 seats.</p></main></html>"
    pause = tmp_path / "pause"
    pause.mkdir()
    (pause / "write.armed").touch()
    (pause / "grade.armed").touch()
    writer = start_refresh(config, EVIDENCE_PAUSE_DIR=str(pause))
    try:
        wait_paused(pause, "write", writer)
        commands = [("status",), ("show", "r0"), ("sql", "SELECT 1"), ("sources",), ("alerts",)]
        started = time.monotonic()
        reads = [_read(config, *c) for c in commands]
        answers = [r.communicate(timeout=120) for r in reads]
        waited = time.monotonic() - started
        for command, read, (out, err) in zip(commands, reads, answers, strict=True):
            assert read.returncode == 2, (command, out, err)
            assert err.splitlines() == [
                f"evidence: a refresh is writing to {tmp_path / 'w.duckdb'}; "
                "try again when it finishes"
            ], (command, err)
        assert waited >= READ_WAIT_S  # each waited before it said so
        # a read that starts during the last write (grading) and outlives it answers
        (pause / "write.go").touch()
        wait_paused(pause, "grade", writer)
        late = _read(config, "status")
        time.sleep(1)
        (pause / "grade.go").touch()
        out, err = late.communicate(timeout=120)
        assert late.returncode == 0 and "r0" in out, err
    finally:
        (pause / "write.go").touch()
        (pause / "grade.go").touch()
        _, err = writer.communicate(timeout=300)
    assert writer.returncode == 0, err
