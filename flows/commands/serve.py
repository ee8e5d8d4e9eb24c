"""`evidence serve`: the refresh flow on `schedule.cron`, until stopped.

With PREFECT_API_URL set it serves against that server. Without it, Prefect's temporary
server cannot schedule ("Cannot schedule flows on an ephemeral server"), so a local
Prefect server runs for as long as this does: SIGTERM or Ctrl-C stop everything.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from pathlib import Path

from flows.runtime import configure_prefect, local_server, progress


def serve(config_dir: Path, db: Path, cron: str, verbose: bool) -> int:
    """Serve the refresh deployment until stopped; returns the exit code."""
    configure_prefect(verbose)
    _stop_on_signals()
    # Stopped while a run's control channel is being answered, asyncio logs the cancelled
    # handler's CancelledError with a traceback; stopping cancels it on purpose.
    logging.getLogger("asyncio").addFilter(_not_cancelled)
    from flows.catalog import load_settings

    due = load_settings(config_dir).schedule.mode == "due"  # fetch what is due, or all
    parameters = {
        "config_dir": str(config_dir.resolve()),
        "db_path": str(db.resolve()),
        "due": due,
    }
    try:
        if os.environ.get("PREFECT_API_URL"):
            progress(f"serving on {os.environ['PREFECT_API_URL']}; cron {cron!r}")
            _serve_flow(config_dir, cron, parameters)
        else:
            log = db.resolve().parent / "prefect-server.log"
            progress(f"starting a local Prefect server (log: {log})")
            with local_server(log) as api_url:
                os.environ["PREFECT_API_URL"] = api_url
                progress(f"Prefect server at {api_url.removesuffix('/api')}; cron {cron!r}")
                _serve_flow(config_dir, cron, parameters)
    except KeyboardInterrupt:
        pass  # (Prefect's serve returns on one itself, or lets it through)
    progress("stopped")  # serving ends only when it is stopped
    return 0


def _not_cancelled(record: logging.LogRecord) -> bool:
    return not (record.exc_info and isinstance(record.exc_info[1], asyncio.CancelledError))


def _stop_on_signals() -> None:
    """SIGTERM and Ctrl-C stop serving the same way: a KeyboardInterrupt out of Prefect's
    loop. (Left to asyncio, Ctrl-C only cancels the loop's main task, which Prefect's
    runner can absorb while it starts or reaps a run: it then serves on.)"""

    def handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


def _serve_flow(config_dir: Path, cron: str, parameters: dict) -> None:
    from flows.catalog import load_settings
    from flows.refresh import configured_flow

    configured_flow(load_settings(config_dir), config_dir).serve(
        name="evidence-refresh",
        cron=cron,
        parameters=parameters,
        print_starting_message=False,
        pause_on_shutdown=False,
    )
