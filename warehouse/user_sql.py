"""A user's own query (`evidence sql`), on a connection that may only read the warehouse:
one statement, no files, no ATTACH, no settings changes, its rows streamed a batch at a
time, any failure a QueryError of one line."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import duckdb

from evidence_base.errors import QueryError, first_line
from warehouse.db import sql_file

SQL_BATCH = 1000  # rows fetched from DuckDB at a time by `evidence sql`


class UserRows:
    """The rows of a user's query, fetched a batch at a time as they are read, up to
    `limit` of them (None: all); `cut` says, once read, that more rows were left."""

    def __init__(
        self, cursor: duckdb.DuckDBPyConnection, columns: list[str], limit: int | None
    ) -> None:
        self.columns = columns
        self.cut = False
        self._cursor = cursor
        self._limit = limit

    def batches(self) -> Iterator[list[tuple[Any, ...]]]:
        if not self.columns:  # a statement with no result
            return
        left = self._limit
        while left is None or left > 0:
            size = SQL_BATCH if left is None else min(SQL_BATCH, left)
            rows = self._fetch(size)
            if not rows:
                return
            if left is not None:
                left -= len(rows)
            yield rows
        self.cut = bool(self._fetch(1))

    def _fetch(self, size: int) -> list[tuple[Any, ...]]:
        try:
            return self._cursor.fetchmany(size)
        except duckdb.Error as e:
            raise QueryError(f"sql error: {first_line(e)}") from None


def stream_user_query(
    con: duckdb.DuckDBPyConnection, query: str, limit: int | None = None
) -> UserRows:
    """A user's query, as typed, on a connection that may only read the warehouse, its
    rows streamed: one statement, no files, no ATTACH, no settings changed; a failure is a
    QueryError of one line."""
    cursor = _start_user_query(con, query)
    columns = [d[0] for d in cursor.description or ()]
    return UserRows(cursor, columns, limit)


def _start_user_query(con: duckdb.DuckDBPyConnection, query: str) -> duckdb.DuckDBPyConnection:
    try:
        statements = con.extract_statements(query)
    except duckdb.Error as e:
        raise QueryError(f"sql error: {first_line(e)}") from None
    if not statements:
        raise QueryError('no SQL statement to run: give one, e.g. evidence sql "SELECT 1"')
    if len(statements) > 1:
        raise QueryError(f"evidence sql runs one statement at a time; this holds {len(statements)}")
    try:
        locked = con.execute(sql_file("configuration_locked.sql")).fetchone()
        if not (locked and locked[0]):  # a reader is locked down already (warehouse/db.py)
            con.execute(sql_file("lock_down.sql"))
        return con.execute(query)
    except duckdb.Error as e:
        message = first_line(e)
        if "read-only" in message or "read only" in message:
            message += " (evidence sql is read-only)"
        raise QueryError(f"sql error: {message}") from None
