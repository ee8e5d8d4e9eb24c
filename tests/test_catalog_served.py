"""A database serves one catalog; a --db that is no database is said in one line.

The refusals come before Prefect starts, so most tests call the command in this
process; the one that refreshes for real (a new database, --prune, the records coming
back) runs `evidence refresh` processes.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import support
from servers import Page, WebServer
from support import write_config

from evidence_cli.main import main
from warehouse import queries, store
from warehouse.db import connect
from warehouse.rows import ClaimRow, RecordRow, SourceRow

NOW = "2026-11-04T06:00:00+00:00"


def record_yaml(record_id: str, url: str = "https://example.org/p") -> str:
    return (
        f"- id: {record_id}\n  title: {record_id}\n"
        f'  sources: [{{id: p, url: "{url}", role: primary}}]\n'
        '  claims: [{id: c, quote: "500 GPU hours"}]\n'
    )


def held_database(db: Path, ids: list[str], config_dir: str) -> None:
    """A database holding records `ids`, stored from config_dir."""
    con = connect(db)
    store.sync_catalog(
        con,
        [RecordRow(i, i, 86400, (), "r.yaml") for i in ids],
        [SourceRow(i, "p", "https://example.org/p", "primary") for i in ids],
        [ClaimRow(i, "c", "500 GPU hours", None, None) for i in ids],
        config_dir,
    )
    con.close()


def held(db: Path) -> tuple[str | None, list[str]]:
    con = connect(db, read_only=True)
    try:
        return queries.served_catalog(con)
    finally:
        con.close()


def refuse(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run `evidence ARGS` here; it must exit 2 with one line on stderr, nothing on stdout."""
    assert main(list(args)) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, err
    return err.strip()


def test_a_catalog_lacking_held_records_stops_naming_them_and_their_catalog(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.duckdb"
    held_database(db, ["alpha", "beta", "gamma"], "/home/me/mine")
    config = write_config(tmp_path, record_yaml("alpha"))
    line = refuse(capsys, "refresh", "--config", str(config), "--db", str(db))
    assert line.startswith(f"evidence: the catalog in {config} lacks 2 records {db} holds")
    assert "(beta, gamma), from /home/me/mine" in line
    assert "--config /home/me/mine" in line and "--prune" in line
    assert held(db) == ("/home/me/mine", ["alpha", "beta", "gamma"])  # nothing changed


def test_an_empty_catalog_is_the_same_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "w.duckdb"
    held_database(db, ["alpha"], "/home/me/mine")
    config = write_config(tmp_path, "")
    line = refuse(capsys, "refresh", "--config", str(config), "--db", str(db))
    assert f"the catalog in {config} has none of the records {db} holds (alpha)" in line
    assert held(db)[1] == ["alpha"]


def test_an_empty_catalog_and_no_database_is_nothing_to_refresh(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, "")
    db = tmp_path / "new.duckdb"
    line = refuse(capsys, "refresh", "--config", str(config), "--db", str(db))
    assert line == f"evidence: no records in {config / 'records'}: nothing to refresh " + (
        "(add a record file, or pass --config DIR)"
    )
    assert not db.exists()


def test_the_catalog_that_left_the_records_is_named_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, record_yaml("alpha"))
    db = tmp_path / "w.duckdb"
    held_database(db, ["alpha", "beta"], str(config.resolve()))
    line = refuse(capsys, "refresh", "--config", str(config), "--db", str(db))
    assert "(beta), from this catalog before they left it" in line


def test_a_directory_as_db_is_one_line_and_leaves_no_lock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, record_yaml("alpha"))
    target = tmp_path / "data"
    target.mkdir()
    line = refuse(capsys, "refresh", "--config", str(config), "--db", str(target))
    assert line.startswith(f"evidence: config error: {target}: the database must be a regular file")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config", "data"]  # no data.lock


def test_a_file_that_is_not_duckdb_is_one_line_and_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, record_yaml("alpha"))
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes, not a database\n")
    line = refuse(capsys, "refresh", "--config", str(config), "--db", str(notes))
    assert line == f"evidence: {notes} is not a DuckDB database: give another --db PATH"
    assert notes.read_text() == "my notes, not a database\n"
    assert not (tmp_path / "notes.txt.lock").exists()


@pytest.mark.parametrize("how", ["flag", "env"])
def test_a_missing_directory_of_db_is_an_error_not_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    config = write_config(tmp_path, record_yaml("alpha"))
    db = tmp_path / "dta" / "evidence.duckdb"  # a typo of data/
    args = ["refresh", "--config", str(config)]
    if how == "flag":
        args += ["--db", str(db)]
    else:
        monkeypatch.setenv("EVIDENCE_DB", str(db))
    line = refuse(capsys, *args)
    assert line == f"evidence: no directory {db.parent} for the database {db}: make it first"
    assert not db.parent.exists()


def evidence(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {"EVIDENCE_NOW": NOW, "PYTHONPATH": str(Path.cwd())}
    return support.evidence(*args, env=env, cwd=cwd)


@pytest.mark.slow
def test_prune_takes_records_out_and_they_come_back_with_their_history(
    tmp_path: Path, web: WebServer
) -> None:
    web.routes["/p"] = Page("<html><main><p>We give 500 GPU hours a month.</p></main></html>")
    url = web.url("/p")
    mine = write_config(tmp_path / "mine", record_yaml("alpha", url) + record_yaml("beta", url))
    other = write_config(tmp_path / "other", record_yaml("alpha", url))
    db = tmp_path / "w.duckdb"

    first = evidence("refresh", "--config", str(mine), "--db", str(db), cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    said = first.stderr.splitlines()
    assert said[1] == f"evidence: creating a new database at {db}"  # after where it goes
    assert said[0] == f"evidence: Prefect API at {os.environ['PREFECT_API_URL']}"  # the session's
    assert held(db) == (str(mine.resolve()), ["alpha", "beta"])

    refused = evidence("refresh", "--config", str(other), "--db", str(db), cwd=tmp_path)
    assert refused.returncode == 2 and "(beta)" in refused.stderr, refused.stderr
    assert "Traceback" not in refused.stderr

    pruned = evidence("refresh", "--prune", "--config", str(other), "--db", str(db), cwd=tmp_path)
    assert pruned.returncode == 0, pruned.stderr
    assert "creating a new database" not in pruned.stderr
    assert held(db) == (str(other.resolve()), ["alpha"])
    con = connect(db, read_only=True)
    try:
        in_views = con.execute("SELECT record_id FROM record_status").fetchall()
        kept = con.execute("SELECT count(*) FROM store.fetches WHERE record_id = 'beta'").fetchone()
    finally:
        con.close()
    assert in_views == [("alpha",)] and kept == (1,)  # beta's history stays

    back = evidence("refresh", "--config", str(mine), "--db", str(db), cwd=tmp_path)
    assert back.returncode == 0, back.stderr
    con = connect(db, read_only=True)
    try:
        fetched = con.execute("SELECT count(*) FROM fetches WHERE record_id = 'beta'").fetchone()
        grade = con.execute("SELECT grade FROM record_status WHERE record_id = 'beta'").fetchone()
    finally:
        con.close()
    assert fetched == (2,) and grade == ("documented",)


def test_the_docs_show_the_line_as_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = Path(__file__).resolve().parent.parent
    docs = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    text = "\n".join(path.read_text(encoding="utf-8") for path in docs)
    (shown,) = [line for line in text.splitlines() if line.startswith("evidence: the catalog")]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    held_database(Path("data/evidence.duckdb"), ["research-credits"], "/home/me/mine")
    write_config(tmp_path, record_yaml("icml-2026-repro-credits"))
    assert refuse(capsys, "refresh", "--db", "data/evidence.duckdb") == shown


@pytest.mark.slow
def test_a_deployed_run_of_a_catalog_lacking_held_records_stops_before_it_fetches(
    prefect_harness: None, tmp_path: Path, web: WebServer
) -> None:
    """A run a deployment starts (serve, a work pool) goes straight to the flow: the flow
    checks what the command line checks, and writes nothing."""
    from flows.refresh import refresh_flow

    web.routes["/p"] = Page("<html><main><p>We give 500 GPU hours a month.</p></main></html>")
    db = tmp_path / "w.duckdb"
    held_database(db, ["alpha", "beta"], "/home/me/mine")
    config = write_config(tmp_path, record_yaml("alpha", web.url("/p")))
    state = refresh_flow(str(config), str(db), None, return_state=True)
    assert state.is_failed()
    assert "lacks 1 record" in str(state.message) and "(beta)" in str(state.message)
    assert web.hits["/p"] == 0  # nothing fetched
    assert held(db) == ("/home/me/mine", ["alpha", "beta"])
    pruned = refresh_flow(str(config), str(db), None, prune=True, return_state=True)
    assert pruned.is_completed(), pruned.message
    assert held(db) == (str(config.resolve()), ["alpha"])
