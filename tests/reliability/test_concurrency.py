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
