"""The Prefect server a run talks to, and Prefect's quiet defaults.

One-off runs (`refresh`, `demo`) use the configured API, else a local server shared by
commands (flows/runtime/shared_server.py), else (EVIDENCE_PREFECT_SERVER=temporary) a
temporary server of their own. Left to itself, Prefect starts its temporary server
inside the process at the flow's first API call, then waits for it with nothing else to
do. Here the temporary server (uvicorn on Prefect's app factory, the UI off) is started
as a child process before Prefect is imported and the catalog read, so its start-up
overlaps them; the run waits for it only at its first call. The temporary server dies
with this process (PR_SET_PDEATHSIG) and is stopped on exit.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from evidence_base.errors import EvidenceError
from flows.runtime import shared_server
from flows.runtime.processes import (
    die_with_parent,
    free_port,
    server_env,
    stop_child,
    wait_healthy,
)

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
_PORT_IN_USE = 3  # uvicorn's exit code when the port is taken


def configure_prefect(verbose: bool = False) -> None:
    """Prefect's quiet defaults for this process (INFO logs with --verbose)."""
    for key, value in PREFECT_DEFAULTS.items():
        os.environ.setdefault(key, value)
    if verbose:
        os.environ["PREFECT_LOGGING_LEVEL"] = "INFO"
        os.environ["PREFECT_LOGGING_ROOT_LEVEL"] = "WARNING"


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
            **server_env(port),
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
        while not self._ready:
            try:
                wait_healthy(
                    self.api_url,
                    timeout_s,
                    self._exited,
                    "the temporary Prefect server",
                    lambda: f": {self._tail()}",
                )
            except EvidenceError:
                if self.child.poll() != _PORT_IN_USE:
                    raise
                self.start()  # its port was taken between our probe and its bind
                continue
            self._ready = True
            # No flow-run heartbeats: they let a lasting server mark crashed runs, and this
            # server ends with the run (the flow's end would wait for the heartbeat thread
            # to wake).
            updates = {PREFECT_API_URL: self.api_url, PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None}
            self._settings.enter_context(temporary_settings(updates=updates))

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

    def _exited(self) -> bool:
        return self.child is None or self.child.poll() is not None

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
