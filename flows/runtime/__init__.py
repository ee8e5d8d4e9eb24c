"""What the flow runs on: the clock, progress lines, Prefect's server and quiet defaults,
the run's artifacts, and task values handed over whole. Prefect itself is imported only
where it is used, so that read commands never import it."""

from flows.runtime import clock
from flows.runtime.artifacts import publish
from flows.runtime.console import progress
from flows.runtime.prefect_server import configure_prefect, local_server, prefect_api
from flows.runtime.sealed import Sealed

__all__ = [
    "Sealed",
    "clock",
    "configure_prefect",
    "local_server",
    "prefect_api",
    "progress",
    "publish",
]
