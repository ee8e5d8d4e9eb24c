"""Killed while it sends captures to the archive, a refresh loses none and sends none
twice: the capture answered is kept as sent, the rest stay queued and go on the next run
(a pause point between two captures, evidence_base/pause.py)."""

from __future__ import annotations

import signal
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from servers import WebServer
from spn2 import SaveServer
from support import wait_paused

from warehouse.db import connect

from .conftest import start_refresh, write_catalog

SOURCES = 30  # 6 records: each primary confirms its claim, 6 captures
T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def _captures(db: Path) -> list[tuple[str, str]]:
    con = connect(db, read_only=True)
    try:
        return con.execute("SELECT record_id, state FROM captures ORDER BY capture_id").fetchall()
    finally:
        con.close()


@pytest.mark.slow
def test_killed_while_sending_captures(web: WebServer, tmp_path: Path) -> None:
    spn2 = SaveServer(polls_before_done=0)
    try:
        config = write_catalog(tmp_path, web, SOURCES)
        with (config / "settings.yaml").open("a") as f:
            f.write(f"archive: {{save: '{spn2.base}', per_minute: 10}}\n")
        db = tmp_path / "w.duckdb"
        pause = tmp_path / "pause"
        pause.mkdir()
        (pause / "archive.armed").touch()
        proc = start_refresh(config, EVIDENCE_NOW=T0.isoformat(), EVIDENCE_PAUSE_DIR=str(pause))
        try:
            assert wait_paused(pause, "archive", proc) == proc.pid
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
        assert proc.returncode == -signal.SIGKILL
        first = web.url("/r0/s0")
        assert spn2.sent() == [first]  # one answered before the kill
        assert _captures(db) == [("r0", "pending")] + [(f"r{r}", "queued") for r in range(1, 6)]

        again = start_refresh(config, EVIDENCE_NOW=(T0 + timedelta(minutes=2)).isoformat())
        _, err = again.communicate(timeout=300)
        assert again.returncode == 0, err
        assert spn2.sent() == [web.url(f"/r{r}/s0") for r in range(6)]  # each once, in order
        states = [state for _, state in _captures(db)]
        assert states == ["archived"] + ["pending"] * 5
    finally:
        spn2.close()
