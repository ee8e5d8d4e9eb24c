"""`evidence serve`: the refresh on `schedule.cron`, on a Prefect server that really schedules.

With PREFECT_API_URL set it serves against that server. Without it, a temporary
Prefect server cannot schedule ("Cannot schedule flows on an ephemeral server"),
so it starts `prefect server start` on 127.0.0.1 as a child process, waits until
it is healthy, serves, and stops it on exit: SIGTERM or Ctrl-C stop everything it
started. The child also gets SIGTERM if this process dies without cleaning up.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flows.errors import EvidenceError
from flows.prefect_api import die_with_parent, free_port, healthy, stop_child

SERVER_START_TIMEOUT_S = 120.0


@contextmanager
def prefect_server(log_path: Path) -> Iterator[str]:
    """A local Prefect server on 127.0.0.1 for as long as the block runs; yields its API URL."""
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


def _raise_on_sigterm() -> None:
    def handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)


def serve(config_dir: Path, db: Path, cron: str, verbose: bool) -> int:
    """Serve the refresh deployment until stopped; returns the exit code."""
    from flows.pipeline import progress
    from flows.prefect_env import configure_prefect

    configure_prefect(verbose)
    _raise_on_sigterm()
    parameters = {"config_dir": str(config_dir.resolve()), "db_path": str(db.resolve())}
    try:
        if os.environ.get("PREFECT_API_URL"):
            _serve_flow(config_dir, cron, parameters)
            return 0
        log = db.resolve().parent / "prefect-server.log"
        progress(f"starting a local Prefect server (log: {log})")
        with prefect_server(log) as api_url:
            os.environ["PREFECT_API_URL"] = api_url
            progress(f"Prefect server at {api_url.removesuffix('/api')}; cron {cron!r}")
            _serve_flow(config_dir, cron, parameters)
    except KeyboardInterrupt:
        progress("stopped")
    return 0


def _serve_flow(config_dir: Path, cron: str, parameters: dict) -> None:
    from flows.config import load_settings
    from flows.refresh import configured_flow

    configured_flow(load_settings(config_dir), config_dir).serve(
        name="evidence-refresh",
        cron=cron,
        parameters=parameters,
        print_starting_message=False,
        pause_on_shutdown=False,
    )
