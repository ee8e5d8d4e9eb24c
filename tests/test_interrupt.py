"""Ctrl-C during a refresh: one line, exit 130, at once, its workers stopped, nothing
stored lost. A real `evidence refresh` process in a session of its own receives the
SIGINT a terminal sends its whole foreground group, in the middle of fetching from a
slow server on 127.0.0.1."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from servers import Page, WebServer
from support import write_config

FAST = [f"/fast/{i}" for i in range(6)]  # more than FEW_PAGES: the worker pool starts
SLOW = ["/slow/a", "/slow/b"]


def catalog(web: WebServer, paths: list[str]) -> str:
    out = ""
    for path in paths:
        rid = path.strip("/").replace("/", "-")
        out += (
            f"- id: {rid}\n  title: {rid}\n"
            f'  sources: [{{id: p, url: "{web.url(path)}", role: primary}}]\n'
            '  claims: [{id: c, quote: "500 GPU hours"}]\n'
        )
    return out


def session_pids(sid: int) -> set[int]:
    """The processes of session sid (the refresh, its forkserver and pool workers)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z" and int(fields[3]) == sid:
            found.add(int(entry.name))
    return found


def refresh(config: Path, db: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "evidence_cli", "refresh", "--config", str(config), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own group, as a terminal's foreground job
        env={**os.environ, "EVIDENCE_NOW": "2026-11-04T06:00:00+00:00"},
    )


def counts(db: Path) -> tuple[int, int, int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute(
            "SELECT (SELECT count(*) FROM fetches), (SELECT count(*) FROM snapshots), "
            "(SELECT count(*) FROM record_status WHERE grade = 'documented')"
        ).fetchone()
    finally:
        con.close()
    assert row is not None
    return row


@pytest.mark.slow
def test_ctrl_c_is_one_line_exit_130_at_once_and_loses_nothing(
    tmp_path: Path, web: WebServer
) -> None:
    for path in FAST:
        web.routes[path] = Page(f"<html><main><p>{path}: 500 GPU hours a month.</p></main></html>")
    for path in SLOW:
        web.routes[path] = Page("<html><main><p>500 GPU hours</p></main></html>", delay_s=60)
    settings = "fetch: {retries: 0, per_host: 16, timeout_s: 90}\n"
    config = write_config(tmp_path, catalog(web, FAST), settings)
    db = tmp_path / "w.duckdb"
    first = refresh(config, db)
    _, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    before = counts(db)
    assert before == (6, 6, 6)

    (config / "records" / "r.yaml").write_text(catalog(web, FAST + SLOW))
    proc = refresh(config, db)
    deadline = time.monotonic() + 240
    while not all(web.hits[p] for p in SLOW) or sum(web.hits[p] for p in FAST) < 12:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the refresh never reached the slow pages"
        time.sleep(0.05)
    running = session_pids(proc.pid)
    assert len(running) >= 3  # the refresh, the forkserver, at least one worker

    pressed = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    took = time.monotonic() - pressed
    assert proc.returncode == 130
    assert took < 2.0, took
    said_after = err.split("URLs\n", 1)[1].strip().splitlines()
    said_after = [line for line in said_after if "sources due" not in line]
    assert said_after == ["evidence: interrupted; what was stored is kept"], err
    assert "Traceback" not in err and "Crash detected" not in err
    gone = time.monotonic() + 2.0
    while session_pids(proc.pid) and time.monotonic() < gone:
        time.sleep(0.05)
    assert not session_pids(proc.pid), "pool workers outlived the refresh"
    fetches, snapshots, documented = counts(db)
    assert snapshots == before[1] and documented == before[2]  # the same pages, read again
    assert fetches >= before[0]
