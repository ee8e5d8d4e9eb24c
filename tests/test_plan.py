"""`evidence plan`: the catalog at a git ref against the working tree, graded on the
stored snapshots. Real git repositories under tmp_path (git runs as a subprocess)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from store_support import Warehouse
from support import git
from test_check import CATALOG, QUOTES, catalog, fill

from evidence_cli.main import main

pytestmark = pytest.mark.slow  # git runs as a subprocess


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    root = tmp_path / "catalog-repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    catalog(root)
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "catalog")
    return root


def plan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["plan", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_change_is_planned_against_the_stored_snapshots(
    wh: Warehouse, tmp_path: Path, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fill(wh, QUOTES)
    db = str(tmp_path / "w.duckdb")
    config = repo / "config"
    edited = (
        CATALOG.replace("up to $3,000 for each lab", "up to $4,000 for each lab")
        .replace('  - id: gone\n    quote: "Applications are closed"\n    sources: [p]\n', "")
        .replace(
            "claims:\n",
            'claims:\n  - id: fresh\n    quote: "a sentence on no page"\n',
        )
    )
    (config / "records" / "r.yaml").write_text(edited)
    (config / "records" / "s.yaml").write_text(
        'id: s\ntitle: S\nsources: [{id: p, url: "https://example.org/p", role: primary}]\n'
        'claims: [{id: hours, quote: "500 GPU hours per month"}]\n'
    )
    code, out, err = plan(capsys, "--config", str(config), "--db", db)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == (
        "**evidence plan** (`HEAD` -> working tree): 1 record(s) added, 1 record(s) edited, "
        "2 grade(s) move, 1 new quote(s) found on no stored page"
    )
    assert "| `r` | edited (claims) | unverified -> unverified |" not in out
    assert "| `s` | added | (none) -> documented |" in out
    assert "| `r` | edited (claims) | contradicted -> unverified |" in out
    assert "- claim `fresh` added: (none) -> unverified — **absent on every source**" in out
    assert "- claim `lab` edited (quote): contradicted -> documented" in out
    assert "- claim `gone` removed: unverified -> (none)" in out

    code, out, _ = plan(capsys, "--config", str(config), "--db", db, "--format", "json")
    data = json.loads(out)
    assert data["base"] == "HEAD" and data["catalog"] == "config"
    r = next(x for x in data["records"] if x["record_id"] == "r")
    claims = {c["claim_id"]: c for c in r["claims"]}
    assert set(claims) == {"fresh", "lab", "gone"}
    assert claims["lab"]["outcomes"] == {"p2": "confirmed", "t": "absent"}
    assert claims["fresh"]["absent_everywhere"] is True

    # committed: nothing differs from HEAD, and the change shows against the commit before
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "edit")
    code, out, _ = plan(capsys, "--config", str(config), "--db", db)
    assert out.splitlines()[0].endswith(": no differences found")
    code, out, _ = plan(capsys, "--config", str(config), "--db", db, "--base", "HEAD~1")
    assert "2 grade(s) move" in out.splitlines()[0]


def test_config_errors_in_the_working_tree_exit_2(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = repo / "config"
    (config / "records" / "r.yaml").write_text(CATALOG.replace("role: primary", "role: owner"))
    code, out, _ = plan(capsys, "--config", str(config), "--db", str(tmp_path / "none.duckdb"))
    assert code == 2
    assert "2 config error(s) in the working tree" in out.splitlines()[0]
    assert "bad role 'owner'" in out


def test_outside_git_and_a_bad_ref_are_one_line_exit_2(
    tmp_path: Path, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    outside = catalog(tmp_path / "loose")
    code, out, err = plan(capsys, "--config", str(outside))
    assert (code, out) == (2, "")
    assert len(err.strip().splitlines()) == 1 and "is not in a git repository" in err
    code, out, err = plan(capsys, "--config", str(repo / "config"), "--base", "no-such-branch")
    assert (code, out) == (2, "")
    assert "no commit 'no-such-branch'" in err


def test_a_catalog_new_at_the_ref_is_all_added(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    root = tmp_path / "new-repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "README").write_text("x\n")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "empty")
    config = catalog(root)
    code, out, _ = plan(capsys, "--config", str(config), "--db", str(tmp_path / "none.duckdb"))
    assert code == 0
    assert out.splitlines()[0].endswith(": 1 record(s) added, 1 grade(s) move")
    assert "no database at" in out
