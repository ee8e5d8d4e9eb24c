"""A database is never locked out: databases of earlier releases, files a killed refresh
left half made, and databases of a later release, through the real commands.

The schema policy (warehouse/release.py): readers need the current release; every
command that writes upgrades an earlier release in place (history kept) and finishes a
file whose first migration never committed; a later release's file, or one not ours, is
refused by every command in one line, untouched.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import duckdb
import httpx
import pytest
from servers import Page, WebServer
from support import evidence, read_until, wait_paused

from warehouse.db import connect, peek
from warehouse.release import Release, latest_version

from .conftest import start_refresh, write_catalog

pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "db"
NOW = datetime(2026, 12, 5, 6, tzinfo=UTC)
FILLER = "The committee reads every report and runs the code from a clean checkout. " * 4


@dataclass(frozen=True)
class Fixture:
    """A database a release wrote, and a catalog of the records it holds."""

    name: str
    schema: int
    record: str
    source: str
    records: str  # the record file, `{url}` for the page's address

    def copy_to(self, root: Path, web: WebServer) -> tuple[Path, Path]:
        """The database copied into root and its catalog beside it; (config, db)."""
        db = root / f"{self.name}.duckdb"
        shutil.copy(FIXTURES / f"{self.name}.duckdb", db)
        config = root / "config"
        (config / "records").mkdir(parents=True, exist_ok=True)
        (config / "settings.yaml").write_text(f"database: {db}\nfetch: {{retries: 0}}\n")
        (config / "records" / "r.yaml").write_text(self.records.format(url=web.url("/p")))
        return config, db


PAGE = (
    "<html><head><title>Credits</title></head><body><main><article><h1>Credits</h1>"
    "<p>Teams get $2,500 in credits for the best runs of the challenge.</p>"
    "<p>There are 300 seats. Applications are open for the 2027 round.</p>"
    f"<p>{FILLER}</p></article></main></body></html>"
)
SCHEMA1 = Fixture(
    "schema1",
    1,
    "legacy",
    "official",
    "id: legacy\ntitle: A record from 0.1.0\n"
    "sources: [{{id: official, url: '{url}', role: primary}}]\n"
    "claims: [{{id: seats, quote: '300 seats'}}]\n",
)
SCHEMA6 = Fixture(
    "schema6",
    6,
    "r",
    "p",
    "id: r\ntitle: R\nsources: [{{id: p, url: '{url}', role: primary}}]\n"
    "claims: [{{id: c, quote: 'Teams get $2,000 in credits'}}]\n",
)
SCHEMA19 = Fixture(
    "schema19",
    19,
    "r",
    "own",
    "id: r\ntitle: R\nsources:\n"
    "  - {{id: own, url: '{url}', role: primary}}\n"
    "claims:\n"
    "  - {{id: c, quote: 'Teams get $2,000 in credits'}}\n"
    "  - {{id: apply, quote: 'Applications are open for the 2027 round', status: open}}\n",
)
EARLIER = [SCHEMA1, SCHEMA6]
# What a writer must keep: every row of the history (gc without --fetches-before drops none).
HISTORY = ("store.fetches", "store.snapshots", "store.pages", "store.grade_history")


def history(db: Path) -> dict[str, int]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in HISTORY}  # noqa: S608
    finally:
        con.close()


def digest(db: Path) -> str:
    return hashlib.sha256(db.read_bytes()).hexdigest()


def reads_answer(config: Path, db: Path, record: str, root: Path) -> None:
    """Every read command answers on the database (exit 0, no traceback)."""
    scope = ("--config", str(config), "--db", str(db))
    for args in (
        ("status",),
        ("sources",),
        ("alerts", "--all"),
        ("show", record),
        ("sql", "SELECT count(*) AS n FROM snapshots"),
        ("review",),
        ("site", "--out", str(root / "site")),
        ("export", "--format", "csv", str(root / "export")),
    ):
        done = evidence(*args, *scope, env={"EVIDENCE_NOW": NOW.isoformat()})
        assert done.returncode == 0, (args, done.stderr)


@pytest.fixture
def page(web: WebServer) -> WebServer:
    web.routes["/p"] = Page(PAGE)
    return web


@pytest.mark.parametrize("fixture", [*EARLIER, SCHEMA19], ids=lambda f: f.name)
@pytest.mark.parametrize("command", ["refresh", "gc", "reextract", "accept", "update"])
def test_a_command_that_writes_upgrades_in_place_and_keeps_the_history(
    page: WebServer, tmp_path: Path, fixture: Fixture, command: str
) -> None:
    config, db = fixture.copy_to(tmp_path, page)
    kept = history(db)
    args = {
        "refresh": ("refresh",),
        "gc": ("gc",),
        "reextract": ("reextract",),
        "accept": ("accept", fixture.record, fixture.source),
        "update": ("update", fixture.record, "c" if fixture is not SCHEMA1 else "seats"),
    }[command]
    done = evidence(
        *args, "--config", str(config), "--db", str(db), env={"EVIDENCE_NOW": NOW.isoformat()}
    )
    said = done.stderr
    assert "Traceback" not in said
    assert "release" not in said, said  # never refused for its release
    if fixture.schema < latest_version():
        assert f"upgraded {db} from schema {fixture.schema} to {latest_version()}" in said, said
    else:
        assert "upgraded" not in said
    if command in ("refresh", "gc", "reextract") or (command, fixture) == ("accept", SCHEMA19):
        assert done.returncode == 0, said
    elif command == "accept":  # nothing held in the older files: said as such
        assert (done.returncode, said.splitlines()[-1]) == (
            2,
            f"evidence: nothing of {fixture.record}/{fixture.source} is held for review",
        )
    else:  # update: the record file is not the one the database last saw
        assert done.returncode == 2 and "run `evidence refresh --record" in said, said
    assert peek(db).release is Release.CURRENT
    after = history(db)
    assert all(after[t] >= kept[t] for t in HISTORY), (kept, after)
    reads_answer(config, db, fixture.record, tmp_path)


def test_an_upgraded_database_takes_updates_and_serves_the_desk(
    page: WebServer, tmp_path: Path
) -> None:
    config, db = SCHEMA6.copy_to(tmp_path, page)
    scope = ("--config", str(config), "--db", str(db))
    env = {"EVIDENCE_NOW": NOW.isoformat()}
    refreshed = evidence("refresh", *scope, env=env)
    assert refreshed.returncode == 0, refreshed.stderr
    assert "1 with a new snapshot" in refreshed.stdout
    dry = evidence("update", "r", "c", "--dry-run", *scope, env=env)
    assert dry.returncode == 0, dry.stderr
    added = [line for line in dry.stdout.splitlines() if line.startswith("+") and "$" in line]
    assert added and "$2,500" in added[0], dry.stdout
    desk_answers(scope, "/records/r", 200, "contradicted")


def desk_answers(scope: tuple[str, ...], path: str, status: int, text: str) -> str:
    """Start `evidence ui` on a free port, GET path; the page must have status and text."""
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "evidence_cli", "ui", "--port", "0", *scope],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = read_until(proc.stdout, proc, "serving on ", timeout=60)
        assert line, proc.communicate(timeout=10)
        url = line.split("serving on ")[1].strip().rstrip("/")
        answer = httpx.get(url + path, timeout=30)
        assert answer.status_code == status, answer.text
        assert text in answer.text, answer.text
        assert "Traceback" not in answer.text
        return answer.text
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        assert "Traceback" not in err, err


def test_the_desk_on_an_earlier_release_says_what_to_run(page: WebServer, tmp_path: Path) -> None:
    config, db = SCHEMA6.copy_to(tmp_path, page)
    before = digest(db)
    text = desk_answers(("--config", str(config), "--db", str(db)), "/", 503, "earlier release")
    assert "evidence refresh" in text
    assert digest(db) == before


def test_the_demo_takes_an_earlier_release_of_its_own_database(tmp_path: Path) -> None:
    db = tmp_path / "demo.duckdb"
    shutil.copy(FIXTURES / "schema2.duckdb", db)
    done = evidence("demo", "--db", str(db), timeout=600)
    assert done.returncode == 0, done.stderr
    assert peek(db).release is Release.CURRENT


def later_release(tmp_path: Path, web: WebServer) -> tuple[Path, Path]:
    config, db = SCHEMA19.copy_to(tmp_path, web)
    con = duckdb.connect(str(db))
    con.execute("INSERT INTO store.migrations (version, name) VALUES (?, 'future')", [999])
    con.close()
    return config, db


LATER_COMMANDS = [
    ("refresh",),
    ("refresh", "--due"),
    ("demo",),
    ("gc",),
    ("reextract",),
    ("accept", "r", "own"),
    ("update", "r", "c", "--dry-run"),
    ("ui", "--port", "0"),
    ("status",),
    ("show", "r"),
    ("sql", "SELECT 1"),
    ("sources",),
    ("alerts",),
    ("review",),
    ("diff", "r"),
    ("check",),
]


@pytest.mark.parametrize("args", LATER_COMMANDS, ids=lambda a: " ".join(a))
def test_a_later_release_is_refused_by_every_command_untouched(
    page: WebServer, tmp_path: Path, args: tuple[str, ...]
) -> None:
    config, db = later_release(tmp_path, page)
    before = digest(db)
    done = evidence(*args, "--config", str(config), "--db", str(db), timeout=120)
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = [x for x in done.stderr.splitlines() if not x.startswith("evidence: starting")]
    assert lines[-1] == (
        f"evidence: the database at {db} was written by a later release of evidence-pipeline "
        f"(schema 999; this one knows up to {latest_version()}): upgrade evidence-pipeline to "
        "use it; the file is left as it is"
    ), done.stderr
    assert "Traceback" not in done.stderr
    assert digest(db) == before
    assert not db.with_name(db.name + ".wal").exists()


def test_a_file_not_ours_is_refused_untouched(page: WebServer, tmp_path: Path) -> None:
    config, _ = SCHEMA6.copy_to(tmp_path, page)
    db = tmp_path / "theirs.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE accounts (name VARCHAR)")
    con.close()
    before = digest(db)
    for args in (("refresh",), ("status",), ("gc",)):
        done = evidence(*args, "--config", str(config), "--db", str(db))
        assert done.returncode == 2
        assert done.stderr.strip().endswith(
            f"{db} is not a database of evidence-pipeline (its tables are not ours): "
            "give another --db PATH"
        ), done.stderr
    assert digest(db) == before


# --- killed while making or upgrading the file ---------------------------------------


@pytest.mark.parametrize("point", ["migrate", "extract", "write", "values", "grade"])
def test_a_first_refresh_killed_anywhere_is_finished_by_the_next(
    web: WebServer, tmp_path: Path, point: str
) -> None:
    config = write_catalog(tmp_path, web, 10)
    db = tmp_path / "w.duckdb"
    killed_at(config, tmp_path, point)
    said = evidence("status", "--config", str(config))
    if point == "migrate":  # nothing committed: a file of bootstrap tables only
        assert peek(db).release is Release.UNFINISHED
        assert said.stderr.strip() == (
            f"evidence: the database at {db} was never finished (the refresh that made it "
            "was stopped): run `evidence refresh` to finish it"
        )
    finished = start_refresh(config, EVIDENCE_NOW=NOW.isoformat())
    _, err = finished.communicate(timeout=300)
    assert finished.returncode == 0, err
    if point == "migrate":
        assert f"finished making {db}" in err, err
    con = connect(db, read_only=True, now=NOW)
    try:
        grades = con.execute("SELECT record_id, grade FROM record_status ORDER BY 1").fetchall()
    finally:
        con.close()
    assert grades == [(f"r{r}", "documented") for r in range(2)]


def test_an_upgrade_killed_before_it_commits_leaves_the_earlier_release(
    page: WebServer, tmp_path: Path
) -> None:
    config, db = SCHEMA6.copy_to(tmp_path, page)
    kept = history(db)
    killed_at(config, tmp_path, "migrate", db=db)
    assert (peek(db).release, peek(db).version) == (Release.EARLIER, 6)
    assert history(db) == kept
    again = evidence("refresh", "--config", str(config), "--db", str(db))
    assert again.returncode == 0, again.stderr
    assert f"upgraded {db} from schema 6 to {latest_version()}" in again.stderr
    assert peek(db).release is Release.CURRENT


def killed_at(config: Path, root: Path, point: str, db: Path | None = None) -> None:
    pause = root / "pause"
    pause.mkdir(exist_ok=True)
    (pause / f"{point}.armed").touch()
    extra = {"EVIDENCE_DB": str(db)} if db else {}
    proc = start_refresh(
        config,
        EVIDENCE_NOW=(NOW - timedelta(days=1)).isoformat(),
        EVIDENCE_PAUSE_DIR=str(pause),
        **extra,
    )
    try:
        wait_paused(pause, point, proc)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    time.sleep(0.5)  # its pool workers follow it


# --- serve's runs ------------------------------------------------------------------------


def test_serve_upgrades_an_earlier_release_and_its_runs_land(
    page: WebServer, tmp_path: Path
) -> None:
    from test_serve import run_now, start_serve, stop

    page.routes["/p"] = Page(PAGE.replace("$2,500", "$2,000"))
    config, db = SCHEMA6.copy_to(tmp_path, page)
    settings = config / "settings.yaml"
    settings.write_text(settings.read_text() + 'schedule:\n  cron: "* * * * *"\n  mode: all\n')
    api = os.environ["PREFECT_API_URL"]
    serve = start_serve(config, str(tmp_path / "serve-home"), PREFECT_API_URL=api)
    try:
        said = read_until(serve.stderr, serve, "; cron")
        assert said and f"upgraded {db} from schema 6 to {latest_version()}" in said, said
        run_now(api, config)
        deadline = time.monotonic() + 180
        landed = False
        while time.monotonic() < deadline and not landed:
            time.sleep(2)
            try:
                con = connect(db, read_only=True, wait_s=0)
            except Exception:
                continue
            try:
                landed = con.execute(
                    "SELECT count(*) FROM fetches WHERE started_at > TIMESTAMPTZ '2026-12-02'"
                ).fetchone() == (1,)
            finally:
                con.close()
        assert landed, "no served run landed"
    finally:
        if serve.poll() is None:
            stop(serve, signal.SIGTERM)
    assert peek(db).release is Release.CURRENT
