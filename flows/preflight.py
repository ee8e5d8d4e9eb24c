"""What a refresh is asked to do, and what must hold before it fetches, worked out once.

`Selection` is the ask (records, sources, due or all, prune), with its conversion to and
from the flow's plain parameters. `preflight` checks it in one place, in this order:
the catalog (a config error is the one line said), the selection against it, the
database's release (a later release or a file not ours is refused, untouched), the
catalog the database serves, a Dask scheduler that answers; then it takes the refresh
lock; `Ready.prepare_file` makes, finishes or upgrades the file, saying so in one line.

The command line runs it before Prefect starts, so that the flow it runs finds it done;
a run started by a deployment (`serve`, a work pool) was checked by nobody, and the flow
runs it itself.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evidence_base.errors import RefreshRunning, UnknownRecord, UnknownSource
from flows.catalog import Catalog, Record, check_held, load_catalog
from flows.runtime import progress
from warehouse import queries
from warehouse.db import check_database_file, inspect, upgrade
from warehouse.lock import ensure_no_refresh, refresh_lock
from warehouse.release import Release, require_writable


@dataclass(frozen=True, slots=True)
class Selection:
    """What a refresh is asked for: every record or the ones named, every source or
    only those due (and those named), and whether the catalog may lack records the
    database holds."""

    record_ids: tuple[str, ...] = ()  # none: every record
    source_ids: tuple[str, ...] = ()  # RECORD/SOURCE or SOURCE
    due: bool = False
    prune: bool = False

    def parameters(self) -> dict[str, Any]:
        """The flow's parameters (plain JSON, as Prefect keeps them)."""
        return {
            "record_ids": list(self.record_ids) or None,
            "due": self.due,
            "source_ids": list(self.source_ids) or None,
            "prune": self.prune,
        }

    @classmethod
    def from_parameters(
        cls,
        record_ids: list[str] | None = None,
        due: bool = False,
        source_ids: list[str] | None = None,
        prune: bool = False,
    ) -> Selection:
        return cls(tuple(record_ids or ()), tuple(source_ids or ()), bool(due), bool(prune))

    def choose(self, catalog: Catalog) -> Chosen:
        """The records and sources this selection names in the catalog; an id it lacks is
        one line (an UnknownRecord or UnknownSource)."""
        records = _records(catalog, self.record_ids)
        asked = _sources(catalog, self.source_ids)
        if self.due and self.record_ids:  # a record named is asked for, every source of it
            asked |= {(r.id, s.source_id) for r in records for s in r.config.sources}
        return Chosen(records, frozenset(asked))


@dataclass(frozen=True, slots=True)
class Chosen:
    """A selection made of a catalog's records."""

    records: tuple[Record, ...]
    asked: frozenset[tuple[str, str]]  # (record, source) pairs fetched whether due or not

    @property
    def record_ids(self) -> set[str]:
        return {r.id for r in self.records}


@dataclass(slots=True)
class Ready:
    """A refresh that passed its preflight: the lock is held while it is in force."""

    catalog: Catalog
    db: Path
    selection: Selection
    chosen: Chosen
    created: bool  # the database is made by this run
    _file_ready: bool = False

    def prepare_file(self) -> None:
        """Make, finish or upgrade the database (once), and say so in one line."""
        if self._file_ready:
            return
        said = upgrade(self.db)
        if self.created:
            progress(f"creating a new database at {self.db}")
        elif said:
            progress(said)
        self._file_ready = True


def _records(catalog: Catalog, ids: tuple[str, ...]) -> tuple[Record, ...]:
    if not ids:
        return catalog.records
    known = {r.id for r in catalog.records}
    for rid in ids:
        if rid not in known:
            raise UnknownRecord(rid, known, str(catalog.config_dir / "records"))
    return tuple(r for r in catalog.records if r.id in ids)


def _sources(catalog: Catalog, names: tuple[str, ...]) -> set[tuple[str, str]]:
    """The (record, source) pairs named: RECORD/SOURCE, or a source id (every record's
    source of that id)."""
    pairs = {(r.id, s.source_id) for r in catalog.records for s in r.config.sources}
    chosen: set[tuple[str, str]] = set()
    for name in names:
        rid, _, sid = name.rpartition("/")
        found = {p for p in pairs if p[1] == sid and (not rid or p[0] == rid)}
        if not found:
            known = {f"{r}/{s}" for r, s in pairs} | {s for _, s in pairs}
            raise UnknownSource(name, known, str(catalog.config_dir / "records"))
        chosen |= found
    return chosen


# The preflights this process holds, by database: the flow a command line runs finds
# its own here (the lock is this process's while one is held).
_ready: dict[Path, Ready] = {}
_ready_guard = threading.Lock()


@contextmanager
def preflight(config_dir: Path, db: Path, selection: Selection) -> Iterator[Ready]:
    """Check everything a refresh needs before it fetches, then hold the refresh lock for
    the block."""
    exists = check_database_file(db)
    ensure_no_refresh(db)  # a second refresh stops here, before anything is read
    catalog = load_catalog(config_dir)
    chosen = selection.choose(catalog)
    origin, held = served_by(db) if exists else (None, [])
    check_held(catalog, db, origin, held, selection.prune)
    if catalog.settings.task_runner == "dask":
        from flows.reading import check_scheduler

        check_scheduler(catalog.settings, catalog.config_dir)
    with refresh_lock(db):
        ready = Ready(catalog, db, selection, chosen, created=not exists)
        key = db.resolve()
        with _ready_guard:
            _ready[key] = ready
        try:
            yield ready
        finally:
            with _ready_guard:
                _ready.pop(key, None)


def prepared(db: Path, selection: Selection) -> Ready | None:
    """The preflight this process holds for db and this selection, if any (a run the
    command line started)."""
    with _ready_guard:
        ready = _ready.get(db.resolve())
    return ready if ready is not None and ready.selection == selection else None


def served_by(db: Path) -> tuple[str | None, list[str]]:
    """The catalog the file serves (where it came from, its records), read from a file
    of any release we can write; a later release or a file not ours is refused here."""
    with inspect(db) as (con, found):
        require_writable(found)
        if found.release is Release.UNFINISHED:
            return None, []
        return queries.served_catalog(con)


def check_serving(config_dir: Path, db: Path, selection: Selection) -> None:
    """What `serve` checks before it serves: the preflight its runs will pass, the file
    made or upgraded now. While a refresh runs, its runs check for themselves."""
    try:
        with preflight(config_dir, db, selection) as ready:
            ready.prepare_file()
    except RefreshRunning:
        pass


def upgrade_file(db: Path) -> None:
    """What a command that writes to an existing database does first (gc, reextract,
    accept, update): refuse a later release or a file not ours, else upgrade it, saying
    so in one line."""
    said = upgrade(db)
    if said:
        progress(said)
