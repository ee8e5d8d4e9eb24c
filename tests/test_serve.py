"""`evidence serve` for real: a local Prefect server, a schedule that fires, a clean stop."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from servers import Page, WebServer

from warehouse.db import connect
from warehouse.errors import WarehouseError


def processes_with(marker: str) -> list[int]:
    """PIDs whose environment holds marker (the test's own PREFECT_HOME)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if marker.encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.mark.slow
def test_serve_fires_on_schedule_and_stops_cleanly(web: WebServer, tmp_path: Path) -> None:
    web.routes["/p"] = Page("<html><main><p>Applications are open for 300 seats.</p></main></html>")
    config = tmp_path / "config"
    (config / "records").mkdir(parents=True)
    db = tmp_path / "w.duckdb"
    (config / "settings.yaml").write_text(
        f'database: {db}\nschedule:\n  cron: "* * * * *"\nfetch: {{retries: 0}}\n'
    )
    (config / "records" / "r.yaml").write_text(
        textwrap.dedent(f"""\
        id: seats
        title: Seats
        sources: [{{id: official, url: "{web.url("/p")}", role: primary}}]
        claims: [{{id: seats, quote: "300 seats"}}]
        """)
    )
    home = str(tmp_path / "prefect-home")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_API")}
    env["PREFECT_HOME"] = home
    serve = subprocess.Popen(
        [sys.executable, "-m", "cli", "serve", "--config", str(config)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        landed = False
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and serve.poll() is None:
            time.sleep(2)
            try:
                con = connect(db, read_only=True, wait_s=0)
            except WarehouseError:
                continue
            try:
                landed = con.execute(
                    "SELECT count(*) FROM record_status WHERE grade = 'documented'"
                ).fetchone() == (1,)
            finally:
                con.close()
            if landed:
                break
        assert landed, "no refresh landed within three minutes"
    finally:
        serve.send_signal(signal.SIGTERM)
        try:
            _, err = serve.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            serve.kill()
            _, err = serve.communicate()
    assert "Traceback" not in err, err
    for _ in range(30):
        if not processes_with(home):
            break
        time.sleep(1)
    assert processes_with(home) == [], "serve left processes behind"
