"""What the flow runs on: the clock, progress lines, Prefect's server and quiet defaults,
the processes the CLI starts, and task values handed over whole. Prefect itself is
imported only where it is used, so that read commands never import it."""

from flows.runtime import clock, processes, shared_server
from flows.runtime.console import (
    command_scope,
    flush_run_logs,
    mark_start,
    progress,
    started_at,
)
from flows.runtime.interrupt import interrupted, on_interrupt, stop_on_interrupt
from flows.runtime.prefect_server import configure_prefect, prefect_api
from flows.runtime.sealed import Sealed

__all__ = [
    "Sealed",
    "clock",
    "command_scope",
    "configure_prefect",
    "flush_run_logs",
    "interrupted",
    "mark_start",
    "on_interrupt",
    "prefect_api",
    "processes",
    "progress",
    "shared_server",
    "started_at",
    "stop_on_interrupt",
]
