"""No input ends in a traceback: each command of the README's table, given what a user
gets wrong, answers through the real console script with one line and exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import write_config

from warehouse.db import connect

EVIDENCE = Path(sys.executable).with_name("evidence")  # the console script itself


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("bad")
    db = root / "w.duckdb"
    connect(db).close()  # an empty warehouse, migrated
    config = write_config(
        root,
        "id: r\ntitle: R\nsources: [{id: p, url: 'http://127.0.0.1:9/p', role: primary}]\n",
        f"database: {db}\n",
    )
    (root / "a-file").write_text("not a directory\n")
    return {
        "db": str(db),
        "config": str(config),
        "file": str(root / "a-file"),
        "missing": str(root / "missing.duckdb"),
        "nowhere": str(root / "no-config"),
    }


CASES = [
    (["sql", ""], "no SQL statement"),
    (["sql", "   "], "no SQL statement"),
    (["sql", "-- a comment only"], "no SQL statement"),
    (["sql", "SELECT 1; SELECT 2"], "one statement at a time"),
    (["sql", "SELEC 1"], "sql error"),
    (["sql", "CREATE TABLE t (x INTEGER)"], "read-only"),
    (["sql", "SELECT 1", "--format", "xml"], "invalid choice"),
    (["show", "nope"], "no record 'nope'"),
    (["diff", "nope"], "no record 'nope'"),
    (["diff", "r", "--from", "2026-12-02", "--to", "2026-12-01"], "is after --to"),
    (["diff", "r", "--from", "yesterday"], "is not a date"),
    (["accept", "nope", "p"], "nothing of nope/p"),
    (["site", "--out", "{file}"], "is a file"),
    (["site", "--out", "/proc/evidence-site"], "a file of the system"),
    (["gc", "--fetches-before", "soon"], "is not a date"),
    (["gc", "--db", "{missing}"], "no database at"),
    (["reextract", "--db", "{missing}"], "no database at"),
    (["status", "--db", "{missing}"], "no database at"),
    (["--db", "{missing}", "status"], "no database at"),  # the flag before the command
    (["status", "--format", "xml"], "invalid choice"),
    (["sources", "--format", "yaml"], "invalid choice"),
    (["alerts", "--kind", "nope"], "invalid choice"),
    (["alerts", "--since", "junk"], "is not a date"),
    (["server", "restart"], "invalid choice"),
    (["suggest", "ftp://example.org/x"], "only http:// and https://"),
    (["refresh", "--record", "nope"], "no record 'nope'"),
    (["refresh", "--due", "--source", "r/nope"], "no source 'r/nope'"),
    (["export", "--format", "csv", "{file}"], "is a file"),
    (["export", "--warc", "w.warc.gz", "--format", "csv", "d"], "give --warc FILE, or --format"),
    (["refresh", "--config", "{nowhere}"], "no such config directory"),
    (["--config", "{nowhere}", "serve"], "no such config directory"),
    (["no-such-command"], "invalid choice"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("args", "says"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_a_mistake_is_one_line_and_exit_2(
    args: list[str], says: str, place: dict[str, str]
) -> None:
    argv = [a.format(**place) for a in args]
    if "--config" not in argv:
        argv += ["--config", place["config"]]
    env = {k: v for k, v in os.environ.items() if k not in ("EVIDENCE_DB", "EVIDENCE_CONFIG")}
    done = subprocess.run(
        [str(EVIDENCE), *argv], capture_output=True, text=True, timeout=120, env=env
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and len(lines) == 1, done.stderr
    assert lines[0].startswith("evidence") and says in lines[0], lines[0]
