"""The Prefect server a run talks to, and Prefect's quiet defaults.

One-off runs (`refresh`, `demo`) use the configured API, else a local server shared by
commands (flows/runtime/shared_server.py), else (EVIDENCE_PREFECT_SERVER=temporary) a
temporary server of their own. Left to itself, Prefect starts its temporary server
inside the process at the flow's first API call, then waits for it with nothing else to
do. Here the temporary server (uvicorn on Prefect's app factory, the UI off) is started
as a child process before Prefect is imported and the catalog read, so its start-up
overlaps them; the run waits for it only at its first call. `serve` needs a server that
schedules, so without a configured API it starts a local `prefect server` for as long as
it serves. Every child but the shared server dies with this process (PR_SET_PDEATHSIG)
and is stopped on exit.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from flows.runtime import shared_server
from warehouse.errors import EvidenceError

# Set before Prefect is imported, never over the user's own settings.
PREFECT_DEFAULTS = {
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "DO_NOT_TRACK": "1",
    "PREFECT_CLOUD_ENABLE_ORCHESTRATION_TELEMETRY": "false",
    "PREFECT_TELEMETRY_ENABLE_RESOURCE_METRICS": "false",
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "90",
    "PREFECT_LOGGING_LEVEL": "WARNING",
    # Prefect's services warn through the root logger while they drain at shutdown
    # ("EventsWorker - Still processing items"): nothing for the user to act on
    "PREFECT_LOGGING_ROOT_LEVEL": "ERROR",
    "PREFECT_RESULTS_PERSIST_BY_DEFAULT": "false",
}
START_TIMEOUT_S = 90.0
SERVER_START_TIMEOUT_S = 120.0  # a full `prefect server` (serve) takes longer
_PR_SET_PDEATHSIG = 1
_PORT_IN_USE = 3  # uvicorn's exit code when the port is taken


def configure_prefect(verbose: bool = False) -> None:
    """Prefect's quiet defaults for this process (INFO logs with --verbose)."""
    for key, value in PREFECT_DEFAULTS.items():
        os.environ.setdefault(key, value)
    if verbose:
        os.environ["PREFECT_LOGGING_LEVEL"] = "INFO"
        os.environ["PREFECT_LOGGING_ROOT_LEVEL"] = "WARNING"


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
    try:
        with urllib.request.urlopen(f"{api_url}/health", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def stop_child(child: subprocess.Popen, grace_s: float = 20.0) -> None:
    """SIGTERM the child's process group; SIGKILL it if it is still there after grace_s."""
    if child.poll() is not None:
        return
    try:
        os.killpg(child.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        child.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        child.wait(timeout=10)


class TemporaryServer:
    """Prefect's API server as a child process on 127.0.0.1, for one run of the CLI."""

    def __init__(self) -> None:
        self._log = tempfile.TemporaryFile()  # the child's output, shown if it fails
        self.child: subprocess.Popen | None = None
        self.api_url = ""
        self._ready = False
        self._settings = ExitStack()

    def start(self) -> TemporaryServer:
        spec = importlib.util.find_spec("prefect")  # where its app lives, without importing it
        assert spec is not None and spec.origin is not None, "prefect is not installed"
        port = free_port()
        self.api_url = f"http://127.0.0.1:{port}/api"
        command = [
            sys.executable,
            "-m",
            "uvicorn",
            "--app-dir",
            str(Path(spec.origin).parent.parent),
            "--factory",
            "prefect.server.api.server:create_app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "error",
            "--lifespan",
            "on",
        ]
        env = {
            **os.environ,
            "PREFECT_UI_ENABLED": "0",
            "PREFECT__SERVER_EPHEMERAL": "1",  # what Prefect's own temporary server sets
            "PREFECT__SERVER_FINAL": "1",
        }
        self.child = subprocess.Popen(
            command,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            preexec_fn=die_with_parent,
        )
        return self

    def wait(self, timeout_s: float = START_TIMEOUT_S) -> None:
        """Block until the server answers its health check, then point Prefect at it (once)."""
        from prefect.settings import (
            PREFECT_API_URL,
            PREFECT_FLOWS_HEARTBEAT_FREQUENCY,
            temporary_settings,
        )

        assert self.child is not None, "start() first (and not stopped)"
        deadline = time.monotonic() + timeout_s
        while not self._ready:
            if healthy(self.api_url):
                self._ready = True
                # No flow-run heartbeats: they let a lasting server mark crashed runs, and
                # this server ends with the run (the flow's end would wait for the
                # heartbeat thread to wake).
                updates = {PREFECT_API_URL: self.api_url, PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None}
                self._settings.enter_context(temporary_settings(updates=updates))
                return
            if self.child.poll() == _PORT_IN_USE:  # taken between our probe and its bind
                self.start()
            elif self.child.poll() is not None:
                raise EvidenceError(f"the temporary Prefect server exited at start: {self._tail()}")
            if time.monotonic() > deadline:
                raise EvidenceError(
                    f"the temporary Prefect server did not start in {timeout_s:.0f} s: "
                    f"{self._tail()}"
                )
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop the server (idempotent), once Prefect has handed it what it still holds."""
        if self._ready:
            drain_prefect()
            self._ready = False
        self._settings.close()
        if self.child is not None:
            stop_child(self.child, grace_s=5.0)
            self.child = None
        self._log.close()

    def _tail(self) -> str:
        self._log.seek(0)
        lines = self._log.read().decode("utf-8", "replace").strip().splitlines()
        return lines[-1] if lines else "no output"


def drain_prefect(timeout_s: float = 5.0) -> None:
    """Send Prefect's queued logs and events now (what its own test harness does before
    stopping its server). Left to exit, they go to a server already stopped: retries
    and, with --verbose, "Error logging to API" on stderr."""
    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker

    for worker in (APILogWorker, EventsWorker):
        worker.drain_all(timeout=timeout_s)


class _Configured:
    """The API the user configured: nothing to start or wait for."""

    def wait(self, timeout_s: float = START_TIMEOUT_S) -> None:
        pass


class _Shared:
    """The local server shared by commands (flows/runtime/shared_server.py)."""

    def __init__(self, running: shared_server.Running, started: bool) -> None:
        self.running = running
        self.started = started
        self._ready = False
        self._settings = ExitStack()

    def wait(self, timeout_s: float = START_TIMEOUT_S) -> None:
        """Until it answers (when just started), then point Prefect at it, unless Prefect's
        own settings name an API after all (a source `configured_api` does not read)."""
        from prefect.settings import (
            PREFECT_API_URL,
            PREFECT_FLOWS_HEARTBEAT_FREQUENCY,
            get_current_settings,
            temporary_settings,
        )

        if self._ready:
            return
        shared_server.wait(self.running, timeout_s)  # (at once when it answers already)
        self._ready = True
        theirs = get_current_settings().api.url
        if theirs:
            from flows.runtime.console import progress

            progress(f"Prefect API at {theirs} (from Prefect's settings)")
            return
        # no heartbeats: this server marks no runs crashed, and the flow's end would wait
        updates = {PREFECT_API_URL: self.running.api_url, PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None}
        self._settings.enter_context(temporary_settings(updates=updates))

    def stop(self) -> None:
        """Hand Prefect's queued logs and events over; the server itself keeps running."""
        if self._ready:
            drain_prefect()
            self._ready = False
        self._settings.close()


def configured_api(cwd: Path | None = None) -> str | None:
    """The Prefect API the user configured, read without importing Prefect: the
    environment, the active profile, ./prefect.toml or ./pyproject.toml."""
    import tomllib

    if os.environ.get("PREFECT_API_URL"):
        return os.environ["PREFECT_API_URL"]
    cwd = cwd or Path.cwd()
    profiles = Path(
        os.environ.get("PREFECT_PROFILES_PATH") or shared_server.home() / "profiles.toml"
    )
    places: list[tuple[Path, tuple[str, ...]]] = [
        (profiles, ()),
        (cwd / "prefect.toml", ("api", "url")),
        (cwd / "pyproject.toml", ("tool", "prefect", "api", "url")),
    ]
    for path, keys in places:
        try:
            data: Any = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not keys:  # the profiles file: the active profile's setting
            active = os.environ.get("PREFECT_PROFILE") or data.get("active") or "ephemeral"
            keys = ("profiles", str(active), "PREFECT_API_URL")
        for key in keys:
            data = data.get(key) if isinstance(data, dict) else None
        if isinstance(data, str) and data:
            return data
    return None


@contextmanager
def prefect_api() -> Iterator[TemporaryServer | _Configured | _Shared]:
    """For the block: the configured Prefect API, else the shared local server (found, or
    starting now), else (EVIDENCE_PREFECT_SERVER=temporary) a temporary one starting now.
    Says at once which.

    Call `.wait()` on what it yields before the first flow run (after the imports): until
    then Prefect does not know the server's address.
    """
    from flows.runtime.console import progress

    configured = configured_api()
    if configured:
        progress(f"Prefect API at {configured}")
        yield _Configured()
        return
    if shared_server.mode() == "shared":
        try:
            running, started = shared_server.ensure()
        except OSError as e:  # PREFECT_HOME cannot be written: a server of this run's own
            progress(f"no local Prefect server can be kept ({e}); starting a temporary one")
            with _temporary() as server:
                yield server
            return
        what = "starting a local Prefect server" if started else "using the local Prefect server"
        progress(
            f"{what} at {running.ui_url} (kept for later commands; it stops after "
            f"{running.idle} idle, or on `evidence server stop`)"
        )
        shared = _Shared(running, started)
        try:
            yield shared
        finally:
            shared.stop()
        return
    progress("starting a temporary Prefect server (it stops with this run)")
    with _temporary() as server:
        yield server


@contextmanager
def _temporary() -> Iterator[TemporaryServer | _Configured]:
    # Started before Prefect is imported to learn whether an API is configured (a source
    # configured_api does not read), which takes a while; stopped again at once when one is.
    server = TemporaryServer().start()
    try:
        from prefect.settings import get_current_settings

        if get_current_settings().api.url:
            server.stop()
            yield _Configured()
        else:
            yield server
    finally:
        server.stop()


@contextmanager
def local_server(log_path: Path) -> Iterator[str]:
    """A full `prefect server` on 127.0.0.1 for as long as the block runs (one that
    schedules, unlike the temporary one); yields its API URL."""
    port = free_port()
    api_url = f"http://127.0.0.1:{port}/api"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "ab") as log:
        child = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "prefect",
                "server",
                "start",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            preexec_fn=die_with_parent,
        )
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while not healthy(api_url):
            if child.poll() is not None:
                raise EvidenceError(f"the Prefect server exited at start; see {log_path}")
            if time.monotonic() > deadline:
                raise EvidenceError(f"the Prefect server did not start in time; see {log_path}")
            time.sleep(0.5)
        yield api_url
    finally:
        stop_child(child)
