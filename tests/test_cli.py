"""The commands as a user types them: real processes, a real database file."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import support
from servers import Page, WebServer

from warehouse.lock import refresh_lock

NOW = "2026-11-04T06:00:00+00:00"


def evidence(
    *args: str, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    return support.evidence(*args, env={"EVIDENCE_NOW": NOW, **(env or {})}, timeout=timeout)


@pytest.fixture(scope="module")
def site() -> Iterator[WebServer]:
    server = WebServer().start()
    server.routes["/official"] = Page(
        "<html><title>Credits</title><main><p>Each team gets $2,500 per team in credits. "
        "Applications are open until 3 March 2027.</p></main></html>"
    )
    server.routes["/blog"] = Page(
        "<html><title>Blog</title><article><p>Each team gets $2,000 per team in credits, "
        "for 300 seats.</p></article></html>"
    )
    yield server
    server.stop()


@pytest.fixture(scope="module")
def warehouse(site: WebServer, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """One real `evidence refresh` process (Prefect and all) for every test here."""
    root = tmp_path_factory.mktemp("cli")
    config = root / "config"
    (config / "records").mkdir(parents=True)
    (config / "settings.yaml").write_text(
        f"database: {root / 'evidence.duckdb'}\nfetch:\n  retries: 0\n"
    )
    (config / "records" / "team.yaml").write_text(
        textwrap.dedent(f"""\
        id: team-credits
        title: Team credits
        fields: {{verdict: grant}}
        sources:
          - {{id: official, url: "{site.url("/official")}", role: primary}}
          - {{id: blog, url: "{site.url("/blog")}", role: third-party}}
          - {{id: gone, url: "{site.url("/gone")}", role: third-party}}
        claims:
          - {{id: per-team, quote: "$2,000 per team"}}
        """)
    )
    result = evidence("refresh", "--config", str(config), timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "team-credits: contradicted (fresh), first graded",
        "3 URL(s) fetched: 2 with a new snapshot, 0 unchanged, 1 failed",
        f"failed: {site.url('/gone')} (team-credits/gone): http_error: HTTP 404 Not Found",
    ]
    assert "evidence: refreshing 1 record: 3 URLs" in result.stderr
    # the whole wall time, start-up (the interpreter, imports, Prefect) its own part
    (timed,) = [line for line in result.stderr.splitlines() if line.startswith("evidence: time:")]
    total, startup = re.match(r"evidence: time: ([\d.]+) s \(start-up ([\d.]+) s\)", timed).groups()
    assert 0 < float(startup) < float(total)
    assert "Traceback" not in result.stderr
    return config, root / "evidence.duckdb"


@pytest.mark.slow
def test_status(warehouse: tuple[Path, Path]) -> None:
    config, _ = warehouse
    result = evidence("status", "--config", str(config))
    assert result.returncode == 0, result.stderr
    header, _, row = result.stdout.splitlines()
    assert header.split() == [
        "record_id",
        "grade",
        "sources_confirming",
        "checked_at",
        "stale_on",
        "freshness",
    ]
    assert row.split()[:3] == ["team-credits", "contradicted", "1"]
    assert row.split()[-1] == "fresh" and " UTC " in row  # times say their zone
    (as_json,) = json.loads(evidence("status", "--format", "json", "--config", str(config)).stdout)
    assert as_json["record_id"] == "team-credits" and as_json["checked_at"].endswith("+00:00")


@pytest.mark.slow
def test_show_renders_the_record_card(warehouse: tuple[Path, Path]) -> None:
    config, _ = warehouse
    out = evidence("show", "team-credits", "--config", str(config)).stdout
    assert (
        "Evidence: contradicted — 1 source; confirmed by blog (third-party); "
        "a primary source says otherwise on per-team"
    ) in out
    assert "Freshness: fresh — checked 2026-11-04 (live)" in out
    assert 'official (primary): changed, found 2500: "$2,500 per team"' in out
    assert "blog (third-party): confirmed" in out
    assert "gone" in out and "http_error" in out
    assert "open" in out and "Applications are open" in out  # statuses of the newest snapshot
    assert "2027-03-03" in out  # a parsed date


@pytest.mark.slow
def test_show_unknown_record(warehouse: tuple[Path, Path]) -> None:
    config, _ = warehouse
    result = evidence("show", "nope", "--config", str(config))
    assert result.returncode == 2
    assert (
        result.stderr.strip() == "evidence: no record 'nope' in the database; known: team-credits"
    )


@pytest.mark.slow
def test_sql_json_types(warehouse: tuple[Path, Path]) -> None:
    config, _ = warehouse
    result = evidence(
        "sql",
        "SELECT record_id, checked_at, confirming_sources, found_values, "
        "NULL AS nothing FROM claim_status",
        "--format",
        "json",
        "--config",
        str(config),
    )
    assert result.returncode == 0, result.stderr
    (row,) = json.loads(result.stdout)
    assert row == {
        "record_id": "team-credits",
        "checked_at": "2026-11-04T06:00:00+00:00",
        "confirming_sources": ["blog"],
        "found_values": [2500.0],
        "nothing": None,
    }


@pytest.mark.slow
def test_sql_csv_has_a_header(warehouse: tuple[Path, Path]) -> None:
    config, _ = warehouse
    result = evidence(
        "sql",
        "SELECT source_id, outcome FROM fetches ORDER BY source_id",
        "--format",
        "csv",
        "--config",
        str(config),
    )
    assert result.stdout.splitlines() == [
        "source_id,outcome",
        "blog,ok",
        "gone,http_error",
        "official,ok",
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    "query",
    [
        "DELETE FROM store.fetches",
        "UPDATE store.records SET title = 'x'",
        "CREATE TABLE x (a INT)",
        "ATTACH '/tmp/other.duckdb' AS o",
        "COPY (SELECT 1) TO '/tmp/leak.csv'",
    ],
)
def test_sql_cannot_write(warehouse: tuple[Path, Path], query: str, tmp_path: Path) -> None:
    config, _ = warehouse
    query = query.replace("/tmp/", f"{tmp_path}/")
    result = evidence("sql", query, "--config", str(config))
    assert result.returncode == 2
    assert (
        result.stderr.startswith("evidence: sql error:")
        and len(result.stderr.strip().splitlines()) == 1
    )
    assert not list(tmp_path.iterdir())  # no file was written or attached
    assert (
        evidence(
            "sql", "SELECT count(*) AS n FROM fetches", "--format", "json", "--config", str(config)
        ).stdout.count('"n": 3')
        == 1
    )


@pytest.mark.slow
def test_sources(warehouse: tuple[Path, Path]) -> None:
    config, _ = warehouse
    lines = evidence("sources", "--config", str(config)).stdout.splitlines()
    gone = next(line for line in lines if line.startswith("team-credits  gone"))
    assert "http_error" in gone and "404" in gone and "False" in gone


@pytest.mark.slow
def test_alerts_empty(warehouse: tuple[Path, Path]) -> None:
    config, _ = warehouse
    assert evidence("alerts", "--all", "--config", str(config)).stdout.strip() == "no alerts kept"
    assert evidence("alerts", "--format", "json", "--config", str(config)).stdout.strip() == "[]"


@pytest.mark.slow
def test_db_flag_wins_over_env_and_settings(warehouse: tuple[Path, Path], tmp_path: Path) -> None:
    config, db = warehouse  # settings.yaml names db
    missing = tmp_path / "none.duckdb"
    result = evidence("status", "--config", str(config), env={"EVIDENCE_DB": str(missing)})
    assert result.returncode == 2 and "no database at" in result.stderr
    assert (
        evidence(
            "status", "--config", str(config), "--db", str(db), env={"EVIDENCE_DB": str(missing)}
        ).returncode
        == 0
    )


@pytest.mark.slow
def test_a_database_alone_brings_its_own_catalog(
    warehouse: tuple[Path, Path], tmp_path: Path
) -> None:
    # from a folder with no ./config, --db alone: the catalog the database notes it serves
    config, db = warehouse
    result = support.evidence(
        "review", "--db", str(db), "--format", "json", cwd=tmp_path, env={"EVIDENCE_NOW": NOW}
    )
    assert result.returncode == 0, result.stderr
    assert f"evidence: the catalog of {db}: {config}" in result.stderr
    commands = [i["command"] for i in json.loads(result.stdout)]
    assert commands and all(f"{config}" in c for c in commands), commands


@pytest.mark.slow
def test_read_commands_never_import_prefect(warehouse: tuple[Path, Path]) -> None:
    config, _ = warehouse
    script = textwrap.dedent(f"""
        import sys, contextlib, io
        from evidence_cli.main import main
        commands = (["status"], ["show", "team-credits"], ["sql", "SELECT 1"], ["sources"],
                    ["alerts"])
        for argv in commands:
            with contextlib.redirect_stdout(io.StringIO()):
                assert main([*argv, "--config", {str(config)!r}]) == 0, argv
        assert "prefect" not in sys.modules, "prefect was imported"
        print("clean")
        """)
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert result.stdout.strip() == "clean", result.stderr


@pytest.mark.slow
def test_a_refresh_imports_the_page_readers_only_to_read_a_page() -> None:
    # A refresh whose pages are unchanged starts without trafilatura, BeautifulSoup,
    # htmldate or FastAPI's encoder: what only reading a page needs is imported to read one.
    script = textwrap.dedent("""
        import sys
        from pathlib import Path
        import evidence_cli.main, evidence_cli.report, flows.commands.run
        from flows.refresh import refresh_flow
        plain = {"config_dir": "config", "db_path": None, "record_ids": ["a", "b"],
                 "due": False, "source_ids": None, "prune": True}
        assert refresh_flow.serialize_parameters(plain) == plain
        print(sorted(m for m in ("trafilatura", "bs4", "htmldate", "fastapi", "extractors.page")
                     if m in sys.modules))
        # a value that is not plain JSON is Prefect's to encode, as before
        print(refresh_flow.serialize_parameters({"config_dir": Path("config")}))
        from flows.reading import ExtractJob, run_job
        from datetime import datetime, UTC
        body = b"<html><body><main><p>Each team gets 500 GPU hours.</p></main></body></html>"
        job = ExtractJob("d", body, "http://x/", datetime.now(UTC), "text/html", "utf-8")
        done = run_job(job)
        read = done.page is not None and "500 GPU hours" in done.page.text
        print(read, "trafilatura" in sys.modules)
        """)
    # a worker started ahead of its first page imports them meanwhile
    ahead = textwrap.dedent("""
        import os, sys
        from flows.reading.worker import read_ahead
        print("extractors.page" in sys.modules, read_ahead() == os.getpid(),
              "extractors.page" in sys.modules, "trafilatura" in sys.modules)
        """)
    worker = subprocess.run(
        [sys.executable, "-c", ahead], capture_output=True, text=True, timeout=60
    )
    assert worker.stdout.split() == ["False", "True", "True", "True"], worker.stderr
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert result.stdout.splitlines() == ["[]", "{'config_dir': 'config'}", "True True"], (
        result.stderr
    )


@pytest.mark.slow
def test_second_refresh_exits_at_once_with_the_pid(warehouse: tuple[Path, Path]) -> None:
    config, db = warehouse
    with refresh_lock(db):
        started = datetime.now(UTC)
        result = evidence("refresh", "--config", str(config))
        took = (datetime.now(UTC) - started).total_seconds()
    assert result.returncode == 2
    import os

    assert result.stderr.strip() == (
        f"evidence: a refresh is already running on {db} (pid {os.getpid()}); wait for it to finish"
    )
    assert took < 10  # before Prefect starts


@pytest.mark.slow
def test_bad_evidence_now(warehouse: tuple[Path, Path]) -> None:
    config, _ = warehouse
    result = evidence("status", "--config", str(config), env={"EVIDENCE_NOW": "yesterday"})
    assert result.returncode == 2 and "EVIDENCE_NOW='yesterday'" in result.stderr
