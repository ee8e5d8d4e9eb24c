"""The errors evidence-pipeline raises on purpose.

EvidenceError                 anything the CLI turns into one line and exit 2
├── ConfigError               the user's config is wrong (file, line, fix)
├── WarehouseError            the database cannot be used
│   ├── WarehouseBusy         another process holds the write lock
│   └── WarehouseMissing      no database yet at the path
└── RefreshRunning            a refresh already runs on this database

A failing *source* is not an error: it is a fetch outcome, recorded as data.
"""

from __future__ import annotations


class EvidenceError(Exception):
    """An expected failure: the CLI prints str(error) on one line and exits 2."""


class ConfigError(EvidenceError):
    def __init__(self, file: str, message: str, line: int | None = None) -> None:
        self.file = file
        self.line = line
        where = f"{file}:{line}" if line else file
        super().__init__(f"config error: {where}: {message}")


class RefreshRunning(EvidenceError):
    pass
