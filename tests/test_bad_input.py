"""No input ends in a traceback: each command of the README's table, given what a user
gets wrong, answers with one line and exit 2: in-process through `main(argv)`, and a
few through the real console script, which adds the entry point's own handling."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from support import EVIDENCE, evidence, write_config

from evidence_cli.main import main
from warehouse.db import connect

NO_PLACE = ("EVIDENCE_DB", "EVIDENCE_CONFIG")  # the environment's catalog, not the test's


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
    (["accept", "nope", "p"], "no record 'nope'"),
    (["site", "--out", "{file}"], "is a file"),
    (["site", "--out", "/proc/evidence-site"], "a file of the system"),
    (["gc", "--fetches-before", "soon"], "is not a date"),
    (["gc", "--db", "{missing}"], "no database at"),
    (["reextract", "--db", "{missing}"], "no database at"),
    (["status", "--db", "{missing}"], "no database at"),
    (["status", "--db", "{file}"], "not a DuckDB database"),  # a README given as --db
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
    (["status", "--config", "{nowhere}"], "no such config directory"),
    (["sql", "SELECT 1", "--config", "{nowhere}"], "no such config directory"),
    (["check", "{file}"], "not a record file of the catalog"),
    (["check", "{missing}"], "no such file"),
    (["--config", "{nowhere}", "serve"], "no such config directory"),
    (["no-such-command"], "invalid choice"),
]


def said(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, list[str]]:
    """`evidence ARGV` in this process: its exit status and the lines on stderr."""
    for name in NO_PLACE:
        monkeypatch.delenv(name, raising=False)
    try:
        code = main(argv)
    except SystemExit as e:  # (argparse's own refusals)
        code = e.code if isinstance(e.code, int) else 1
    return code, capsys.readouterr().err.strip().splitlines()


def _argv(args: list[str], place: dict[str, str]) -> list[str]:
    argv = [a.format(**place) for a in args]
    return argv if "--config" in argv else [*argv, "--config", place["config"]]


@pytest.mark.parametrize(("args", "says"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_a_mistake_is_one_line_and_exit_2(
    args: list[str],
    says: str,
    place: dict[str, str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, lines = said(_argv(args, place), capsys, monkeypatch)
    assert code == 2, lines
    assert len(lines) == 1, lines
    assert lines[0].startswith("evidence") and says in lines[0], lines[0]


# through the real console script: an id, a database, a config folder, a command
SCRIPT_IDS = {"show nope", "status --db {missing}", "refresh --config {nowhere}", "no-such-command"}
SCRIPT_CASES = [(a, says) for a, says in CASES if " ".join(a) in SCRIPT_IDS]
assert len(SCRIPT_CASES) == len(SCRIPT_IDS), "a case of SCRIPT_IDS is gone from CASES"


@pytest.mark.slow
@pytest.mark.parametrize(("args", "says"), SCRIPT_CASES, ids=[" ".join(a) for a, _ in SCRIPT_CASES])
def test_a_mistake_is_one_line_through_the_console_script(
    args: list[str], says: str, place: dict[str, str]
) -> None:
    done = evidence(*_argv(args, place), drop=NO_PLACE, timeout=120, script=True)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and lines[0].startswith("evidence") and says in lines[0], lines


FIXTURES = Path(__file__).parent / "fixtures" / "db"
READERS = [
    ["status"],
    ["sources"],
    ["review"],
    ["show", "r"],
    ["alerts"],
    ["sql", "SELECT 1"],
    ["diff", "r"],
    ["site", "--out", "{root}/site"],
    ["export", "--format", "csv", "{root}/out"],
    ["check"],
]


@pytest.mark.parametrize("fixture", ["schema1.duckdb", "schema6.duckdb"])
@pytest.mark.parametrize("args", READERS, ids=[" ".join(a) for a in READERS])
def test_a_database_of_an_earlier_release_is_one_line_for_every_reader(
    args: list[str],
    fixture: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every read command meets one check at its connection: one line naming the fix,
    exit 2, and the file untouched."""
    import hashlib
    import shutil

    db = tmp_path / "old.duckdb"
    shutil.copy(FIXTURES / fixture, db)
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    config = write_config(
        tmp_path,
        "id: r\ntitle: R\nsources: [{id: p, url: 'http://127.0.0.1:9/p', role: primary}]\n",
    )
    argv = [a.format(root=tmp_path) for a in args] + ["--config", str(config), "--db", str(db)]
    code, lines = said(argv, capsys, monkeypatch)
    assert code == 2 and len(lines) == 1, lines
    assert "earlier release" in lines[0] and "evidence refresh" in lines[0], lines[0]
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["sql", "SELECT range AS n FROM range(200000)", "--limit", "0", "--format", "csv"],
        ["status", "--format", "json"],
    ],
)
def test_a_reader_that_goes_away_ends_the_command_quietly(
    args: list[str], place: dict[str, str]
) -> None:
    """`evidence sql ... | head -1`: the pipe closes under the command; it ends at once,
    with no BrokenPipeError traceback (and nothing said at exit either)."""
    proc = subprocess.Popen(
        [str(EVIDENCE), *args, "--db", place["db"], "--config", place["config"]],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(1)
    proc.stdout.close()  # as `head` does once it has its line
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) in (0, 141)
    assert "Traceback" not in err and "BrokenPipe" not in err, err


def test_the_demos_database_is_suggested_only_to_a_catalog_without_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").mkdir()
    connect(tmp_path / "data" / "demo.duckdb").close()
    mine = write_config(tmp_path / "mine", "id: r\ntitle: R\nsources: []\n", "database: m.duckdb\n")
    missing = str(tmp_path / "nowhere" / "x.duckdb")
    code, lines = said(["status", "--config", str(mine), "--db", missing], capsys, monkeypatch)
    assert code == 2 and "no database at" in lines[0] and "the demo's" not in lines[0], lines
    code, lines = said(["status", "--db", missing], capsys, monkeypatch)  # ./config, no db named
    assert code == 2 and "the demo's is data/demo.duckdb" in lines[0], lines
