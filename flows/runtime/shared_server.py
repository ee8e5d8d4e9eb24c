"""A local Prefect server shared by the commands of one PREFECT_HOME.

Prefect's own temporary server costs a refresh seconds of start-up every time. This one
is started by the first command that needs it, in a process of its own that outlives
it, and found again by the next: its address is in `evidence-server.json` under
PREFECT_HOME. It stops by itself once no request has reached it, and no client has held
a websocket open, for a while (EVIDENCE_PREFECT_SERVER_IDLE seconds, 15 minutes by
default), on `evidence server stop`, or on SIGTERM. It serves the Prefect UI as well,
so a run of the CLI can be seen where it ran. `EVIDENCE_PREFECT_SERVER=temporary` goes
back to a server of each run's own, which dies with it (the tests do this: each owns
its servers).

Run as `python -m flows.runtime.shared_server --port N --idle S` it is that server.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from evidence_base import environment
from flows.runtime.processes import (
    alive,
    free_port,
    healthy,
    server_env,
    stop_process,
    wait_healthy,
)

IDLE_S = 900.0
STATE = "evidence-server.json"
START_TIMEOUT_S = 120.0
STOP_GRACE_S = 15.0


@dataclass(frozen=True, slots=True)
class Running:
    """A shared server, as its state file names it."""

    pid: int
    api_url: str
    prefect: str  # the Prefect version it runs: a server of another is not reused
    idle_s: float

    @property
    def ui_url(self) -> str:
        return self.api_url.removesuffix("/api")

    @property
    def idle(self) -> str:
        """How long it waits idle before it stops, for people: "15 min", "30 s"."""
        return f"{self.idle_s / 60:g} min" if self.idle_s >= 60 else f"{self.idle_s:g} s"


def mode() -> str:
    """`shared` (the default) or `temporary`: a server of each run's own."""
    return "temporary" if environment.get("EVIDENCE_PREFECT_SERVER") == "temporary" else "shared"


def idle_s() -> float:
    try:
        return max(1.0, float(environment.get("EVIDENCE_PREFECT_SERVER_IDLE") or IDLE_S))
    except ValueError:
        return IDLE_S


def home() -> Path:
    """Prefect's home: where its database is, and this server's state file beside it."""
    return Path(os.environ.get("PREFECT_HOME") or "~/.prefect").expanduser()


def find() -> Running | None:
    """The shared server of this PREFECT_HOME, when it is running and answers."""
    running = _read_state()
    if running is None or not _ours(running.pid):
        return None
    if running.prefect != _prefect_version() or not healthy(running.api_url):
        return None
    return running


@contextmanager
def _state_lock() -> Iterator[None]:
    """One command at a time finds or starts the server (two started at once share it)."""
    home().mkdir(parents=True, exist_ok=True)
    with open(home() / "evidence-server.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def ensure() -> tuple[Running, bool]:
    """The shared server, found or started now (not yet answering then: see `wait`);
    whether it was started."""
    with _state_lock():
        running = _read_state()
        if running is not None and _ours(running.pid):
            if running.prefect == _prefect_version():
                # Running: answering now, or starting (another command started it) or
                # busy; `wait` waits for it either way, and never stops it.
                return running, False
            stop_process(running.pid, STOP_GRACE_S)  # a server of another Prefect: replaced
        port = free_port()
        command = [sys.executable, "-m", "flows.runtime.shared_server", "--port", str(port)]
        with open(home() / "evidence-server.log", "ab") as log:
            child = subprocess.Popen(
                [*command, "--idle", str(idle_s())],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # it outlives this command, and its signals
                env=server_env(port),
            )
        running = Running(child.pid, f"http://127.0.0.1:{port}/api", _prefect_version(), idle_s())
        _write_state(running)
        return running, True


def wait(running: Running, timeout_s: float = START_TIMEOUT_S) -> None:
    """Until the server answers (it was just started), or a one-line error."""
    wait_healthy(
        running.api_url,
        timeout_s,
        lambda: not _ours(running.pid),
        "the local Prefect server",
        lambda: f"; see {home() / 'evidence-server.log'}",
    )


def stop() -> Running | None:
    """Stop the shared server of this PREFECT_HOME; the one stopped, if any was running."""
    with _state_lock():
        running = _read_state()
        if running is None or not _ours(running.pid):
            _remove_state()
            return None
        stop_process(running.pid, STOP_GRACE_S)
        _remove_state()
        return running


def _ours(pid: int) -> bool:
    """Whether `pid` is a shared server still running (not a process that took its pid
    since: after a reboot, a state file can name anything)."""
    if not alive(pid):
        return False
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return b"flows.runtime.shared_server" in f.read()
    except OSError:
        return False


def _prefect_version() -> str:
    return metadata.version("prefect")


def _read_state() -> Running | None:
    try:
        data: dict[str, Any] = json.loads((home() / STATE).read_text(encoding="utf-8"))
        return Running(
            pid=int(data["pid"]),
            api_url=str(data["api_url"]),
            prefect=str(data["prefect"]),
            idle_s=float(data["idle_s"]),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _write_state(running: Running) -> None:
    path = home() / STATE
    spare = path.with_suffix(".tmp")
    spare.write_text(json.dumps(asdict(running)), encoding="utf-8")
    spare.replace(path)


def _remove_state(pid: int | None = None) -> None:
    """Remove the state file (only if it still names `pid`, when given)."""
    running = _read_state()
    if pid is None or (running is not None and running.pid == pid):
        try:
            (home() / STATE).unlink()
        except FileNotFoundError:
            pass


# --- the server process itself ----------------------------------------------------------


class _Touched:
    """The Prefect app, noting when the last request came and how many websockets are
    open (a run's clients send task states over one): the idle clock."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.last = time.monotonic()
        self.sockets = 0

    @property
    def idle_for(self) -> float:
        return 0.0 if self.sockets else time.monotonic() - self.last

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        self.last = time.monotonic()
        if scope["type"] == "http":
            await self.app(scope, receive, send)
            return
        self.sockets += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.sockets -= 1
            self.last = time.monotonic()


def serve(port: int, idle: float) -> None:
    """Prefect's API and UI on 127.0.0.1:port until idle for `idle` seconds or stopped."""
    import uvicorn
    from prefect.server.api.server import create_app

    app = _Touched(create_app(webserver_only=True, final=True))
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", lifespan="on")
    )

    def watch() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.1)
        app.last = time.monotonic()  # idle from when it answers, not from its start
        while not server.should_exit:
            time.sleep(min(5.0, idle / 4))
            if app.idle_for >= idle:
                server.should_exit = True

    threading.Thread(target=watch, name="idle-watch", daemon=True).start()
    try:
        server.run()
    finally:
        _remove_state(os.getpid())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m flows.runtime.shared_server")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--idle", type=float, default=IDLE_S)
    args = parser.parse_args(argv)
    serve(args.port, args.idle)


if __name__ == "__main__":
    main()
