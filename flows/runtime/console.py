"""Progress for people: one line per step on stderr, prefixed like every CLI message.

Inside a Prefect flow or task run the same line also goes to the run's logs, so that the
Prefect UI shows a deployed run's progress. It goes there through a logger of its own
(Prefect's run loggers follow PREFECT_LOGGING_LEVEL, quiet here, and print to stderr as
well), and only when Prefect is already imported: read commands never import it.
"""

from __future__ import annotations

import functools
import logging
import sys

LOGGER = "evidence"


def progress(message: str) -> None:
    print(f"evidence: {message}", file=sys.stderr, flush=True)
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


@functools.cache
def _api_logger() -> logging.Logger:
    from prefect.logging.handlers import APILogHandler

    logger = logging.getLogger(LOGGER)
    logger.setLevel(logging.INFO)
    logger.propagate = False  # the line is on stderr already
    logger.addHandler(APILogHandler())
    return logger
