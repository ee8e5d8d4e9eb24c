"""Connections and migrations: the only door into the DuckDB file."""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import duckdb

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

from warehouse.errors import WarehouseBusy, WarehouseError, WarehouseMissing, first_line

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


def sql_file(name: str) -> str:
    """The text of warehouse/sql/<name>."""
    return resources.files("warehouse.sql").joinpath(name).read_text(encoding="utf-8")


def migrations() -> list[tuple[int, str, str]]:
    """(version, name, sql) of every numbered migration, in order."""
    out = []
    for entry in resources.files("warehouse.migrations").iterdir():
        m = re.match(r"^(\d+)_(\w+)\.sql$", entry.name)
        if m:
            out.append((int(m[1]), m[2], entry.read_text(encoding="utf-8")))
    return sorted(out)


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
) -> duckdb.DuckDBPyConnection:
    """Open the database; a writer also applies pending migrations.

    Both wait up to `wait_s` (default READ_WAIT_S) for another process's write
    lock, then raise WarehouseBusy. A writer's checkpoints do not merge row groups
    (see NO_VACUUM).
    """
    path = Path(path)
    if read_only and not path.exists():
        raise WarehouseMissing(f"no database at {path}: run `evidence refresh` first")
    if not read_only:
        path.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + (READ_WAIT_S if wait_s is None else wait_s)
    # A reader writes nothing anywhere: no temporary files beside the database (DuckDB
    # would spill into `<db>.tmp/` even with external access off); it works in memory.
    config: dict[str, str | bool | int | float | list[str]] = (
        {"temp_directory": ""} if read_only else {}
    )
    while True:
        try:
            con = duckdb.connect(str(path), read_only=read_only, config=config)
            break
        except duckdb.Error as e:
            if not any(w in str(e) for w in _LOCK_WORDS):
                raise WarehouseError(f"cannot open database {path}: {first_line(e)}") from e
            if time.monotonic() >= deadline:
                raise WarehouseBusy(
                    f"a refresh is writing to {path}; try again when it finishes"
                ) from e
            time.sleep(0.1)
    con.execute("SET TimeZone = 'UTC'")
    if now is not None:
        set_now(con, now)
    if not read_only:
        con.execute(NO_VACUUM)
        con.execute(CHECKPOINT_AT_CLOSE)
        migrate(con)
    return con


@contextmanager
def session(
    path: str | Path,
    *,
    read_only: bool = False,
    now: datetime | None = None,
    wait_s: float | None = None,
) -> Iterator[duckdb.DuckDBPyConnection]:
    """A connection closed on exit (a writer holds the lock only this long)."""
    con = connect(path, read_only=read_only, now=now, wait_s=wait_s)
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
    """Apply every migration not yet recorded, each in its own transaction."""
    con.execute("CREATE SCHEMA IF NOT EXISTS store")
    con.execute(
        "CREATE TABLE IF NOT EXISTS store.migrations "
        "(version INTEGER PRIMARY KEY, name VARCHAR, applied_at TIMESTAMPTZ DEFAULT now())"
    )
    done = {v for (v,) in con.execute("SELECT version FROM store.migrations").fetchall()}
    applied = []
    for version, name, sql in migrations():
        if version in done:
            continue
        con.execute("BEGIN")
        try:
            con.execute(sql)
            con.execute(
                "INSERT INTO store.migrations (version, name) VALUES (?, ?)", [version, name]
            )
            con.execute("COMMIT")
        except duckdb.Error:
            con.execute("ROLLBACK")
            raise
        applied.append(version)
    return applied


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


def rows_as(cls: type[Row], cursor: duckdb.DuckDBPyConnection) -> list[Row]:
    """The cursor's rows as `cls` (a dataclass), each field taken by column name."""
    columns = [d[0] for d in cursor.description or ()]
    fields = [f.name for f in dataclasses.fields(cls)]
    missing = set(fields) - set(columns)
    if missing:
        raise ValueError(f"{cls.__name__}: the query has no column {sorted(missing)}")
    at = [columns.index(name) for name in fields]
    return [
        cls(**{name: r[i] for name, i in zip(fields, at, strict=True)}) for r in cursor.fetchall()
    ]
