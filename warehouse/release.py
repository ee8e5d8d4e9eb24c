"""A database's release, and what each kind of command may do with it: the one schema
policy every command follows (DEVELOPMENT.md, "Database releases").

- A reader needs the current release; anything else is one line naming what to run.
- A writer upgrades an earlier release in place (every pending migration and the views
  in one transaction, history kept) and finishes a file whose first migration never
  committed (a first refresh killed while it made the file).
- A later release's file, or a file that is not ours, is refused by every command,
  writers first, and left as it is.

A release is told from the catalog's own tables (`duckdb_tables()`), never by reading
a view of the file: a file is someone else's until its tables say it is ours.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from enum import StrEnum
from importlib import resources
from pathlib import Path

import duckdb

from evidence_base.errors import WarehouseError


@functools.cache
def migrations() -> tuple[tuple[int, str, str], ...]:
    """(version, name, sql) of every numbered migration, in order."""
    out = []
    for entry in resources.files("warehouse.migrations").iterdir():
        m = re.match(r"^(\d+)_(\w+)\.sql$", entry.name)
        if m:
            out.append((int(m[1]), m[2], entry.read_text(encoding="utf-8")))
    return tuple(sorted(out))


def latest_version() -> int:
    """The schema this release writes: its newest migration's number."""
    return migrations()[-1][0]


class Release(StrEnum):
    """What a database file is, to this release."""

    NEW = "new"  # no file yet: a writer makes it
    UNFINISHED = "unfinished"  # made, but its first migration never committed
    EARLIER = "earlier"  # ours, with migrations still to apply
    CURRENT = "current"
    LATER = "later"  # ours, of a release newer than this one
    FOREIGN = "foreign"  # not a database of evidence-pipeline


@dataclasses.dataclass(frozen=True, slots=True)
class Found:
    """A file's release, with the newest migration it records (None: none)."""

    path: Path
    release: Release
    version: int | None = None

    @property
    def writable(self) -> bool:
        return self.release not in (Release.LATER, Release.FOREIGN)


# What migrate() makes before its transaction: all a file holds when its first
# migration was stopped before it committed.
_BOOTSTRAP = {("store", "migrations"), ("store", "views_made")}


def classify(con: duckdb.DuckDBPyConnection, path: Path) -> Found:
    """The release of the database open on `con`."""
    kinds = {
        (schema, name): kind
        for schema, name, kind in con.execute(
            "SELECT schema_name, table_name, 'table' FROM duckdb_tables() "
            "WHERE database_name = current_database() AND NOT temporary "
            "UNION ALL SELECT schema_name, view_name, 'view' FROM duckdb_views() "
            "WHERE database_name = current_database() AND NOT internal AND NOT temporary"
        ).fetchall()
    }
    made = kinds.get(("store", "migrations"))
    if made is None:
        # an empty file holds nothing to lose: a first refresh stopped as it began
        only_bootstrap = set(kinds) <= _BOOTSTRAP
        return Found(path, Release.UNFINISHED if only_bootstrap else Release.FOREIGN)
    if made != "table":
        return Found(path, Release.FOREIGN)
    try:
        done = {v for (v,) in con.execute("SELECT version FROM store.migrations").fetchall()}
    except duckdb.Error:
        return Found(path, Release.FOREIGN)
    if not all(isinstance(v, int) for v in done):
        return Found(path, Release.FOREIGN)
    if not done:
        only_bootstrap = set(kinds) <= _BOOTSTRAP
        return Found(path, Release.UNFINISHED if only_bootstrap else Release.FOREIGN)
    top = max(done)
    if top > latest_version():
        return Found(path, Release.LATER, top)
    pending = {v for v, _, _ in migrations()} - done
    return Found(path, Release.EARLIER if pending else Release.CURRENT, top)


def require_writable(found: Found) -> None:
    """A writer refuses a later release and a file not ours, before it changes anything."""
    if not found.writable:
        raise WarehouseError(refusal(found))


def require_readable(found: Found) -> None:
    """A reader needs the current release: anything else is one line saying what to do."""
    if found.release is not Release.CURRENT:
        raise WarehouseError(refusal(found))


def refusal(found: Found) -> str:
    """Why a command cannot use the file as it is, and what to run, in one line."""
    path, latest = found.path, latest_version()
    match found.release:
        case Release.EARLIER:
            return (
                f"the database at {path} was written by an earlier release (schema "
                f"{found.version}; this one writes {latest}): run `evidence refresh` once "
                "to upgrade it in place (its history is kept), then try again"
            )
        case Release.UNFINISHED:
            return (
                f"the database at {path} was never finished (the refresh that made it "
                "was stopped): run `evidence refresh` to finish it"
            )
        case Release.LATER:
            return (
                f"the database at {path} was written by a later release of "
                f"evidence-pipeline (schema {found.version}; this one knows up to {latest}): "
                "upgrade evidence-pipeline to use it; the file is left as it is"
            )
        case Release.FOREIGN:
            return (
                f"{path} is not a database of evidence-pipeline (its tables are not ours): "
                "give another --db PATH"
            )
        case Release.NEW:
            return f"no database at {path}: run `evidence refresh` first"
    return f"the database at {path} is of the current release"


def upgraded(found: Found, applied: list[int]) -> str | None:
    """What a writer's migrations did to a file, in one line (None: nothing to say)."""
    if not applied or found.release in (Release.NEW, Release.CURRENT):
        return None
    if found.release is Release.UNFINISHED:
        return f"finished making {found.path} (the refresh that began it was stopped)"
    return (
        f"upgraded {found.path} from schema {found.version} to {max(applied)} (its history is kept)"
    )
