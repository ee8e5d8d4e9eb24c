"""What people take away: the stable views as files (DuckDB's own COPY) with the
Frictionless Data Package fields that describe them, and the kept raw pages with what
each backs, for a WARC file."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb

from evidence_base.errors import WarehouseError, first_line
from evidence_base.outputs import file_in, replacing
from warehouse.bodies import decompress
from warehouse.db import stable_views

FORMATS = {
    # format: (COPY options, file suffix, media type)
    "parquet": ("FORMAT parquet", "parquet", "application/vnd.apache.parquet"),
    "csv": ("FORMAT csv, HEADER true", "csv", "text/csv"),
    "json": ("FORMAT json, ARRAY true", "json", "application/json"),
}
# DuckDB's types as Frictionless Table Schema names them.
_TYPES = {
    "VARCHAR": "string",
    "BOOLEAN": "boolean",
    "TINYINT": "integer",
    "SMALLINT": "integer",
    "INTEGER": "integer",
    "BIGINT": "integer",
    "HUGEINT": "integer",
    "DOUBLE": "number",
    "FLOAT": "number",
    "DATE": "date",
    "TIMESTAMP WITH TIME ZONE": "datetime",
    "TIMESTAMP": "datetime",
}


def _fields(con: duckdb.DuckDBPyConnection, view: str) -> list[tuple[str, str]]:
    rows = con.execute(
        "SELECT column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = 'main' AND table_name = ? ORDER BY ordinal_position",
        [view],
    ).fetchall()
    return [(str(name), str(kind)) for name, kind in rows]


def _frictionless(kind: str) -> str:
    if kind.endswith("[]"):
        return "array"
    if kind.startswith(("STRUCT", "MAP")):
        return "object"
    if kind.startswith("DECIMAL"):
        return "number"
    return _TYPES.get(kind, "any")


def export_views(con: duckdb.DuckDBPyConnection, out: Path, fmt: str) -> list[dict[str, Any]]:
    """Each stable view the database has, as `out/<view>.<suffix>`; the Data Package
    resources that describe them. In CSV, lists and structs are written as JSON."""
    options, suffix, media = FORMATS[fmt]
    resources = []
    for view in stable_views():
        fields = _fields(con, view)
        if not fields:
            continue  # a database older than the view
        columns = ", ".join(_column(fmt, name, kind) for name, kind in fields)
        nullable = _with_nulls(con, view, fields) if fmt == "parquet" else set()
        path = file_in(out, f"{view}.{suffix}")
        # the names are this module's and the catalog's columns, the path the user's
        with replacing(path) as partial:
            try:
                con.execute(
                    f"COPY (SELECT {columns} FROM {view}) "  # noqa: S608
                    f"TO '{_quoted(partial)}' ({options})"
                )
            except duckdb.Error as e:
                raise WarehouseError(f"cannot write {path}: {first_line(e)}") from e
        resources.append(
            {
                "name": view.replace("_", "-"),
                "path": path.name,
                "format": suffix,
                "mediatype": media,
                "schema": {
                    "fields": [_field(fmt, name, kind, name in nullable) for name, kind in fields]
                },
            }
        )
    return resources


# A text cell a spreadsheet would run as a formula (OWASP's starts) is written as text.
_FORMULA_SAFE = (
    "CASE WHEN left({c}, 1) IN ('=', '+', '-', '@', chr(9), chr(13)) THEN '''' || {c} ELSE {c} END"
)


def _column(fmt: str, name: str, kind: str) -> str:
    """A view's column as the export writes it: in CSV, lists and structs as JSON and
    text made safe for spreadsheets."""
    quoted = f'"{name}"'
    if fmt == "csv" and _frictionless(kind) in ("array", "object"):
        return f"to_json({quoted}) AS {quoted}"
    if fmt == "csv" and kind == "VARCHAR":
        return f"{_FORMULA_SAFE.format(c=quoted)} AS {quoted}"
    return quoted


def _with_nulls(
    con: duckdb.DuckDBPyConnection, view: str, fields: list[tuple[str, str]]
) -> set[str]:
    """The integer columns of a view that hold a null."""
    ints = [name for name, kind in fields if _frictionless(kind) == "integer"]
    if not ints:
        return set()
    counts = ", ".join(f'count(*) FILTER (WHERE "{n}" IS NULL)' for n in ints)
    row = con.execute(f"SELECT {counts} FROM {view}").fetchone() or ()  # noqa: S608
    return {n for n, nulls in zip(ints, row, strict=True) if nulls}


def _field(fmt: str, name: str, kind: str, nullable: bool) -> dict[str, str]:
    """A column as a Table Schema field. Parquet is read by Frictionless through pandas:
    a list arrives as an array object that no Table Schema type but `any` takes, and an
    integer column with nulls as floats with NaN, which `number` takes."""
    field = {"name": name, "type": _frictionless(kind)} | _format(fmt, kind)
    if fmt == "parquet" and field["type"] in ("array", "object"):
        field |= {"type": "any", "description": f"a Parquet {kind} column"}
    elif fmt == "parquet" and field["type"] == "integer" and nullable:
        field |= {"type": "number", "description": "whole numbers, or null"}
    return field


def _format(fmt: str, kind: str) -> dict[str, str]:
    """A field's Table Schema format where the file writes it otherwise than the default:
    DuckDB writes times as "2026-12-01 06:00:00+00" in text; CSV holds lists as JSON."""
    if fmt == "parquet":
        return {}
    if _frictionless(kind) in ("datetime", "date"):
        return {"format": "any"}
    if fmt == "csv" and _frictionless(kind) in ("array", "object"):
        return {"format": "json"}
    return {}


def _quoted(path: Path) -> str:
    return str(path).replace("'", "''")


@dataclass(frozen=True, slots=True)
class KeptPage:
    """A raw page as it was fetched, and what it backs."""

    snapshot_id: int
    record_id: str
    source_id: str
    role: str
    url: str
    fetched_at: datetime
    http_status: int | None
    content_type: str | None
    encoding: str | None  # the charset the page was read in
    etag: str | None
    last_modified: str | None
    render: str
    body: bytes
    claims: list[dict[str, Any]]  # claim_id, quote, outcome checked on this page


def kept_pages(con: duckdb.DuckDBPyConnection, record_id: str | None = None) -> list[KeptPage]:
    """Every snapshot whose raw page is kept (of one record), in fetch order."""
    rows = con.execute(
        """
        SELECT s.snapshot_id, s.record_id, s.source_id, coalesce(src.role, ''), s.url,
               s.fetched_at, f.http_status, p.content_type, p.encoding, f.etag,
               f.last_modified,
               coalesce(s.render, 'http'), b.body,
               (SELECT list({'claim_id': k.claim_id, 'quote': k.quote, 'outcome': k.outcome}
                            ORDER BY k.claim_id)
                FROM store.checks k WHERE k.snapshot_id = s.snapshot_id)
        FROM store.snapshots s
        JOIN store.pages p USING (content_hash)
        JOIN store.bodies b USING (content_hash)
        LEFT JOIN store.sources src USING (record_id, source_id)
        LEFT JOIN (
            SELECT snapshot_id, arg_min(http_status, fetch_id) AS http_status,
                   arg_min(etag, fetch_id) AS etag,
                   arg_min(last_modified, fetch_id) AS last_modified
            FROM store.fetches WHERE snapshot_id IS NOT NULL GROUP BY snapshot_id
        ) f USING (snapshot_id)
        WHERE s.via = 'live' AND ($record IS NULL OR s.record_id = $record)
        ORDER BY s.fetched_at, s.snapshot_id
        """,
        {"record": record_id},
    ).fetchall()
    pages = []
    for (sid, rid, src, role, url, at, status, ctype, charset, etag, modified, render, body,
         claims) in rows:  # fmt: skip
        pages.append(
            KeptPage(
                snapshot_id=sid,
                record_id=rid,
                source_id=src,
                role=role,
                url=url,
                fetched_at=at,
                http_status=status,
                content_type=ctype,
                encoding=charset,
                etag=etag,
                last_modified=modified,
                render=render,
                body=decompress(bytes(body)),
                claims=list(claims or []),
            )
        )
    return pages
