"""Each command in one place: its name, summary, example, arguments, preconditions and
handler, registered once by `@command`; the parser, the help and the dispatch are
derived from the registry.

A handler takes a `Run`: the parsed arguments, and what the command stands on
(the settings, the catalog, the database to read), each worked out once, on first
use, with the one policy every command shares. `requires=` names what must hold
before the handler starts, as dbt's `requires` decorators do: a config error then
stops the command before it does anything.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from functools import cached_property
from pathlib import Path
from typing import Any

from evidence_base import environment
from evidence_base.errors import ConfigError, WarehouseMissing
from flows.catalog import (
    Catalog,
    Settings,
    config_dir_from,
    load_catalog,
    load_settings,
    resolve_db,
)
from flows.runtime import clock
from warehouse.db import Connection, session


@dataclass(frozen=True)
class Arg:
    """One argument of a command, as `ArgumentParser.add_argument` takes it."""

    names: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)


def arg(*names: str, **options: Any) -> Arg:
    return Arg(names, options)


def formats(*choices: str, help: str | None = None) -> Arg:
    """The --format option: its choices, the first the default."""
    choices = choices or ("table", "csv", "json")
    return arg(
        "--format",
        choices=list(choices),
        default=choices[0],
        help=help or f"output format (default {choices[0]})",
    )


@dataclass(frozen=True)
class Command:
    name: str
    summary: str  # lower case, no full stop: the help line; the description is made of it
    example: str
    handler: Callable[[Run], int]
    arguments: tuple[Arg, ...] = ()
    requires: tuple[str, ...] = ()  # names of Run's properties worked out before the handler

    def __call__(self, args: argparse.Namespace) -> int:
        run = Run(args)
        for need in self.requires:
            getattr(run, need)
        return self.handler(run)


DEMO_DB = "data/demo.duckdb"  # where `evidence demo` keeps its database

REGISTRY: dict[str, Command] = {}  # in the order the help lists them

PRECONDITIONS = {"settings", "catalog", "readable_db", "db"}


def command(
    name: str,
    summary: str,
    example: str,
    *arguments: Arg,
    requires: Sequence[str] = (),
) -> Callable[[Callable[[Run], int]], Callable[[Run], int]]:
    """Register the decorated function as the handler of `evidence NAME`."""
    unknown = set(requires) - PRECONDITIONS
    assert not unknown, f"{name}: no precondition {sorted(unknown)}"
    assert name not in REGISTRY, f"two commands named {name}"

    def register(handler: Callable[[Run], int]) -> Callable[[Run], int]:
        REGISTRY[name] = Command(name, summary, example, handler, arguments, tuple(requires))
        return handler

    return register


class Run:
    """One invocation: its arguments, and what it stands on, each worked out once."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args

    @cached_property
    def config_dir(self) -> Path:
        """--config, EVIDENCE_CONFIG; with neither but a database named (--db,
        EVIDENCE_DB), the catalog that database notes it serves (said when it is not
        ./config); else ./config."""
        if self.args.config or environment.get("EVIDENCE_CONFIG"):
            return config_dir_from(self.args.config)
        named = self.args.db or environment.get("EVIDENCE_DB")
        noted = _noted_catalog(Path(named)) if named else None
        if noted is None:
            return config_dir_from(None)
        if noted.resolve() != Path("config").resolve():
            print(f"evidence: the catalog of {named}: {noted}", file=sys.stderr)
        return noted

    @cached_property
    def settings(self) -> Settings:
        """settings.yaml, or the defaults where there is no config directory; a directory
        named (flag or environment) and missing is a mistake, as it is to `refresh`: only
        the default ./config may be absent (a database read with --db alone)."""
        if "catalog" in self.__dict__:  # read already, settings and all
            return self.catalog.settings
        named = self.args.config or environment.get("EVIDENCE_CONFIG")
        if named and not self.config_dir.is_dir():
            raise ConfigError(str(self.config_dir), "no such config directory: pass --config DIR")
        return load_settings(self.config_dir) if self.config_dir.is_dir() else Settings()

    @cached_property
    def catalog(self) -> Catalog:
        return load_catalog(self.config_dir)

    @cached_property
    def db(self) -> Path:
        """The database in force: --db, EVIDENCE_DB, settings.yaml, the default."""
        return resolve_db(self.args.db, self.settings)

    @cached_property
    def readable_db(self) -> Path:
        """The database, for a command that reads it (the readers' memory bounded); a
        missing one named beside the demo's says how to read the demo's."""
        from warehouse.db import limit_readers

        limit_readers(self.settings.memory_limit)
        db = self.db
        if not db.exists():
            named = self.args.config or environment.get("EVIDENCE_CONFIG")
            theirs = self.settings.database != Settings().database  # its settings name one
            if Path(DEMO_DB).exists() and db != Path(DEMO_DB) and not (named and theirs):
                raise WarehouseMissing(
                    f"no database at {db}; the demo's is {DEMO_DB}: add `--db {DEMO_DB}` "
                    "(or run `evidence refresh` for your own catalog)"
                )
        return db

    def reading(
        self, folders: Sequence[Path] = (), now: datetime | None = None
    ) -> AbstractContextManager[Connection]:
        """A read-only connection for the block, closed after it (reaching no file but
        those in `folders`), its clock now or at `now`."""
        return session(self.readable_db, read_only=True, now=now or clock.now(), folders=folders)

    @cached_property
    def scope(self) -> str:
        """The ` --config DIR --db PATH` in force, for the commands a command prints."""
        from flows.runtime import command_scope

        return command_scope(self.config_dir, self.db)


def _noted_catalog(db: Path) -> Path | None:
    """The config directory the database notes it serves, when that folder is there."""
    from evidence_base.errors import EvidenceError
    from warehouse import queries
    from warehouse.db import inspect
    from warehouse.release import Release

    if not db.is_file():
        return None
    try:
        with inspect(db) as (con, found):
            if not found.writable or found.release is Release.UNFINISHED:
                return None
            origin, _ = queries.served_catalog(con)
    except EvidenceError:
        return None
    return Path(origin) if origin and Path(origin).is_dir() else None


def settings_leniently(config_dir: Path) -> Settings:
    """The settings, or the defaults when settings.yaml has a mistake (`check` and `plan`
    report it themselves)."""
    try:
        return load_settings(config_dir) if config_dir.is_dir() else Settings()
    except ConfigError:
        return Settings()


def date_arg(value: str) -> datetime:
    """A DATE option: YYYY-MM-DD (midnight UTC) or an ISO-8601 time with zone."""
    try:
        if len(value) == 10:
            return datetime.combine(date.fromisoformat(value), time(0), tzinfo=UTC)
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date: use YYYY-MM-DD") from None
    if parsed.tzinfo is None:
        raise argparse.ArgumentTypeError(f"{value!r} has no time zone: add one, or give a date")
    return parsed


def day_arg(value: str) -> date:
    """A DATE option of `diff`: YYYY-MM-DD."""
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date: use YYYY-MM-DD") from None
