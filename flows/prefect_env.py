"""Prefect defaults for a quiet, fast CLI; set before prefect is imported, never over the user's."""

from __future__ import annotations

import os

DEFAULTS = {
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "DO_NOT_TRACK": "1",
    "PREFECT_CLOUD_ENABLE_ORCHESTRATION_TELEMETRY": "false",
    "PREFECT_TELEMETRY_ENABLE_RESOURCE_METRICS": "false",
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "90",
    "PREFECT_LOGGING_LEVEL": "WARNING",
    "PREFECT_RESULTS_PERSIST_BY_DEFAULT": "false",
}


def configure_prefect(verbose: bool = False) -> None:
    for key, value in DEFAULTS.items():
        os.environ.setdefault(key, value)
    if verbose:
        os.environ["PREFECT_LOGGING_LEVEL"] = "INFO"
