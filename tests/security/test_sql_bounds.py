"""`evidence sql` streams its rows, stops at --limit with a note, and writes nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from evidence_cli.commands.reading import SQL_LIMIT
from evidence_cli.main import main
from warehouse.db import connect


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "w.duckdb"
    connect(path).close()
    return path


def sql(db: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["sql", *argv, "--db", str(db)])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_sql_stops_at_the_limit_and_says_so(
    db: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    code, out, err = sql(
        db, capsys, "SELECT range AS n FROM range(25)", "--limit", "10", "--format", fmt
    )
    assert code == 0
    if fmt == "json":
        assert [r["n"] for r in json.loads(out)] == list(range(10))
    else:
        assert out.splitlines()[-1].strip() == "9"
        assert len(out.splitlines()) == 10 + (2 if fmt == "table" else 1)
    assert "showing the first 10 rows" in err and err.count("\n") == 1


def test_sql_cuts_at_ten_thousand_rows_by_default(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = sql(db, capsys, "SELECT range AS n FROM range(20000)", "--format", "csv")
    assert code == 0 and SQL_LIMIT == 10_000
    assert len(out.splitlines()) == SQL_LIMIT + 1
    assert "showing the first 10,000 rows" in err


def test_sql_says_nothing_when_every_row_fits(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = sql(db, capsys, "SELECT range AS n FROM range(10)", "--limit", "10")
    assert code == 0 and err == ""
    assert len(out.splitlines()) == 12


def test_limit_zero_prints_every_row(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = sql(
        db, capsys, "SELECT range FROM range(12345)", "--limit", "0", "--format", "csv"
    )
    assert code == 0 and err == ""
    assert len(out.splitlines()) == 12346


def test_a_bad_limit_is_one_line(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["sql", "SELECT 1", "--limit", "-3", "--db", str(db)])
    assert e.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_sql_spills_to_a_folder_of_its_own_never_beside_the_database(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DuckDB spills into `<db>.tmp/` when it exists: a reader's spills go to a private
    temporary folder of its process instead, within the memory limit of the settings."""
    (db.parent / (db.name + ".tmp")).mkdir()
    code, out, err = sql(
        db,
        capsys,
        "SELECT current_setting('temp_directory') AS t, current_setting('memory_limit') AS m",
        "--format",
        "json",
    )
    assert code == 0, err
    (row,) = json.loads(out)
    assert row["t"] and not Path(row["t"]).is_relative_to(db.parent)
    assert Path(row["t"]).name.startswith("evidence-spill-")
    assert row["m"].endswith("GiB") or row["m"].endswith("MiB")
    assert not list((db.parent / (db.name + ".tmp")).iterdir())


@pytest.mark.slow
def test_a_large_group_by_stays_within_the_memory_limit(db: Path, tmp_path: Path) -> None:
    """A GROUP BY of thirty million groups: once past 4 GB, now within the limit the
    settings give readers (it spills, and answers)."""
    config = tmp_path / "limited"
    config.mkdir()
    (config / "settings.yaml").write_text(f"database: {db}\nmemory_limit: 300MB\n")
    evidence = Path(sys.executable).parent / "evidence"
    query = (
        "SELECT i % 30000000 AS k, count(*) AS n FROM range(60000000) t(i) "
        "GROUP BY k ORDER BY n DESC"
    )
    peak_kb = subprocess.run(
        [sys.executable, "-c", PEAK, str(evidence), "sql", query, "--limit", "1",
         "--config", str(config)],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout  # fmt: skip
    assert int(peak_kb) / 1024 < 800, f"{int(peak_kb) / 1024:.0f} MB"


def test_sql_of_a_statement_without_rows_prints_no_rows(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = sql(db, capsys, "SELECT 1 WHERE false", "--format", "json")
    assert code == 0 and json.loads(out) == []


PEAK = """\
import resource, subprocess, sys
out = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
assert out.returncode == 0, out.stderr
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["table", "json"])
def test_sql_memory_follows_a_batch_not_the_result(db: Path, fmt: str) -> None:
    """Half a million rows printed whole (--limit 0) in the memory of a few batches."""
    evidence = Path(sys.executable).parent / "evidence"
    query = "SELECT range AS n, 'sentence number ' || range AS text FROM range(500000)"
    peak_kb = subprocess.run(
        [
            sys.executable,
            "-c",
            PEAK,
            str(evidence),
            "sql",
            query,
            "--limit",
            "0",
            "--format",
            fmt,
            "--db",
            str(db),
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout
    assert int(peak_kb) / 1024 < 200, f"{int(peak_kb) / 1024:.0f} MB"
