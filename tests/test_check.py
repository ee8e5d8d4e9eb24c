"""`evidence check`: every config error, then claims against the stored snapshots, offline.

The warehouse is filled through the store layer (tests/store_support.py) with real page
texts; the claims are matched by the real matcher, and the grades of a refresh (its SQL)
and of `check` (extractors/grading.py) are compared on the same evidence.
"""

from __future__ import annotations

import hashlib
import json
import re
import textwrap
from datetime import timedelta
from pathlib import Path

import pytest
from store_support import T0, Warehouse

from evidence_cli.main import main
from flows.catalog import check_catalog
from flows.checks import check_claims
from flows.commands.check import run_check
from flows.commands.offline import Evidence, grade_records
from warehouse.db import connect
from warehouse.release import latest_version

PAGES = {
    "p": "Nimbus free tier. You get 500 GPU hours per month. Applications are open.",
    "p2": "Nimbus research credits: up to $4,000 for each lab.",
    "t": "Roundup: Nimbus gives 500 GPU hours per month and $4,000 in credits.",
}
CATALOG = """\
id: r
title: A record
sources:
  - {id: p, url: "https://example.org/p", role: primary}
  - {id: p2, url: "https://example.org/p2", role: primary}
  - {id: t, url: "https://example.org/t", role: third-party}
claims:
  - id: hours
    quote: "500 GPU hours per month"
  - id: credits
    quote: "$5,000 in credits"
    sources: [t]
  - id: lab
    quote: "up to $3,000 for each lab"
    sources: [p2, t]
  - id: gone
    quote: "Applications are closed"
    sources: [p]
"""


def fill(wh: Warehouse, quotes: dict[str, str]) -> dict[str, str]:
    """The catalog stored with these quotes, each source fetched once, checked, graded;
    the claims' grades. The connection is closed after (a reader may open the file)."""
    if wh.con is None:
        wh.con = connect(wh.path, now=T0)
    wh.catalog(
        {"hours": None, "credits": ["t"], "lab": ["p2", "t"], "gone": ["p"]},
        ["p", "p2", "t"],
        quotes=quotes,
    )
    for source, body in PAGES.items():
        wh.fetch(source, T0, body=body)
    check_claims(wh.con)
    wh.grade(T0 + timedelta(hours=1))
    grades = dict(wh.con.execute("SELECT claim_id, grade FROM claim_status").fetchall())
    grades["*"] = wh.con.execute("SELECT grade FROM record_status").fetchone()[0]
    wh.con.close()
    wh.con = None
    return grades


def catalog(root: Path, text: str = CATALOG, settings: str = "") -> Path:
    config = root / "config"
    (config / "records").mkdir(parents=True, exist_ok=True)
    (config / "records" / "r.yaml").write_text(textwrap.dedent(text))
    if settings:
        (config / "settings.yaml").write_text(settings)
    return config


QUOTES = {
    "hours": "500 GPU hours per month",
    "credits": "$5,000 in credits",
    "lab": "up to $3,000 for each lab",
    "gone": "Applications are closed",
}


def test_grades_are_the_refreshs_own(wh: Warehouse, tmp_path: Path) -> None:
    stored = fill(wh, QUOTES)
    record_grade = stored.pop("*")
    config = catalog(tmp_path)
    records = grade_records(check_catalog(config).catalog, Evidence(tmp_path / "w.duckdb"))
    (record,) = records
    assert {c.claim_id: c.grade.value for c in record.claims} == stored
    assert record.grade == record_grade
    assert stored == {
        "hours": "documented",
        "credits": "unverified",
        "lab": "contradicted",
        "gone": "unverified",
    }


def test_an_edited_quote_is_matched_afresh_and_graded(wh: Warehouse, tmp_path: Path) -> None:
    fill(wh, QUOTES)
    edited = CATALOG.replace("$5,000 in credits", "$4,000 in credits").replace(
        "up to $3,000", "up to $4,000"
    )
    (record,) = grade_records(
        check_catalog(catalog(tmp_path, edited)).catalog, Evidence(tmp_path / "w.duckdb")
    )
    grades = {c.claim_id: c.grade.value for c in record.claims}
    assert grades["credits"] == "reported" and grades["lab"] == "documented"
    # the refresh, given the same quotes, agrees
    stored = fill(
        wh, {**QUOTES, "credits": "$4,000 in credits", "lab": "up to $4,000 for each lab"}
    )
    assert stored.pop("*") == record.grade
    assert stored == grades


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_exit_1_for_a_claim_absent_or_changed_on_every_primary(
    wh: Warehouse, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fill(wh, QUOTES)
    db = tmp_path / "w.duckdb"
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    config = catalog(tmp_path)
    code, out, _ = run(capsys, "--config", str(config), "--db", str(db))
    assert code == 1
    lines = out.splitlines()
    file = str(config / "records" / "r.yaml")
    # `lab` is changed on its one primary: an error at its line; `gone` absent on p: too
    assert f"{file}:13: error: r/lab: changed on p2 (primary): the page says 'up to $4,000" in out
    assert f"{file}:16: error: r/gone: absent on p (primary) (grade unverified)" in out, out
    # `credits` is changed on a third party only: a warning, not a failure
    assert f"{file}:10: warning: r/credits: changed on t (third-party)" in out, out
    assert "hours" not in out  # confirmed on a primary; absent on the other one is no news
    assert lines[-1].startswith("checked 1 record(s), 4 claim(s) against 3 stored snapshot(s)")
    # the outcomes are of claims on sources, and said to be
    assert "of 7 check(s) of a claim on a source, 2 confirmed" in lines[-1], lines[-1]
    assert "2 error(s), 1 warning(s)" in lines[-1]
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest  # nothing written

    # github: one workflow command per problem, with file and line
    code, out, _ = run(capsys, "--config", str(config), "--db", str(db), "--format", "github")
    assert code == 1
    commands = out.splitlines()
    assert len(commands) == 3
    assert re.fullmatch(r"::warning file=[^,]+r\.yaml,line=10::r/credits: .*", commands[0])
    assert re.fullmatch(r"::error file=[^,]+r\.yaml,line=13::r/lab: .*", commands[1])

    # json: one object per problem
    code, out, _ = run(capsys, "--config", str(config), "--db", str(db), "--format", "json")
    problems = json.loads(out)
    assert [(p["level"], p["claim_id"], p["line"]) for p in problems] == [
        ("warning", "credits", 10),
        ("error", "lab", 13),
        ("error", "gone", 16),
    ]

    # only what holds: exit 0; --strict makes the warning fail
    fixed = CATALOG.replace("up to $3,000", "up to $4,000").replace(
        "Applications are closed", "Applications are open"
    )
    catalog(tmp_path, fixed)
    assert run(capsys, "--config", str(config), "--db", str(db))[0] == 0
    assert run(capsys, "--config", str(config), "--db", str(db), "--strict")[0] == 1


def test_every_config_error_exit_2_with_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = (
        CATALOG.replace("role: third-party", "role: blogger")
        .replace('    quote: "500', '    qoute: "500')
        .replace("sources: [p]", "sources: [q]")
    )
    config = catalog(tmp_path, bad, settings="freshness_window: soon\n")
    db = tmp_path / "none.duckdb"
    code, out, _ = run(capsys, "--config", str(config), "--db", str(db), "--format", "github")
    assert code == 2
    commands = out.splitlines()
    assert [c.split("::")[1] for c in commands[:4]] == [
        f"error file={config}/settings.yaml,line=1",
        f"error file={config}/records/r.yaml,line=6",
        f"error file={config}/records/r.yaml,line=9",
        f"error file={config}/records/r.yaml,line=18",
    ]  # file by file, in the order of their lines
    assert "unknown key 'claims[0].qoute'" in commands[2]
    assert commands[-1].startswith("::notice::no database at")
    assert not db.exists()


def test_no_database_checks_the_config_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "data" / "evidence.duckdb"
    code, out, _ = run(capsys, "--config", str(catalog(tmp_path)), "--db", str(db))
    assert code == 0
    assert out.strip() == (
        f"no database at {db}: checked the config only (`evidence refresh` stores the "
        "snapshots claims are checked against); 0 error(s), 0 warning(s)"
    )
    assert not db.parent.exists()


def test_a_url_with_white_space_around_it_is_refused_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a pasted " https://..." passes a URL parser and then fails 404 forever
    config = tmp_path / "config"
    (config / "records").mkdir(parents=True)
    (config / "records" / "r.yaml").write_text(
        "id: r\ntitle: R\nsources:\n  - {id: p, url: ' https://example.org/p', role: primary}\n"
    )
    code, out, _ = run(capsys, "--config", str(config), "--db", str(tmp_path / "none.duckdb"))
    assert code == 2
    assert f"{config}/records/r.yaml:4: error: " in out and "white space at its start" in out


def test_files_named_limit_the_report_to_them(
    wh: Warehouse, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fill(wh, QUOTES)
    config = catalog(tmp_path)
    other = config / "records" / "other.yaml"
    other.write_text("id: other\ntitle: O\nsources: [{url: 'https://example.org/x', role: x}]\n")
    db = str(tmp_path / "w.duckdb")
    code, out, _ = run(capsys, "--db", db, str(other))  # the config dir is found from it
    assert code == 2 and "other.yaml:3: error: bad role 'x'" in out and "r/lab" not in out
    report = run_check(config, Path(db), only_files=[config / "records" / "r.yaml"])
    assert report.exit_code == 1
    assert {p.file for p in report.problems()} == {str(config / "records" / "r.yaml")}


def test_expect_is_evaluated_and_an_error_condition_fails(
    wh: Warehouse, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fill(wh, QUOTES)
    db = str(tmp_path / "w.duckdb")
    text = CATALOG.replace(
        '    quote: "500 GPU hours per month"',
        '    quote: "500 GPU hours per month"\n    expect: {at_least: 600, severity: error}',
    ).replace(
        '    quote: "Applications are closed"',
        '    quote: "Applications are closed"\n    status: closed\n'
        "    expect: {status_in: [closed, ended]}",
    )
    config = catalog(tmp_path, text)
    report = run_check(config, Path(db))
    (record,) = report.records
    claims = {c.claim_id: c for c in record.claims}
    assert (claims["hours"].condition, claims["hours"].condition_detail) == (
        "fail",
        "500 is below at_least 600 on p",
    )
    # the page says open where the claim says closed: changed, with the status found
    assert claims["gone"].sources[0].outcome == "changed"
    assert claims["gone"].sources[0].found_status == "open"
    assert claims["gone"].condition == "warn"
    assert "open is not in status_in [closed, ended] on p" in claims["gone"].condition_detail
    assert claims["lab"].condition is None
    code, out, _ = run(capsys, "--config", str(config), "--db", db, "--format", "json")
    assert code == 1
    conditions = [p for p in json.loads(out) if p["kind"] == "condition"]
    assert [(p["level"], p["claim_id"], p["line"]) for p in conditions] == [
        ("error", "hours", 8),
        ("warning", "gone", 17),
    ]


@pytest.mark.slow
def test_check_starts_no_prefect_and_runs_as_the_command(wh: Warehouse, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    fill(wh, QUOTES)
    config = catalog(tmp_path)
    program = (
        "import sys; from evidence_cli.main import main; code = main(sys.argv[1:]); "
        "print('prefect' in sys.modules, code)"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, "check", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "EVIDENCE_DB": str(tmp_path / "w.duckdb")},
        check=False,
    )
    assert done.stdout.splitlines()[-1] == "False 1", done.stdout + done.stderr
    assert "r/lab: changed on p2" in done.stdout


def test_a_database_of_an_earlier_release_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    db = tmp_path / "old.duckdb"
    shutil.copy(Path(__file__).parent / "fixtures" / "db" / "schema6.duckdb", db)
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    code, out, err = run(capsys, "--config", str(catalog(tmp_path)), "--db", str(db))
    assert (code, out) == (2, "")
    assert err.strip() == (
        f"evidence: the database at {db} was written by an earlier release (schema 6; this "
        f"one writes {latest_version()}): run `evidence refresh` once to upgrade it in place "
        "(its history is kept), then try again"
    )
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest


def test_the_bundled_catalog_checks_clean_without_a_database(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent
    report = run_check(root / "config", tmp_path / "none.duckdb")
    assert report.config_errors == () and not report.db_found
    assert report.exit_code == 0 and report.problems() == []
    assert (
        report.counts()["unchecked"]
        == sum(len(c.sources) for r in report.records for c in r.claims)
        > 0
    )
