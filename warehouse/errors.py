"""Moved to evidence_base.errors; kept for one release, for code that imports it here."""

from evidence_base.errors import (
    ConfigError,
    EvidenceError,
    OutputRefused,
    QueryError,
    RefreshRunning,
    UnknownClaim,
    UnknownId,
    UnknownRecord,
    UnknownSource,
    WarehouseBusy,
    WarehouseError,
    WarehouseMissing,
    did_you_mean,
    first_line,
    known_hint,
)

__all__ = [
    "ConfigError",
    "EvidenceError",
    "OutputRefused",
    "QueryError",
    "RefreshRunning",
    "UnknownClaim",
    "UnknownId",
    "UnknownRecord",
    "UnknownSource",
    "WarehouseBusy",
    "WarehouseError",
    "WarehouseMissing",
    "did_you_mean",
    "first_line",
    "known_hint",
]
