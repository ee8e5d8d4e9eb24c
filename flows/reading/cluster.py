"""Where pages are read: the flow's own machine (a task thread handing each batch to the
process pool), or a Dask cluster (`task_runner: dask`).

Only the extract-pages tasks go to the cluster: fetching stays on the flow's machine (one
client keeps the per-host limits and robots rules), and so does every write (DuckDB has
one writer). Each batch's bodies reach the scheduler once, inside its task; the worker
that runs it reads them in its own process, one page after another (a Dask worker
process may not start a pool of its own).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evidence_base.errors import ConfigError, EvidenceError, first_line
from flows.runtime import progress

if TYPE_CHECKING:
    from flows.catalog import Settings

CONNECT_TIMEOUT = 10  # seconds to reach a scheduler before the refresh stops


@contextmanager
def cluster_runner(settings: Settings, config_dir: Path) -> Iterator[Any]:
    """The started DaskTaskRunner this refresh reads its pages on, connected (or its local
    cluster started) for the whole refresh; None with `task_runner: threads`."""
    if settings.task_runner != "dask":
        yield None
        return
    runner = dask_runner(settings, config_dir)
    with runner:
        try:
            client = runner.client  # connect now: nothing is written before it answers
        except (OSError, TimeoutError) as e:
            raise EvidenceError(unreachable(settings.dask_address, e)) from None
        workers = len(client.scheduler_info().get("workers", {}))
        address = client.scheduler.address
        progress(f"reading pages on the Dask cluster at {address} ({workers} workers)")
        yield runner


def dask_runner(settings: Settings, config_dir: Path) -> Any:
    """A DaskTaskRunner for the settings' scheduler (none: a local cluster, one worker
    process per core)."""
    DaskTaskRunner = _runner_class(config_dir)
    if settings.dask_address:
        return DaskTaskRunner(
            address=settings.dask_address, client_kwargs={"timeout": CONNECT_TIMEOUT}
        )
    return DaskTaskRunner(cluster_kwargs={"threads_per_worker": 1})


def check_scheduler(settings: Settings, config_dir: Path) -> None:
    """Stop with one line, before the flow starts, when the settings' Dask scheduler does
    not answer (or prefect-dask is missing)."""
    if settings.task_runner != "dask":
        return
    _runner_class(config_dir)
    if not settings.dask_address:
        return
    from distributed import Client

    try:
        Client(settings.dask_address, timeout=CONNECT_TIMEOUT).close()
    except (OSError, TimeoutError) as e:
        raise EvidenceError(unreachable(settings.dask_address, e)) from None


def _runner_class(config_dir: Path) -> Any:
    """prefect-dask's DaskTaskRunner, or a one-line error saying how to install it."""
    try:
        from prefect_dask import DaskTaskRunner
    except ImportError:
        raise ConfigError(
            str(config_dir / "settings.yaml"),
            "task_runner: dask needs prefect-dask: pip install 'evidence-pipeline[dask]'",
        ) from None
    return DaskTaskRunner


def unreachable(address: str | None, error: BaseException) -> str:
    reason = first_line(error)
    return f"the Dask scheduler at {address} does not answer ({reason}); nothing was written"
