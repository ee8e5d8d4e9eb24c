"""The catalog-as-code workflow runs `check` and `plan` on a pull request's files: its
settings.yaml may name any database, its records/ may hold links and odd names. Every
reader is locked down (no files, no extensions); a database that fails is one line; a
record file linked from outside the catalog is refused; names are printed inert."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from support import write_config

from evidence_cli.main import main
from warehouse.db import connect

SECRET = "the-local-secret-7d1c"


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "secret.txt"
    path.write_text(SECRET)
    return path


def _crafted(tmp_path: Path, secret: Path) -> Path:
    """A database of our schema whose store.fetches is a view that reads a local file."""
    db = tmp_path / "crafted.duckdb"
    connect(db).close()  # migrated, then altered as an attacker would
    con = duckdb.connect(str(db))
    try:
        con.execute("DROP TABLE store.fetches CASCADE")
        con.execute(
            "CREATE VIEW store.fetches AS SELECT content::BIGINT AS fetch_id "  # noqa: S608
            f"FROM read_text('{secret}')"
        )
    finally:
        con.close()
    return db


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_check_on_a_crafted_database_reads_no_file_and_says_one_line(
    tmp_path: Path, secret: Path, fmt: str
) -> None:
    db = _crafted(tmp_path, secret)
    config = write_config(
        tmp_path,
        "id: r\ntitle: R\nsources: [{id: s, url: 'https://example.org/', role: primary}]\n"
        "claims: [{id: c, quote: 40 seats}]\n",
        f"database: {db}\n",
    )
    done = subprocess.run(
        [sys.executable, "-m", "evidence_cli", "check", "--format", fmt, "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    said = done.stdout + done.stderr
    assert SECRET not in said and "Traceback" not in said
    assert done.returncode != 0
    assert done.stderr.strip().count("\n") == 0  # one line


def test_a_reader_may_not_reach_files_or_change_its_settings(tmp_path: Path, secret: Path) -> None:
    db = tmp_path / "w.duckdb"
    connect(db).close()
    con = connect(db, read_only=True)
    try:
        with pytest.raises(duckdb.Error):
            con.execute("SELECT * FROM read_text(?)", [str(secret)]).fetchall()
        with pytest.raises(duckdb.Error):
            con.execute("SET enable_external_access = true")
        with pytest.raises(duckdb.Error):
            con.execute("INSTALL httpfs")
    finally:
        con.close()


@pytest.mark.slow  # plan asks git
def test_a_record_file_linked_from_outside_the_catalog_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(
        "id: stolen\ntitle: From elsewhere\n"
        "sources: [{id: s, url: 'https://example.org/', role: primary}]\n"
    )
    config = write_config(
        tmp_path,
        "id: r\ntitle: R\nsources: [{id: s, url: 'https://example.org/', role: primary}]\n",
    )
    (config / "records" / "linked.yaml").symlink_to(outside)
    assert main(["check", "--config", str(config)]) == 2
    said = capsys.readouterr()
    out = said.out + said.err
    assert "linked.yaml" in out and "outside the catalog" in out and "stolen" not in out
    assert main(["plan", "--config", str(config)]) != 0
    assert "From elsewhere" not in capsys.readouterr().out


def test_a_file_name_with_a_line_break_prints_as_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path, "id: r\ntitle: R\n")
    bad = config / "records" / "x\n::error::forged.yaml"
    bad.write_text("id: q\ntitle: Q\nsources: []\nclaims: [{id: c}]\n")  # an error in it
    for fmt in ("text", "json"):
        assert main(["check", "--format", fmt, "--config", str(config)]) == 2
        out = capsys.readouterr().out
        assert not any(line.startswith("::error::") for line in out.splitlines()), out
