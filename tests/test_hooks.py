"""The pre-commit hook `evidence-check`, run by pre-commit's own `try-repo` against a
temporary catalog repository, offline (the hook is `language: system`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from test_check import CATALOG

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

pytestmark = pytest.mark.slow  # pre-commit and git run as subprocesses


def test_the_hook_is_declared_as_the_docs_name_it() -> None:
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "evidence-check"
    assert hook["entry"] == "evidence check"
    assert hook["language"] == "system"  # installs nothing: works offline
    import re

    files = re.compile(hook["files"])
    for path in ("config/records/a.yaml", "records/b.yml", "config/settings.yaml"):
        assert files.search(path), path
    for path in ("README.md", "config/records/notes/a.txt", "src/records.py"):
        assert not files.search(path), path


def run(repo: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(args), cwd=repo, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def test_try_repo_runs_evidence_check_on_changed_catalog_files(tmp_path: Path) -> None:
    repo = tmp_path / "catalog"
    records = repo / "config" / "records"
    records.mkdir(parents=True)
    (records / "r.yaml").write_text(CATALOG)
    (repo / "README.md").write_text("a catalog\n")
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "GIT_CEILING_DIRECTORIES": str(tmp_path),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.org",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.org",
        "EVIDENCE_DB": str(tmp_path / "no.duckdb"),
    }
    run(repo, "git", "init", "-q", "-b", "main", env=env)
    run(repo, "git", "add", ".", env=env)
    pre_commit = [str(BIN / "pre-commit"), "try-repo", str(ROOT), "evidence-check"]

    good = run(repo, *pre_commit, "--all-files", env=env)
    assert good.returncode == 0, good.stdout + good.stderr
    assert "evidence check" in good.stdout and "Passed" in good.stdout

    (records / "bad.yaml").write_text(
        CATALOG.replace("id: r", "id: b", 1).replace("role: primary", "role: owner", 1)
    )
    run(repo, "git", "add", ".", env=env)
    bad = run(repo, *pre_commit, "--files", "config/records/bad.yaml", "README.md", env=env)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "Failed" in bad.stdout
    assert "config/records/bad.yaml:4: error: bad role 'owner'" in bad.stdout, bad.stdout
    assert "r.yaml" not in bad.stdout  # only the files pre-commit passed are reported on

    only_readme = run(repo, *pre_commit, "--files", "README.md", env=env)
    assert only_readme.returncode == 0
    assert "(no files to check)Skipped" in only_readme.stdout


@pytest.mark.slow  # asks git
def test_the_documented_pre_commit_rev_exists() -> None:
    """The snippet's `rev:` names a branch or tag the repository has (not a tag of a
    release that was never made)."""
    import re
    import subprocess

    root = Path(__file__).resolve().parent.parent
    doc = (root / "docs" / "catalog-as-code.md").read_text()
    block = doc[doc.index("repo: https://github.com/evidence-pipeline/evidence-pipeline") :]
    rev = re.search(r"rev: (\S+)", block)
    assert rev is not None
    if not (root / ".git").exists():
        pytest.skip("not a git checkout")
    found = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "--verify", "--quiet", f"{rev[1]}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    assert found.returncode == 0, f"rev {rev[1]!r} is not in the repository"
