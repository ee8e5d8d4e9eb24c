"""CSV written for spreadsheets: a text cell starting with = + - @ (or tab, CR) is
written as text, prefixed with `'` as OWASP describes; numbers stay numbers."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from evidence_cli.main import main
from warehouse.db import connect

FORMULAS = ['=HYPERLINK("http://x")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\t=1", "\r=1"]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "w.duckdb"
    connect(path).close()
    return path


def sql_csv(db: Path, query: str, capsys: pytest.CaptureFixture[str]) -> list[list[str]]:
    code = main(["sql", query, "--format", "csv", "--db", str(db)])
    out = capsys.readouterr()
    assert code == 0, out.err
    return list(csv.reader(io.StringIO(out.out, newline="")))


@pytest.mark.parametrize("formula", FORMULAS)
def test_sql_csv_writes_a_formula_as_text(
    db: Path, formula: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = sql_csv(db, "SELECT ? AS cell".replace("?", _literal(formula)), capsys)
    assert rows[1] == ["'" + formula]


def test_sql_csv_keeps_plain_text_and_negative_numbers(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = sql_csv(db, "SELECT 'a=b' AS t, -5 AS n, -2.5 AS d", capsys)
    assert rows[1] == ["a=b", "-5", "-2.5"]


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def test_csv_export_writes_a_page_sentence_starting_with_a_formula_as_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from store_support import T0, Warehouse

    w = Warehouse(tmp_path / "w.duckdb")
    w.catalog({"c": None}, ["p"])
    w.fetch("p", T0, body='=HYPERLINK("http://evil","x")')
    w.con.execute("UPDATE store.records SET title = '@SUM(1+1)'")
    w.grade(T0)
    w.con.close()
    out = tmp_path / "out"
    code = main(["export", "--format", "csv", str(out), "--db", str(tmp_path / "w.duckdb")])
    assert code == 0, capsys.readouterr().err
    snapshots = list(csv.DictReader((out / "snapshots.csv").open(newline="")))
    assert [s["text"] for s in snapshots] == ['\'=HYPERLINK("http://evil","x")']
    records = list(csv.DictReader((out / "record_status.csv").open(newline="")))
    assert records[0]["title"] == "'@SUM(1+1)"
    assert records[0]["record_id"] == "r"
