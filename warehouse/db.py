"""Connections and migrations: the only door into the DuckDB file."""

from __future__ import annotations

import atexit
import dataclasses
import enum
import functools
import hashlib
import os
import re
import shutil
import tempfile
import threading
import time
import types
import typing
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import duckdb

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

from evidence_base import environment
from evidence_base.errors import WarehouseBusy, WarehouseError, WarehouseMissing, first_line
from evidence_base.pause import pause_point
from warehouse.release import (
    Found,
    Release,
    classify,
    migrations,
    require_readable,
    require_writable,
    upgraded,
)

READ_WAIT_S = 5.0  # how long a reader waits for a writer's lock before giving up
# DuckDB's checkpoint merges small row groups (vacuum), rewriting every compressed body
# of the groups it merges: costly in memory for a refresh that appends a batch of pages
# per session. Our writers turn it off: row groups whose rows are all deleted still go
# (the grade tables, replaced each run). bench/checkpoint.py shows the difference.
NO_VACUUM = "SET max_vacuum_tasks = 0"
# A writer checkpoints when it closes, not each time its log passes DuckDB's 16 MB: each
# checkpoint starts new storage blocks for every table it appends to.
CHECKPOINT_AT_CLOSE = "SET checkpoint_threshold = '1GB'"
ROWS_PER_INSERT = 2000
DUCKDB_MAGIC = b"DUCK"  # at offset 8 of every DuckDB database file
Connection = duckdb.DuckDBPyConnection  # for layers above, which never import duckdb
Row = TypeVar("Row", bound="DataclassInstance")
_LOCK_WORDS = ("Could not set lock", "Conflicting lock", "lock on file")
_OURS = "different configuration"  # DuckDB's words for a reader and a writer in one process


def sql_file(name: str) -> str:
    """The text of warehouse/sql/<name>."""
    return resources.files("warehouse.sql").joinpath(name).read_text(encoding="utf-8")


@dataclasses.dataclass(frozen=True, slots=True)
class View:
    """A view of warehouse/views/, or a table macro views are built on: one statement,
    `CREATE VIEW <name>` or `CREATE MACRO <name>`, in `<order>_<name>.sql`."""

    name: str  # as SQL names it: `snapshots`, `store.source_due`
    kind: str  # as DROP names it: VIEW, MACRO or MACRO TABLE
    sql: str


def views() -> list[View]:
    """Every view of warehouse/views/, in the order they are made: by the number their file
    names begin with. Those of schema `store` come first (the others read them), then the
    stable views in docs/views.md's order."""
    found = []
    for entry in resources.files("warehouse.views").iterdir():
        m = re.match(r"^(\d+)_((?:store\.)?\w+)\.sql$", entry.name)
        if not m:
            continue
        sql = entry.read_text(encoding="utf-8")
        made = re.search(r"^CREATE (VIEW|MACRO) ([\w.]+)(?:\(.*?\))? AS( TABLE)?", sql, re.M)
        if made is None or made[2] != m[2]:
            raise WarehouseError(f"warehouse/views/{entry.name} does not create {m[2]}")
        kind = "VIEW" if made[1] == "VIEW" else "MACRO TABLE" if made[3] else "MACRO"
        found.append((int(m[1]), View(name=m[2], kind=kind, sql=sql)))
    return [view for _, view in sorted(found, key=lambda f: f[0])]


def stable_views() -> list[str]:
    """The stable views (schema `main`), in docs/views.md's order: exported, documented."""
    return [v.name for v in views() if "." not in v.name]


def check_database_file(path: Path) -> bool:
    """Whether a DuckDB database is at path (False: none yet); WarehouseError when
    something else is there (a directory, a file of another kind)."""
    if path.is_dir():
        raise WarehouseError(f"{path} is a directory: give a database file (--db PATH)")
    if not path.exists():
        return False
    try:
        with path.open("rb") as f:
            head = f.read(12)
    except OSError as e:
        raise WarehouseError(f"cannot read {path}: {e.strerror or e}") from None
    if head[8:12] != DUCKDB_MAGIC:
        raise WarehouseError(f"{path} is not a DuckDB database: give another --db PATH")
    return True


def connect(
    path: str | Path,
    *,
    read_only: bool = False,
    now: datetime | None = None,
    wait_s: float | None = None,
    folders: Sequence[Path] = (),
) -> duckdb.DuckDBPyConnection:
    """Open the database under the schema policy (warehouse/release.py): a reader needs
    the current release; a writer refuses a later release or a file not ours, and applies
    pending migrations (`upgrade` does the same and says what it did). A reader reaches
    no file but those in `folders` (an export's output).

    Both wait up to `wait_s` (default READ_WAIT_S) for another process's write
    lock, then raise WarehouseBusy. A writer's checkpoints do not merge row groups
    (see NO_VACUUM).
    """
    path = Path(path)
    if read_only and not path.exists():
        raise WarehouseMissing(f"no database at {path}: run `evidence refresh` first")
    check_database_file(path)  # a file of another kind: one line, never DuckDB's own words
    con = _open(path, read_only, wait_s, folders)
    try:
        found = classify(con, path)
        if read_only:
            require_readable(found)
        else:
            require_writable(found)
            migrate(con)
        if now is not None:
            set_now(con, now)
    except BaseException:
        con.close()
        raise
    return con


def upgrade(path: str | Path, wait_s: float | None = None) -> str | None:
    """What a command that writes does first: refuse a later release or a file not ours
    (one line, the file untouched), else make, finish or upgrade the file in one
    transaction. What it did, in one line (None: nothing to say)."""
    path = Path(path)
    existed = check_database_file(path)
    con = _open(path, False, wait_s, ())
    try:
        found = classify(con, path) if existed else Found(path, Release.NEW)
        require_writable(found)
        return upgraded(found, migrate(con))
    finally:
        con.close()


@contextmanager
def inspect(path: str | Path, wait_s: float | None = None) -> Iterator[tuple[Connection, Found]]:
    """A reader's connection to a file of any release, with its release: what a writer's
    preflight reads before it takes the file (the catalog it serves). The caller reads
    nothing of a file that is not ours, and of an earlier one only what every release
    has."""
    path = Path(path)
    check_database_file(path)
    con = _open(path, True, wait_s, ())
    try:
        yield con, classify(con, path)
    finally:
        con.close()


def peek(path: str | Path) -> Found:
    """The release of the file at path (NEW when there is none)."""
    path = Path(path)
    if not check_database_file(path):
        return Found(path, Release.NEW)
    with inspect(path) as (_, found):
        return found


# DuckDB keeps one instance of a file per process, however many connections share it:
# the first connection locks it down, the others find it locked. The lock keeps two
# threads from both being the first.
_opening = threading.Lock()


def _open(
    path: Path, read_only: bool, wait_s: float | None, folders: Sequence[Path]
) -> duckdb.DuckDBPyConnection:
    """A connection to the file, locked down before any query reads it: a file is
    someone else's (a database named by a pull request's settings.yaml), so no
    extensions are installed or loaded and no other file is reached (but `folders`, a
    reader's output); its settings are fixed once made. A reader spills to a private
    temporary folder of this process, never beside the database, within a memory limit
    and a size limit."""
    if not read_only:
        path.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + (READ_WAIT_S if wait_s is None else wait_s)
    config: dict[str, str | bool | int | float | list[str]] = {
        "autoinstall_known_extensions": False,
        "autoload_known_extensions": False,
    }
    if read_only:
        config |= {
            "memory_limit": reader_memory_limit(),
            "temp_directory": _spill_directory(),
            "max_temp_directory_size": SPILL_LIMIT,
        }
    while True:
        try:
            with _opening:
                con = duckdb.connect(str(path), read_only=read_only, config=config)
                try:
                    _lock_down(con, path, read_only, folders)
                except BaseException:
                    con.close()
                    raise
                return con
        except duckdb.Error as e:
            ours = _OURS in str(e)  # a connection of this process, of the other kind
            if not ours and not any(w in str(e) for w in _LOCK_WORDS):
                raise WarehouseError(f"cannot open database {path}: {first_line(e)}") from e
            if time.monotonic() >= deadline:
                raise WarehouseBusy(
                    f"{path} is open for another use in this process; try again"
                    if ours
                    else f"a refresh is writing to {path}; try again when it finishes"
                ) from e
        time.sleep(0.1)


def _lock_down(
    con: duckdb.DuckDBPyConnection, path: Path, read_only: bool, folders: Sequence[Path]
) -> None:
    allowed = sorted({str(p) for f in folders for p in (f.absolute(), f.resolve())})
    row = con.execute(
        "SELECT current_setting('lock_configuration'), current_setting('allowed_directories')"
    ).fetchone()
    locked, reach = row if row else (False, [])
    if locked:  # another connection of this process made the instance
        if not set(allowed) <= set(reach or []):
            raise WarehouseBusy(f"{path} is open in this process for another use; try again")
        return
    con.execute("SET GLOBAL TimeZone = 'UTC'")
    if read_only:
        con.execute("SET enable_progress_bar = false")  # rows go to stdout, not a bar
        if allowed:
            con.execute("SET allowed_directories = ?", [allowed])
    else:
        con.execute(NO_VACUUM)
        con.execute(CHECKPOINT_AT_CLOSE)
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")


# What a reader may hold in memory before it spills to disk, in DuckDB's words ("2GB",
# "512MB"): settings' memory_limit as the command line read it, env
# EVIDENCE_MEMORY_LIMIT over it.
_reader_memory = ["2GB"]


def limit_readers(memory_limit: str) -> None:
    """The memory limit of every reader this process opens from now on."""
    _reader_memory[0] = memory_limit


def reader_memory_limit() -> str:
    return environment.get("EVIDENCE_MEMORY_LIMIT") or _reader_memory[0]


# What a reader may write to its spill folder: a query past it fails, the disk stays.
SPILL_LIMIT = "20GB"
_SPILL_PREFIX = "evidence-spill-"


@functools.cache
def _spill_directory() -> str:
    """A private folder of this process for a reader's spills, removed at exit; those
    of processes that died without removing theirs (killed) are removed first."""
    _remove_orphan_spills(Path(tempfile.gettempdir()))
    folder = tempfile.mkdtemp(prefix=f"{_SPILL_PREFIX}{os.getpid()}-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def _remove_orphan_spills(where: Path) -> None:
    """Remove this account's spill folders whose process is gone (the pid in the name)."""
    for folder in where.glob(f"{_SPILL_PREFIX}*"):
        pid = folder.name.removeprefix(_SPILL_PREFIX).partition("-")[0]
        try:
            owned = folder.lstat().st_uid == os.getuid() and not folder.is_symlink()
        except OSError:
            continue
        if owned and pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextmanager
def session(
    path: str | Path,
    *,
    read_only: bool = False,
    now: datetime | None = None,
    wait_s: float | None = None,
    folders: Sequence[Path] = (),
) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection closed on exit (a writer holds the lock only this long)."""
    con = connect(path, read_only=read_only, now=now, wait_s=wait_s, folders=folders)
    try:
        yield con
    finally:
        con.close()


def set_now(con: duckdb.DuckDBPyConnection, now: datetime) -> None:
    """Make views and grading read `now` as the current time (EVIDENCE_NOW)."""
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    # SET VARIABLE takes no parameters; the value is a formatted datetime, not user text.
    con.execute(f"SET VARIABLE evidence_now = TIMESTAMPTZ '{now.isoformat()}'")


def migrate(con: duckdb.DuckDBPyConnection) -> list[int]:
    """Apply every migration not yet recorded; then, when one was applied or
    warehouse/views/ has changed since the views were made, make them again.

    The views are dropped before any migration runs and made after the last, so that a
    migration meets no view of an older schema and every view is its file's text.
    """
    con.execute("CREATE SCHEMA IF NOT EXISTS store")
    con.execute(
        "CREATE TABLE IF NOT EXISTS store.migrations "
        "(version INTEGER PRIMARY KEY, name VARCHAR, applied_at TIMESTAMPTZ DEFAULT now())"
    )
    # The digest of warehouse/views/ the views were made from (none: not made yet).
    con.execute(
        "CREATE TABLE IF NOT EXISTS store.views_made "
        "(digest VARCHAR NOT NULL, made_at TIMESTAMPTZ DEFAULT now())"
    )
    done = {v for (v,) in con.execute("SELECT version FROM store.migrations").fetchall()}
    pending = [m for m in migrations() if m[0] not in done]
    wanted = views()
    digest = _digest(wanted)
    made = con.execute("SELECT count(*) FROM store.views_made WHERE digest = ?", [digest])
    if not pending and made.fetchone() == (1,):
        return []
    # One transaction: a migration that fails leaves the database, views and all, as it was.
    applied = []
    with transaction(con):
        for view in reversed(wanted):
            con.execute(f"DROP {view.kind} IF EXISTS {view.name}")
        con.execute("DELETE FROM store.views_made")
        for version, name, sql in pending:
            con.execute(sql)
            con.execute(
                "INSERT INTO store.migrations (version, name) VALUES (?, ?)", [version, name]
            )
            applied.append(version)
        for view in wanted:
            con.execute(view.sql)
        con.execute("INSERT INTO store.views_made (digest) VALUES (?)", [digest])
        pause_point("migrate")  # (the kill tests: all applied, nothing committed)
    return applied


def _digest(views: Sequence[View]) -> str:
    text = "\0".join(f"{v.name}\0{v.sql}" for v in views)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class transaction:
    """BEGIN ... COMMIT, or ROLLBACK on any error: nothing half-written."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con

    def __enter__(self) -> duckdb.DuckDBPyConnection:
        self.con.execute("BEGIN TRANSACTION")
        return self.con

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.con.execute("ROLLBACK" if exc_type else "COMMIT")


def insert_rows(
    con: duckdb.DuckDBPyConnection,
    table: str,
    rows: Sequence[Mapping[str, Any]],
    per: int = ROWS_PER_INSERT,
) -> None:
    """Bulk insert of rows keyed by column name: each column bound as one list and
    unnested, `per` rows a statement (DuckDB holds copies of a statement's bound lists
    while it runs, so large values go a few at a time)."""
    if not rows:
        return
    columns = list(rows[0])
    names = ", ".join(columns)
    values = ", ".join(f"unnest(${i + 1})" for i in range(len(columns)))
    sql = f"INSERT INTO {table} ({names}) SELECT {values}"
    for start in range(0, len(rows), per):
        chunk = rows[start : start + per]
        con.execute(sql, [[row[c] for row in chunk] for c in columns])


def field_values(row: DataclassInstance, leave: Collection[str] = ()) -> dict[str, Any]:
    """A dataclass's fields by name, as insert_rows takes a row: the columns are the
    fields' names, so that a field added is stored with no list to keep up by hand
    (`leave`: fields stored another way, or elsewhere)."""
    return {name: getattr(row, name) for name in _field_names(type(row)) if name not in leave}


@functools.cache
def _field_names(cls: type[DataclassInstance]) -> tuple[str, ...]:
    """Once a class, not once a row: a page's figures are inserted by the thousand."""
    return tuple(f.name for f in dataclasses.fields(cls))


def columns_of(cls: type[DataclassInstance]) -> str:
    """A dataclass's fields as a SELECT or INSERT list names them: `a, b, c`."""
    return ", ".join(f.name for f in dataclasses.fields(cls))


def rows_as(cls: type[Row], cursor: duckdb.DuckDBPyConnection) -> list[Row]:
    """The cursor's rows as `cls` (a dataclass), each field taken from the column of its
    name (see rows_from)."""
    columns = [d[0] for d in cursor.description or ()]
    return rows_from(cls, columns, cursor.fetchall())


def rows_from(cls: type[Row], columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[Row]:
    """Rows as `cls` (a dataclass), each field taken from the column of its name, never
    by position. The query's columns are the fields, no more and no fewer: a column
    renamed on one side only is a TypeError naming it, not a value in the wrong field."""
    fields = [f.name for f in dataclasses.fields(cls)]
    missing = [f for f in fields if f not in columns]
    extra = [c for c in columns if c not in fields]
    if missing or extra or len(set(columns)) != len(columns):
        said = [f"no column for field(s) {missing}"] if missing else []
        said += [f"column(s) {extra} match no field"] if extra else []
        said += [] if said else [f"a column named twice in {list(columns)}"]
        raise TypeError(f"{cls.__name__}: {'; '.join(said)}")
    at = [columns.index(name) for name in fields]
    words = _enum_words(cls)
    made = []
    for r in rows:
        values = {name: r[i] for name, i in zip(fields, at, strict=True)}
        for name, word in words.items():
            values[name] = word(values[name])
        made.append(cls(**values))
    return made


@functools.cache
def _enum_words(cls: type) -> dict[str, Callable[[Any], Any]]:
    """For each field of `cls` typed with an enum (alone, or with None or str), what
    turns the word the warehouse stores back into its member. A field that also takes a
    str keeps a word no member has; otherwise such a word is a ValueError."""
    hints = typing.get_type_hints(cls)
    words: dict[str, Callable[[Any], Any]] = {}
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        kinds = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
        enums = [k for k in kinds if isinstance(k, type) and issubclass(k, enum.Enum)]
        if len(enums) == 1:
            words[f.name] = functools.partial(_member, enums[0], str in kinds)
    return words


def _member(kind: type[enum.Enum], other_words: bool, value: Any) -> Any:
    if value is None or isinstance(value, kind):
        return value
    try:
        return kind(value)
    except ValueError:
        if other_words:
            return value
        raise
