"""`evidence serve`: the refresh flow on `schedule.cron`, until stopped.

With PREFECT_API_URL set it serves against that server. Without it, Prefect's temporary
server cannot schedule ("Cannot schedule flows on an ephemeral server"), so a local
Prefect server runs for as long as this does (`local_server`, a child that dies with
it): SIGTERM or Ctrl-C stop everything.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flows.catalog import Settings, load_settings
from flows.runtime import clock, configure_prefect, progress
from flows.runtime.processes import (
    die_with_parent,
    free_port,
    server_env,
    stop_child,
    wait_healthy,
)

SERVER_START_TIMEOUT_S = 120.0  # a full `prefect server` takes longer than the temporary one


def serve(config_dir: Path, db: Path, cron: str, verbose: bool) -> int:
    """Serve the refresh deployment until stopped; returns the exit code."""
    configure_prefect(verbose)
    _stop_on_signals()
    # Stopped while a run's control channel is being answered, asyncio logs the cancelled
    # handler's CancelledError with a traceback; stopping cancels it on purpose.
    logging.getLogger("asyncio").addFilter(_not_cancelled)
    from flows.preflight import Selection, check_serving

    settings = load_settings(config_dir)
    due = settings.schedule.mode == "due"  # fetch what is due, or all
    check_serving(config_dir, db, Selection(due=due))
    parameters = {
        "config_dir": str(config_dir.resolve()),
        "db_path": str(db.resolve()),
        "due": due,
    }
    said = (
        f"cron {cron!r}; next run at {settings.schedule.next_run(clock.now()):%Y-%m-%d %H:%M} UTC"
    )
    try:
        if os.environ.get("PREFECT_API_URL"):
            progress(f"serving on {os.environ['PREFECT_API_URL']}; {said}")
            _serve_flow(config_dir, settings, cron, parameters)
        else:
            log = db.resolve().parent / "prefect-server.log"
            progress(f"starting a local Prefect server (log: {log})")
            with local_server(log) as api_url:
                os.environ["PREFECT_API_URL"] = api_url
                progress(f"Prefect server at {api_url.removesuffix('/api')}; {said}")
                _serve_flow(config_dir, settings, cron, parameters)
    except KeyboardInterrupt:
        pass  # (Prefect's serve returns on one itself, or lets it through)
    progress("stopped")  # serving ends only when it is stopped
    return 130 if _stopped_by == [signal.SIGINT] else 0  # Ctrl-C as every command says it


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
            env=server_env(port),
            preexec_fn=die_with_parent,
        )
    try:
        wait_healthy(
            api_url,
            SERVER_START_TIMEOUT_S,
            lambda: child.poll() is not None,
            "the Prefect server",
            lambda: f"; see {log_path}",
        )
        yield api_url
    finally:
        stop_child(child)


def _not_cancelled(record: logging.LogRecord) -> bool:
    return not (record.exc_info and isinstance(record.exc_info[1], asyncio.CancelledError))


_stopped_by: list[int] = []  # the signal that stopped serving


def _stop_on_signals() -> None:
    """SIGTERM and Ctrl-C stop serving the same way: a KeyboardInterrupt out of Prefect's
    loop. (Left to asyncio, Ctrl-C only cancels the loop's main task, which Prefect's
    runner can absorb while it starts or reaps a run: it then serves on.)"""

    def handler(signum: int, frame: object) -> None:
        _stopped_by[:] = [signum]
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


FLOW_NAME = "evidence-refresh"


def deployment_name(parameters: dict) -> str:
    """The deployment of one catalog on one database: its runs are served only by a
    `serve` of the same pair, never by one of another catalog."""
    key = f"{parameters['config_dir']}\0{parameters['db_path']}".encode()
    return f"evidence-refresh-{hashlib.blake2b(key, digest_size=6).hexdigest()}"


def remove_stale(parameters: dict) -> int:
    """Delete the deployments this catalog's earlier starts left (this one's name, and
    the one name every catalog once shared when it points at this catalog), with their
    runs still waiting; `serve` then creates its deployment anew. The runs removed."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import (
        DeploymentFilter,
        DeploymentFilterId,
        FlowRunFilter,
        FlowRunFilterState,
        FlowRunFilterStateType,
    )
    from prefect.client.schemas.objects import StateType
    from prefect.exceptions import ObjectNotFound

    async def remove() -> int:
        removed = 0
        async with get_client() as client:
            for name in (deployment_name(parameters), FLOW_NAME):
                try:
                    deployment = await client.read_deployment_by_name(f"{FLOW_NAME}/{name}")
                except ObjectNotFound:
                    continue
                theirs = deployment.parameters or {}
                if name == FLOW_NAME and (
                    theirs.get("config_dir"),
                    theirs.get("db_path"),
                ) != (parameters["config_dir"], parameters["db_path"]):
                    continue  # another catalog's: its own serve removes it
                waiting = await client.read_flow_runs(
                    deployment_filter=DeploymentFilter(id=DeploymentFilterId(any_=[deployment.id])),
                    flow_run_filter=FlowRunFilter(
                        state=FlowRunFilterState(
                            type=FlowRunFilterStateType(
                                any_=[StateType.SCHEDULED, StateType.PENDING]
                            )
                        )
                    ),
                )
                for run in waiting:
                    await client.delete_flow_run(run.id)
                removed += len(waiting)
                await client.delete_deployment(deployment.id)
        return removed

    return asyncio.run(remove())


def _serve_flow(config_dir: Path, settings: Settings, cron: str, parameters: dict) -> None:
    from flows.refresh import configured_flow

    removed = remove_stale(parameters)
    if removed:
        progress(f"removed {removed} run(s) left scheduled by an earlier start")
    configured_flow(settings, config_dir).serve(
        name=deployment_name(parameters),
        cron=cron,
        parameters=parameters,
        print_starting_message=False,
        pause_on_shutdown=False,
    )
