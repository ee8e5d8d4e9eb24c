"""The processes the CLI starts and the servers they run: a free port to serve on, a
child that dies with its parent, waiting until a server answers, and stopping a process
(a child, or one started by an earlier command)."""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Callable

from evidence_base.errors import EvidenceError

_PR_SET_PDEATHSIG = 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def die_with_parent() -> None:
    """In a child before exec: SIGTERM when the parent dies; a process group of its own."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass
    os.setsid()


def healthy(api_url: str) -> bool:
    """Whether the Prefect API at `api_url` answers its health check."""
    try:
        with urllib.request.urlopen(f"{api_url}/health", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def wait_healthy(
    api_url: str,
    timeout_s: float,
    exited: Callable[[], bool],
    name: str,
    detail: Callable[[], str],
) -> None:
    """Until the server at `api_url` answers; a one-line error, `name` and `detail()` in
    it, when its process exits first (`exited()`) or `timeout_s` passes."""
    deadline = time.monotonic() + timeout_s
    while not healthy(api_url):
        if exited():
            raise EvidenceError(f"{name} exited at start{detail()}")
        if time.monotonic() > deadline:
            raise EvidenceError(f"{name} did not start in {timeout_s:.0f} s{detail()}")
        time.sleep(0.05)


def alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, a child that exited, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return True


def stop_process(pid: int, grace_s: float, group: bool = False) -> None:
    """SIGTERM the process (its whole process group with `group`); SIGKILL it if it is
    still there after grace_s."""
    kill = os.killpg if group else os.kill
    try:
        kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + grace_s
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if alive(pid):
        try:
            kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def stop_child(child: subprocess.Popen, grace_s: float = 20.0) -> None:
    """Stop a child started with `die_with_parent` (its process group), and reap it."""
    if child.poll() is not None:
        return
    stop_process(child.pid, grace_s, group=True)
    child.wait(timeout=10)


def server_env(port: int) -> dict[str, str]:
    """The environment of a Prefect server this project starts on 127.0.0.1:port: no other
    origin may read or call it from a page (CORS to its own origin only), and a state-
    changing request needs a CSRF token the server issued (Prefect's client asks for one)."""
    return {
        **os.environ,
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_SERVER_CORS_ALLOWED_ORIGINS": f"http://127.0.0.1:{port}",
        "PREFECT_SERVER_CORS_ALLOWED_METHODS": "GET,POST,PUT,PATCH,DELETE",
        "PREFECT_SERVER_CSRF_PROTECTION_ENABLED": "true",
    }
