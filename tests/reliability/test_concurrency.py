"""Two refreshes on one database, and reads while a refresh writes."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from servers import WebServer

from .conftest import start_refresh, write_catalog


@pytest.mark.slow
def test_second_refresh_exits_at_once_and_reads_never_break(web: WebServer, tmp_path: Path) -> None:
    config = write_catalog(tmp_path, web, 40, delay_s=0.2)
    first = start_refresh(config, batch=5)
    try:
        # wait until the first refresh holds its lock (its first progress line)
        deadline = time.monotonic() + 60
        lock = tmp_path / "w.duckdb.lock"
        while time.monotonic() < deadline and not (lock.exists() and lock.read_text().strip()):
            time.sleep(0.1)
        second = start_refresh(config)
        _, err = second.communicate(timeout=60)
        assert second.returncode == 2
        assert err.strip() == (
            f"evidence: a refresh is already running on {tmp_path / 'w.duckdb'} "
            f"(pid {first.pid}); wait for it to finish"
        )
        assert "Traceback" not in err
        # reads while it writes: the last committed state, or a plain "refresh is writing"
        answers = []
        while first.poll() is None:
            read = subprocess.run(
                [sys.executable, "-m", "cli", "sources", "--config", str(config)],
                capture_output=True,
                text=True,
                timeout=60,
                env={k: v for k, v in os.environ.items() if k != "EVIDENCE_NOW"},
            )
            assert "Traceback" not in read.stderr, read.stderr
            if read.returncode == 0:
                answers.append("read")
            else:
                assert read.returncode == 2
                assert "a refresh is writing" in read.stderr or "no database at" in read.stderr, (
                    read.stderr
                )
                answers.append("busy")
        assert "read" in answers
    finally:
        _, err = first.communicate(timeout=300)
    assert first.returncode == 0, err


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
        assert "record" in out and lost_out == ""
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
