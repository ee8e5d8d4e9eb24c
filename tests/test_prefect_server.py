"""The API a one-off run talks to: a temporary server started early, or the configured one."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from evidence_base.errors import EvidenceError
from flows.runtime.prefect_server import TemporaryServer
from flows.runtime.processes import healthy

# tests of the server code itself: the commands here start servers of their own
pytestmark = [pytest.mark.slow, pytest.mark.own_prefect]

PROBE = """
from flows.runtime import prefect_api

with prefect_api() as api:
    api.wait()
    from prefect.settings import get_current_settings
    s = get_current_settings()
    print(type(api).__name__, s.api.url, s.flows.heartbeat_frequency)
    child = getattr(api, "child", None)
    print(child.pid if child else "none")
"""


def _probe(env: dict[str, str]) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.split()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is gone for our purpose
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_without_an_api_a_temporary_server_serves_the_run_and_goes_with_it() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PREFECT_API_URL"}
    kind, url, heartbeat, pid = _probe(env)
    assert kind == "TemporaryServer"
    assert url.startswith("http://127.0.0.1:") and url.endswith("/api")
    assert heartbeat == "None"  # no heartbeats for a server that ends with the run
    assert not _alive(int(pid))
    assert not healthy(url)


def test_a_configured_api_is_used_and_no_server_is_left_running() -> None:
    env = {**os.environ, "PREFECT_API_URL": "http://127.0.0.1:9/api"}
    out = subprocess.run(
        [sys.executable, "-c", PROBE.replace("api.wait()", "pass")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    kind, url, heartbeat, pid = out.stdout.split()
    assert (kind, url, pid) == ("_Configured", "http://127.0.0.1:9/api", "none")
    assert heartbeat != "None"  # a lasting server keeps its heartbeats


def test_a_server_that_cannot_start_is_a_one_line_error() -> None:
    server = TemporaryServer().start()
    assert server.child is not None
    server.child.kill()  # as if it had crashed at start
    server.child.wait()
    try:
        with pytest.raises(EvidenceError, match="temporary Prefect server exited at start") as e:
            server.wait(timeout_s=10)
        assert "\n" not in str(e.value)
    finally:
        server.stop()


def test_a_server_of_ours_answers_no_other_origin_and_wants_its_csrf_token() -> None:
    """A page of another origin can neither read the API (no CORS for it) nor change
    anything (a state-changing request needs the server's CSRF token), while Prefect's
    own client, which asks for one, works."""
    import httpx

    server = TemporaryServer().start()
    try:
        server.wait(timeout_s=90)
        evil = {"Origin": "http://evil.example"}
        read = httpx.get(f"{server.api_url}/health", headers=evil, timeout=10)
        assert read.status_code == 200
        assert "access-control-allow-origin" not in read.headers
        preflight = httpx.options(
            f"{server.api_url}/flow_runs/filter",
            headers={**evil, "Access-Control-Request-Method": "POST"},
            timeout=10,
        )
        assert "access-control-allow-origin" not in preflight.headers
        forged = httpx.post(f"{server.api_url}/flow_runs/filter", json={}, timeout=10)
        assert forged.status_code == 403
        asked = httpx.get(
            f"{server.api_url}/csrf-token", params={"client": "test"}, timeout=10
        ).json()
        allowed = httpx.post(
            f"{server.api_url}/flow_runs/filter",
            json={},
            headers={"Prefect-Csrf-Token": asked["token"], "Prefect-Csrf-Client": "test"},
            timeout=10,
        )
        assert allowed.status_code == 200
    finally:
        server.stop()
