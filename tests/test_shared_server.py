"""The local Prefect server refreshes share: started by the first command that needs it,
found by the next, seen in its own UI, stopped by `evidence server stop`, by being idle,
and replaced when it is gone. Real `evidence` processes, each PREFECT_HOME the test's own.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest
import support
from servers import Page, WebServer
from support import prefect_api, write_config

pytestmark = [pytest.mark.slow, pytest.mark.own_prefect]

PAGE = "<html><main><p>Members get {n} GPU hours per month on A100 nodes.</p></main></html>"


def evidence(home: Path, *args: str, idle: str = "120") -> subprocess.CompletedProcess:
    env = {
        "PREFECT_HOME": str(home),
        "EVIDENCE_PREFECT_SERVER": "shared",
        "EVIDENCE_PREFECT_SERVER_IDLE": idle,
    }
    return support.evidence(*args, env=env, drop=("PREFECT_API_URL",))


def state(home: Path) -> dict:
    return json.loads((home / "evidence-server.json").read_text())


def gone(pid: int, within_s: float = 60) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.2)
    return False


def catalog(tmp_path: Path, web: WebServer) -> Path:
    web.routes["/p"] = Page(PAGE.format(n=500))
    return write_config(
        tmp_path,
        f'id: gpu\ntitle: GPU hours\nsources: [{{id: p, url: "{web.url("/p")}", role: primary}}]\n'
        'claims: [{id: quota, quote: "500 GPU hours per month on A100 nodes"}]\n',
        f"database: {tmp_path / 'e.duckdb'}\nfetch: {{retries: 0}}\n",
    )


def test_started_once_found_again_seen_in_its_ui_and_stopped(
    web: WebServer, tmp_path: Path, migrated_prefect_home: Path
) -> None:
    home = migrated_prefect_home
    config = catalog(tmp_path, web)
    first = evidence(home, "refresh", "--config", str(config))
    assert first.returncode == 0, first.stderr
    opening = first.stderr.splitlines()[0]
    url = state(home)["api_url"].removesuffix("/api")
    assert opening.startswith(f"evidence: starting a local Prefect server at {url}")
    pid = state(home)["pid"]
    web.routes["/p"] = Page(PAGE.format(n=300))
    second = evidence(home, "refresh", "--config", str(config))
    assert second.returncode == 0, second.stderr
    assert second.stderr.splitlines()[0].startswith(
        f"evidence: using the local Prefect server at {url}"
    )
    assert state(home)["pid"] == pid  # the same server, not a new one
    assert "quota on p: confirmed -> changed, 500 GPU hours -> 300 GPU hours" in second.stdout
    # both runs are in the server they used, and its UI answers
    runs = prefect_api(f"{url}/api").post(f"{url}/api/flow_runs/filter", json={}).json()
    assert [r["state_type"] for r in runs] == ["COMPLETED", "COMPLETED"]
    assert httpx.get(url, timeout=30).status_code == 200
    status = evidence(home, "server", "--config", str(config))
    assert f"local Prefect server at {url} (pid {pid}" in status.stdout
    stopped = evidence(home, "server", "stop", "--config", str(config))
    assert stopped.stdout.strip() == f"stopped the local Prefect server at {url} (pid {pid})"
    assert gone(pid, within_s=5) and not (home / "evidence-server.json").exists()
    again = evidence(home, "server", "stop", "--config", str(config))
    assert again.stdout.strip() == "no local Prefect server is running"


def test_an_idle_server_stops_itself_and_a_lost_one_is_replaced(
    web: WebServer, tmp_path: Path, migrated_prefect_home: Path
) -> None:
    home = migrated_prefect_home
    config = catalog(tmp_path, web)
    run = evidence(home, "refresh", "--config", str(config), idle="3")
    assert run.returncode == 0, run.stderr
    pid = state(home)["pid"]
    assert gone(pid), "the server did not stop once idle"
    assert not (home / "evidence-server.json").exists()
    # one killed outright leaves its state file behind: the next command starts another
    run = evidence(home, "refresh", "--config", str(config))
    killed = state(home)["pid"]
    assert run.returncode == 0 and killed != pid
    os.kill(killed, signal.SIGKILL)
    assert gone(killed)
    run = evidence(home, "refresh", "--config", str(config))
    assert run.returncode == 0, run.stderr
    assert run.stderr.startswith("evidence: starting a local Prefect server")
    assert state(home)["pid"] not in (pid, killed)
    assert evidence(home, "server", "stop", "--config", str(config)).returncode == 0
