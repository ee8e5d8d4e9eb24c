"""Each view is one file of warehouse/views/, made after the migrations, which make none."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import duckdb
import pytest

from warehouse.db import connect, migrate, stable_views, views
from warehouse.release import migrations


def made(con: duckdb.DuckDBPyConnection) -> set[str]:
    """Every view and table macro of the database, by the name SQL gives it."""
    rows = con.execute(
        "SELECT schema_name, view_name FROM duckdb_views() WHERE NOT internal "
        "UNION ALL SELECT schema_name, function_name FROM duckdb_functions() "
        "WHERE function_type = 'table_macro' AND NOT internal"
    ).fetchall()
    return {name if schema == "main" else f"{schema}.{name}" for schema, name in rows}


def test_every_view_of_the_folder_is_made_on_a_fresh_database() -> None:
    con = duckdb.connect()
    migrate(con)
    names = [v.name for v in views()]
    assert made(con) == set(names)
    assert len(set(names)) == len(names)
    for view in views():  # each reads what it should, and nothing it reads is missing
        if view.kind == "VIEW":
            con.execute(f"SELECT * FROM {view.name} LIMIT 0")  # noqa: S608 (our names)
    assert stable_views() == [n for n in names if not n.startswith("store.")]


def test_no_migration_makes_a_view() -> None:
    for version, name, sql in migrations():
        assert not re.search(r"\bCREATE\s+(OR\s+REPLACE\s+)?VIEW\b", sql, re.I), (version, name)
        assert not re.search(r"\bAS\s+TABLE\b", sql, re.I), (version, name)  # table macros


def test_each_file_makes_the_view_it_is_named_for() -> None:
    folder = resources.files("warehouse.views")
    files = sorted(e.name for e in folder.iterdir() if e.name.endswith(".sql"))
    numbers = [f.split("_", 1)[0] for f in files]
    assert len(set(numbers)) == len(numbers), "two views of one number: which is made first?"
    assert [f.split("_", 1)[1].removesuffix(".sql") for f in files] == [v.name for v in views()]
    for view in views():
        code = re.sub(r"--[^\n]*", "", view.sql)  # (comments say `;` too)
        statements = [s for s in code.split(";") if s.strip()]
        assert len(statements) == 1, f"{view.name}: one statement a file"


def test_views_are_made_again_when_their_text_has_changed(tmp_path: Path) -> None:
    """A database whose views were made from other text (another release's files, or the
    migrations before there were files) gets them made again by its next writer."""
    db = tmp_path / "w.duckdb"
    connect(db).close()
    con = duckdb.connect(str(db))
    con.execute("DROP VIEW snapshots")
    con.execute("UPDATE store.views_made SET digest = 'older'")
    con.close()
    con = connect(db)
    try:
        assert "snapshots" in made(con)
        assert con.execute("SELECT count(*) FROM store.views_made").fetchone() == (1,)
    finally:
        con.close()

    con = duckdb.connect(str(db))  # as the migrations left it, before views_made existed
    con.execute("DROP TABLE store.views_made")
    con.execute("DROP VIEW source_health")
    con.close()
    con = connect(db)
    try:
        assert made(con) == {v.name for v in views()}
        assert migrate(con) == []  # nothing pending: the views stand as they are
    finally:
        con.close()


def test_a_migration_that_fails_leaves_the_views_and_tables_as_they_were(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import warehouse.db

    con = duckdb.connect()
    migrate(con)
    before = made(con)
    broken = (
        999,
        "999_broken.sql",
        "ALTER TABLE store.records ADD COLUMN x INT; SELECT * FROM nowhere;",
    )
    known = migrations()
    monkeypatch.setattr(warehouse.db, "migrations", lambda: [*known, broken])
    with pytest.raises(duckdb.Error):
        migrate(con)
    assert made(con) == before  # no view dropped
    columns = [r[0] for r in con.execute("DESCRIBE store.records").fetchall()]
    assert "x" not in columns  # the migration's first statement undone too
    con.execute("SELECT * FROM record_status LIMIT 0")  # and it still reads
    assert 999 not in {v for (v,) in con.execute("SELECT version FROM store.migrations").fetchall()}
