"""`evidence propose`: what pages settle, as a branch of the catalog's git repository and
one pull request. A real repository with a bare origin under tmp_path (git runs as a
subprocess), a real database, and a stand-in for the forge's API on 127.0.0.1."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from forge_support import Forge
from keeping_support import T0, Kept
from support import git

from evidence_cli.main import main

pytestmark = pytest.mark.slow  # git runs as a subprocess

BRANCH = "evidence/updates"
RECORDS = """\
- id: r
  title: Acme credits
  sources:
    - {id: own, url: "https://acme.example/credits", role: primary}
  claims:
    - id: prize
      quote: "$4,000 in GPU credits for the best runs"   # the headline
- id: s
  title: Acme call
  sources:
    - {id: own, url: "https://acme.example/call", role: primary}
  claims:
    - id: call
      quote: "Applications for the 2027 call are open to every lab"
      status: open
"""


def page(prize: str, status: str) -> str:
    return (
        f"Teams get ${prize} in GPU credits for the best runs. "
        f"Applications for the 2027 call are {status} to every lab."
    )


@pytest.fixture
def forge(monkeypatch: pytest.MonkeyPatch) -> Iterator[Forge]:
    server = Forge().start()
    monkeypatch.setenv("GITHUB_TOKEN", server.token)
    monkeypatch.setenv("GITHUB_API_URL", server.api)
    monkeypatch.setenv("GITHUB_REPOSITORY", server.repository)
    yield server
    server.stop()


@pytest.fixture
def kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Kept:
    """Two refreshes a day apart (a figure and a status moved), the catalog committed on
    main, and a bare origin holding main."""
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    monkeypatch.setenv("EVIDENCE_NOW", (T0 + timedelta(days=1)).isoformat())
    k = Kept(tmp_path / "catalog", RECORDS)
    moved_and_committed(k)
    origin = tmp_path / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", str(origin)], check=True)
    git(k.root, "remote", "add", "origin", str(origin))
    git(k.root, "push", "-q", "origin", "main")
    return k


def moved_and_committed(k: Kept) -> None:
    """Two refreshes a day apart (a figure and a status moved), the catalog then
    committed on main."""
    k.refresh({"own": page("4,000", "open")})
    k.refresh({"own": page("2,500", "closed")}, T0 + timedelta(days=1))
    (k.root / ".gitignore").write_text("w.duckdb*\n")
    git(k.root, "init", "-q", "-b", "main")
    git(k.root, "add", ".")
    git(k.root, "commit", "-q", "-m", "catalog")


def propose(k: Kept, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str, str]:
    code = main(["propose", *extra, "--config", str(k.config), "--db", str(k.db)])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_proposal_is_a_branch_of_commits_and_one_pull_request(
    kept: Kept, forge: Forge, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = kept.file.read_text()
    body_file = tmp_path / "body.md"
    code, out, err = propose(kept, capsys, "--open", "--body", str(body_file))
    assert code == 0, err
    assert out.splitlines()[0].startswith(f"{BRANCH} moved to ")
    # one commit per record, each saying what moved and where
    subjects = git(kept.root, "log", "--format=%s", f"main..{BRANCH}").splitlines()
    assert sorted(subjects) == [
        "r: prize $4,000 -> $2,500 on own",
        "s: call open -> closed on own",
    ]
    messages = git(kept.root, "log", "--format=%B", f"main..{BRANCH}")
    assert "Grade: contradicted -> documented" in messages
    proposed = git(kept.root, "show", f"{BRANCH}:config/records/r.yaml")
    assert '    quote: "$2,500 in GPU credits for the best runs"   # the headline' in proposed
    assert "  status: closed" in proposed.replace("      status", "  status")
    assert kept.file.read_text() == before  # the keeper's working tree is untouched
    assert git(kept.root, "status", "--porcelain") == ""
    # pushed, and one pull request opened with the body written
    head = git(kept.root, "rev-parse", BRANCH)
    assert git(tmp_path / "origin.git", "rev-parse", BRANCH) == head
    (opened,) = forge.posted("POST")
    assert (opened["head"], opened["base"]) == (BRANCH, "main")
    body = opened["body"]
    assert body == body_file.read_text() and len(body) < 65_536
    assert "| `r` | edited (claims) | contradicted -> documented |" in body
    assert "#### `r` on `own`: `prize` $4,000 -> $2,500 on own" in body
    assert "[-$4,000-]{+$2,500+}" in body and "````text" in body
    assert "**evidence plan** (`main` -> working tree)" in body
    assert "pull request #1: https://forge.example/acme/catalog/pull/1" in out

    # nothing new: nothing moves, nothing is sent
    code, out, err = propose(kept, capsys, "--open")
    assert code == 0, err
    assert out.splitlines()[0].startswith(f"{BRANCH} already at {head[:10]}")
    assert git(kept.root, "rev-parse", BRANCH) == head
    assert len(forge.posted("POST")) == 1 and forge.posted("PATCH") == []
    # the page moves again: the branch follows, its pull request updated in place
    kept.refresh({"own": page("2,000", "closed")}, T0 + timedelta(days=2))
    code, out, err = propose(kept, capsys, "--open")
    assert code == 0, err
    head = git(kept.root, "rev-parse", BRANCH)
    assert out.splitlines()[0].startswith(f"{BRANCH} moved to {head[:10]}")
    (patched,) = forge.posted("PATCH")
    assert "$2,000" in patched["body"] and len(forge.pulls) == 1
    assert git(tmp_path / "origin.git", "rev-parse", BRANCH) == head

    # the proposed branch checks and plans as any branch does
    tree = tmp_path / "proposed"
    git(kept.root, "worktree", "add", "-q", str(tree), BRANCH)
    assert main(["check", "--config", str(tree / "config"), "--db", str(kept.db)]) == 0
    assert main(["plan", "--config", str(tree / "config"), "--db", str(kept.db), "--base",
                 "main"]) == 0  # fmt: skip
    capsys.readouterr()

    # a person's commit on the branch is never overwritten
    (tree / "config" / "records" / "r.yaml").write_text(
        (tree / "config" / "records" / "r.yaml").read_text().replace("Acme credits", "Acme")
    )
    git(tree, "commit", "-qam", "a keeper's edit")
    edited = git(kept.root, "rev-parse", BRANCH)
    code, _, err = propose(kept, capsys)
    assert code == 2 and err.count("\n") == 1, err
    assert "not made by evidence propose" in err and "dana@example.org" in err
    assert git(kept.root, "rev-parse", BRANCH) == edited


def test_a_closed_proposal_is_not_made_again_until_the_page_moves(
    kept: Kept, forge: Forge, capsys: pytest.CaptureFixture[str]
) -> None:
    assert propose(kept, capsys, "--open")[0] == 0
    forge.pulls[0]["state"] = "closed"  # closed without merging
    code, out, err = propose(kept, capsys, "--open")
    assert code == 0, err
    assert "closed unmerged: its 2 item(s) are not proposed again" in out
    assert "nothing to propose" in out
    assert len(forge.posted("POST")) == 1
    # the figure moves again: proposed again, the declined status left out
    kept.refresh({"own": page("2,000", "closed")}, T0 + timedelta(days=2))
    code, out, err = propose(kept, capsys, "--open")
    assert code == 0, err
    assert git(kept.root, "log", "--format=%s", f"main..{BRANCH}").splitlines() == [
        "r: prize $4,000 -> $2,000 on own"
    ]
    assert len(forge.posted("POST")) == 2 and forge.pulls[1]["state"] == "open"
    assert "declined in an earlier pull request" in forge.pulls[1]["body"]


@pytest.mark.parametrize(
    ("setup", "says"),
    [
        ("dirty", "uncommitted changes"),
        ("detached", "detached"),
        ("no-git", "not in a git work tree"),
    ],
)
def test_refusals_are_one_line(
    kept: Kept, capsys: pytest.CaptureFixture[str], setup: str, says: str
) -> None:
    if setup == "dirty":
        kept.file.write_text(kept.file.read_text() + "\n# a note\n")
    elif setup == "detached":
        git(kept.root, "checkout", "-q", "--detach")
    else:
        import shutil

        shutil.rmtree(kept.root / ".git")
    code, _, err = propose(kept, capsys)
    assert code == 2 and err.count("\n") == 1 and says in err, err
    if setup == "dirty":
        assert "(config/records/r.yaml)" in err
    assert "moved to" not in err


def test_a_closed_pull_request_declines_only_what_it_held(
    kept: Kept, forge: Forge, capsys: pytest.CaptureFixture[str]
) -> None:
    assert propose(kept, capsys, "--open")[0] == 0
    forge.pulls[0]["state"] = "closed"  # closed unmerged, at the commit it held
    forge.pulls[0]["head"]["sha"] = git(kept.root, "rev-parse", BRANCH)
    kept.refresh({"own": page("2,000", "closed")}, T0 + timedelta(days=2))
    code, out, err = propose(kept, capsys, "--push")  # a new proposal, no pull request yet
    assert code == 0, err
    code, out, err = propose(kept, capsys, "--open")
    assert code == 0, err
    assert "closed unmerged" not in out  # what no one was shown is not declined
    assert len(forge.posted("POST")) == 2 and "$2,000" in forge.pulls[1]["body"]


def test_a_record_its_file_cannot_take_goes_to_the_checklist(
    tmp_path: Path,
    forge: Forge,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # two claims share one quote through a YAML anchor: writing one writes both, which the
    # writer refuses; that file's records are left to a person, the other file's proposed
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    monkeypatch.setenv("EVIDENCE_NOW", (T0 + timedelta(days=1)).isoformat())
    first, second = RECORDS.split("- id: s\n")
    anchored = first.replace(
        '      quote: "$4,000 in GPU credits for the best runs"   # the headline\n',
        '      quote: &q "$4,000 in GPU credits for the best runs"\n'
        "    - id: again\n      quote: *q\n",
    )
    k = Kept(tmp_path / "catalog", anchored)
    (k.config / "records" / "s.yaml").write_text("- id: s\n" + second)
    moved_and_committed(k)
    code, _, err = propose(k, capsys, "--body", str(tmp_path / "body.md"))
    assert code == 0, err
    assert git(k.root, "log", "--format=%s", f"main..{BRANCH}").splitlines() == [
        "s: call open -> closed on own"
    ]
    body = (tmp_path / "body.md").read_text()
    assert "### What no page settles" in body and "`r` prize (changed)" in body
