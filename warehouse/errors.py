"""The errors evidence-pipeline raises on purpose, every one of them.

EvidenceError                 anything the CLI turns into one line and exit 2
├── ConfigError               the user's config is wrong (file, line, fix)
├── RefreshRunning            a refresh already runs on this database
├── OutputRefused             an output path that is not a file or folder of the user's
└── WarehouseError            the database cannot be used as asked
    ├── WarehouseBusy         another process holds DuckDB's write lock
    ├── WarehouseMissing      no database yet at the path
    └── QueryError            a user's query (`evidence sql`) failed

They live in the lowest layer that raises any of them, so that every layer above
can raise and catch them without importing upward. A failing *source* is not an
error: it is a fetch outcome, recorded as data. `first_line` is how every layer says an
error, its own or a library's, in one line.
"""

from __future__ import annotations


class EvidenceError(Exception):
    """An expected failure: the CLI prints str(error) on one line and exits 2."""


class ConfigError(EvidenceError):
    """A mistake in settings.yaml or records/*.yaml, raised before anything is fetched."""

    def __init__(self, file: str, message: str, line: int | None = None) -> None:
        self.file = file
        self.line = line
        self.reason = message  # the words without the place, for editors and CI annotations
        where = f"{file}:{line}" if line else file
        super().__init__(f"config error: {where}: {message}")


class OutputRefused(EvidenceError):
    """An output path names a device, FIFO, socket or system file: never written."""


class RefreshRunning(EvidenceError):
    """Another process holds the refresh lock of this database."""


class WarehouseError(EvidenceError):
    """The database cannot be used as asked."""


class WarehouseBusy(WarehouseError):
    """Another process holds DuckDB's write lock on the file."""


class WarehouseMissing(WarehouseError):
    """There is no database at the path yet."""


class QueryError(WarehouseError):
    """A user's query failed: DuckDB's own first line, as the user needs it."""


def first_line(error: BaseException | str) -> str:
    """The first line of an error's message, as a person needs it in one line: an
    exception that says nothing is named by its type; empty text stays empty."""
    text = str(error).strip()
    if not text:
        return type(error).__name__ if isinstance(error, BaseException) else ""
    return text.splitlines()[0]
