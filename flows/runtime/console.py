"""Progress for people: one line per step on stderr, prefixed like every CLI message.

Inside a Prefect flow or task run the same line also goes to the run's logs, so that the
Prefect UI shows a deployed run's progress. It goes there through a logger of its own
(Prefect's run loggers follow PREFECT_LOGGING_LEVEL, quiet here, and print to stderr as
well), and only when Prefect is already imported: read commands never import it.
"""

from __future__ import annotations

import functools
import logging
import os
import shlex
import sys
import threading
import time
from pathlib import Path

from extractors.printable import one_line

LOGGER = "evidence"
_started: float | None = None  # see mark_start


def mark_start() -> None:
    """Count this process's whole life as the run's: the command line calls this first,
    so that a refresh's `time:` line holds its start-up (interpreter, imports, Prefect)."""
    global _started
    _started = time.monotonic() - process_age()


def started_at(default: float) -> float:
    """The monotonic time the run began: the process's start for its first run once
    marked, else `default` (a second run in one process starts when it starts)."""
    global _started
    began, _started = _started, None
    return default if began is None else min(began, default)


def process_age() -> float:
    """Seconds since this process started (0 where /proc cannot tell)."""
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        with open("/proc/uptime", "rb") as f:
            uptime = float(f.read().split()[0])
        return max(0.0, uptime - int(fields[19]) / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


def progress(message: str) -> None:
    # messages name records, URLs and titles: the user's and the pages' words
    print(f"evidence: {one_line(message)}", file=sys.stderr, flush=True)
    logger = _run_logger()
    if logger is not None:
        logger.info(message)


def _run_logger() -> logging.Logger | None:
    """The logger that reaches the current Prefect run's logs; None outside a run."""
    if "prefect" not in sys.modules:
        return None
    from prefect.context import FlowRunContext, TaskRunContext

    if FlowRunContext.get() is None and TaskRunContext.get() is None:
        return None
    return _api_logger()


_guard = threading.Lock()  # the handler is added once, whichever task thread logs first


@functools.cache
def _api_logger() -> logging.Logger:
    from prefect.logging.handlers import APILogHandler

    with _guard:
        logger = logging.getLogger(LOGGER)
        if logger.handlers:
            return logger
        logger.setLevel(logging.INFO)
        logger.propagate = False  # the line is on stderr already
        logger.addHandler(APILogHandler())
        return logger


def flush_run_logs(timeout_s: float = 5.0) -> None:
    """Send the run's queued progress lines now, so that the process ends with none
    owed (a served run's process would send them at its exit)."""
    if _api_logger.cache_info().currsize:
        from prefect.logging.handlers import APILogWorker

        APILogWorker.drain_all(timeout=timeout_s)


def command_scope(config_dir: Path, db: Path) -> str:
    """` --config DIR --db PATH` as absolute paths: a command printed for a person to run
    acts on this catalog and database from any folder, with no environment."""
    return (
        f" --config {shlex.quote(str(config_dir.resolve()))} --db {shlex.quote(str(db.resolve()))}"
    )
