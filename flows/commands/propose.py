"""`evidence propose`: the review items a page's own wording settles, written into the
record files on a branch of the catalog's git repository (one commit per record), for a
person to merge; pushed and opened as one pull request on request.

The branch is built afresh from the catalog's current commit in a worktree of its own
(the keeper's working tree is never touched), each record's file written as `evidence
update` writes it (the quote's line only, comments kept). A branch whose content would not
change is left as it is; a branch holding a commit that is not the pipeline's (a person's
edit) is never overwritten. The database notes each proposal: the commit it left the
branch at, its pull request, and its items; a pull request closed without merging
declines its items until their page's words move again.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from evidence_base.errors import ConfigError, EvidenceError, first_line
from flows.catalog import (
    Catalog,
    ClaimConfig,
    Edit,
    RecordFile,
    edited,
    file_digest,
    write_atomically,
    written_together,
)
from flows.commands.forge import GitHub, PullRequest, repository_from
from flows.commands.plan import Plan, run_plan
from flows.commands.review import review_items
from flows.commands.update import choose_check, page_words, take_words
from flows.preflight import upgrade_file
from flows.runtime import clock
from warehouse import keeping, proposals
from warehouse.db import Connection, session
from warehouse.keeping import CurrentCheck, QueueItem
from warehouse.lock import refresh_lock
from warehouse.proposals import Proposed

DEFAULT_BRANCH = "evidence/updates"
NAME, EMAIL = "evidence-pipeline", "evidence-pipeline@users.noreply.github.com"
MAX_SUBJECT = 72  # a commit subject, as git's tools show it whole
GIT_TIMEOUT_S = 120


@dataclass(frozen=True, slots=True)
class Item:
    """A review item the page settles, and what it writes."""

    proposed: Proposed
    what: str  # "$4,000 -> $2,500 on own"
    claim: ClaimConfig
    check: CurrentCheck
    file: str  # the record's file, relative to the repository's root
    queued: QueueItem  # the review item it settles (back to the checklist if it cannot)


@dataclass
class Proposal:
    """What `propose` did: the branch, its commits, the plan of its grade moves, and what
    no page settles."""

    branch: str
    base: str  # the branch proposed against
    base_commit: str
    root: Path
    items: list[Item] = field(default_factory=list)
    unsettled: list[QueueItem] = field(default_factory=list)  # the checklist
    commits: list[str] = field(default_factory=list)  # each commit's subject
    head: str | None = None  # the branch's commit; None: nothing proposed
    moved: bool = False  # the branch moved (False: it already said all this)
    plan: Plan | None = None
    declined: int = 0  # items a closed pull request declined, noted in this run
    skipped: int = 0  # items declined before, not proposed again
    pushed: bool = False
    pull: PullRequest | None = None


class Git:
    def __init__(self, root: Path) -> None:
        self.root = root

    def run(self, *args: str, check: bool = True, cwd: Path | None = None) -> str:
        env = {
            **os.environ,
            "GIT_AUTHOR_NAME": NAME,
            "GIT_AUTHOR_EMAIL": EMAIL,
            "GIT_COMMITTER_NAME": NAME,
            "GIT_COMMITTER_EMAIL": EMAIL,
            "GIT_TERMINAL_PROMPT": "0",  # never a prompt: a credential is given or it fails
            "GIT_SSH_COMMAND": os.environ.get("GIT_SSH_COMMAND", "ssh -o BatchMode=yes"),
        }
        try:
            done = subprocess.run(
                ["git", "-C", str(cwd or self.root), *args],
                capture_output=True,
                stdin=subprocess.DEVNULL,
                timeout=GIT_TIMEOUT_S,
                check=False,
                env=env,
            )
        except FileNotFoundError:
            raise EvidenceError("evidence propose needs git, and no `git` is on PATH") from None
        except subprocess.TimeoutExpired:
            raise EvidenceError(
                f"git {args[0]} did not answer within {GIT_TIMEOUT_S} s (a remote that waits "
                "for a password?)"
            ) from None
        if check and done.returncode != 0:
            said = " ".join(done.stderr.decode("utf-8", "replace").split())[:300]
            raise EvidenceError(f"git {args[0]} failed: {said or done.returncode}")
        return done.stdout.decode("utf-8", "replace").strip()

    def rev(self, ref: str) -> str | None:
        found = self.run("rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}", check=False)
        return found or None


def git_root(config_dir: Path) -> Path:
    if not config_dir.is_dir():
        raise ConfigError(str(config_dir), "no such config directory: pass --config DIR")
    found = Git(config_dir).run("rev-parse", "--show-toplevel", check=False)
    if not found:
        raise EvidenceError(
            f"{config_dir} is not in a git work tree: evidence propose commits to a branch "
            "of the catalog's repository"
        )
    return Path(found).resolve()


def propose(
    catalog: Catalog,
    db: Path,
    branch: str = DEFAULT_BRANCH,
    scope: str = "",
    forge: bool = False,
) -> Proposal:
    """Build the proposal's branch (or leave it as it is); with `forge`, ask the forge
    first whether the last proposal was closed without merging."""
    config_dir = catalog.config_dir
    root = git_root(config_dir)
    git = Git(root)
    if branch.startswith("-") or git.run("check-ref-format", "--branch", branch, check=False) == "":
        raise EvidenceError(f"--branch {branch!r} is not a branch name git takes")
    folder = config_dir.resolve().relative_to(root)
    dirty = git.run("status", "--porcelain", "--", str(folder) or ".")
    if dirty:
        first = first_line(dirty).split(maxsplit=1)[-1]  # (its path, past the status)
        raise EvidenceError(
            f"the catalog has uncommitted changes ({first}): commit or stash them first, so "
            "that the proposal starts from a commit"
        )
    base = git.run("symbolic-ref", "--quiet", "--short", "HEAD", check=False)
    if not base or base == branch:
        raise EvidenceError(
            "check out the branch to propose against (main) first: HEAD is "
            + (f"{branch} itself" if base else "detached")
        )
    base_commit = git.run("rev-parse", "HEAD")
    if not db.is_file():
        raise EvidenceError(f"no database at {db}: run `evidence refresh` first")
    now = clock.now()
    upgrade_file(db)
    out = Proposal(branch, base, base_commit, root)
    with refresh_lock(db):
        with session(db, now=now) as con:
            last = proposals.last_proposal(con, branch)
            _never_over_a_person(git, branch, base_commit, last)
            if forge and last is not None:
                with GitHub(repository_from(_origin(git))) as hub:
                    pulls = hub.pulls_of(branch)
                if pulls and _declined(pulls[0], last):
                    out.declined = proposals.decline(con, branch, last.head_commit, now)
            declined = proposals.declined(con)
            carried = proposals.items_of(con, branch, last.head_commit) if last else set()
            queue = review_items(con, now, scope)
            for item in queue:
                taken = _settled(con, catalog, item, root, scope)
                if taken is None:
                    out.unsettled.append(item)
                elif taken.proposed in declined:
                    out.skipped += 1
                else:
                    out.items.append(taken)
        if out.items and last is not None and _unchanged(git, out, last, carried):
            out.head = last.head_commit  # it says all this already: its plan, read again
            with _worktree(git, out.head) as tree:
                plan = run_plan(tree / folder, db, out.base_commit)
            out.plan = replace(plan, base=out.base)
        elif out.items:
            _build(git, out, folder, db)
        with session(db, now=now) as con:
            if out.head is not None and out.moved:
                proposals.note_proposal(
                    con, branch, out.head, base_commit, [i.proposed for i in out.items], now
                )
    return out


def publish(proposal: Proposal, db: Path, title: str, body: str, push: bool, open_pr: bool) -> None:
    """Push the branch to origin and open or update its one pull request."""
    if proposal.head is None:
        return
    git = Git(proposal.root)
    if push or open_pr:
        _push(git, proposal)
    if open_pr:
        with GitHub(repository_from(_origin(git))) as hub:
            pulls = hub.pulls_of(proposal.branch)
            current = next((p for p in pulls if p.state == "open"), None)
            if current is None:
                proposal.pull = hub.open(proposal.branch, proposal.base, title, body)
            elif proposal.moved:  # updated in place: one pull request per branch
                proposal.pull = hub.update(current.number, title, body)
            else:  # it says all this already
                proposal.pull = current
        with session(db) as con:
            proposals.note_pull_request(
                con, proposal.branch, proposal.head, proposal.pull.number, proposal.pull.url
            )


def _settled(
    con: Connection, catalog: Catalog, item: QueueItem, root: Path, scope: str
) -> Item | None:
    """The item as the page's own wording settles it; None when no page does."""
    if item.kind != "changed" or not item.item:
        return None
    record = next((r for r in catalog.records if r.id == item.record_id), None)
    claim = next((c for c in (record.config.claims if record else []) if c.id == item.item), None)
    if record is None or claim is None:
        return None
    stored = keeping.stored_file(con, record.id)
    if stored is None or stored.digest != file_digest(Path(record.file)):
        return None  # edited since its pages were checked: refresh it first
    try:
        check = choose_check(
            keeping.current_checks(con, record.id, claim.id),
            claim.id,
            item.source,
            keeping.claim_grade(con, record.id, claim.id),
            scope,
        )
    except EvidenceError:
        return None
    words = page_words(check)
    if not words:
        return None
    try:
        file = str(Path(record.file).resolve().relative_to(root))
    except ValueError:  # a record file linked from outside the repository: not its to edit
        return None
    proposed = Proposed(record.id, claim.id, check.source_id, words)
    return Item(proposed, item.what, claim, check, file, item)


def _build(git: Git, out: Proposal, folder: Path, db: Path) -> None:
    """Write every item into its file in a worktree of the base commit, plan the grade
    moves, commit each record apart; move the branch only when its content changes.
    Each file is parsed once: its records' edits are made on its text as it was, all of
    them for the plan, then record by record for the commits."""
    by_record: dict[str, list[Item]] = {}
    for item in out.items:
        by_record.setdefault(item.proposed.record_id, []).append(item)
    by_file: dict[str, list[str]] = {}
    for record_id, items in by_record.items():
        by_file.setdefault(items[0].file, []).append(record_id)
    with _worktree(git, out.base_commit) as tree:
        editors: dict[str, RecordFile] = {}
        for file, records in by_file.items():
            if not (tree / file).is_file():
                raise EvidenceError(
                    f"{file} is not in the commit proposed against (not committed, or ignored "
                    "by git): commit it first"
                )
            editors |= {e.record_id: e for e in RecordFile.several(tree / file, records)}
        for file, records in by_file.items():
            for record_id in list(records):
                try:
                    for item in by_record[record_id]:
                        take_words(editors[record_id], item.claim, item.proposed.words, item.check)
                except EvidenceError:  # its file cannot take it: left to a person
                    _set_aside(out, by_record.pop(record_id))
                    records.remove(record_id)
                    editors[record_id].edits.clear()
            try:
                write_atomically(tree / file, written_together([editors[r] for r in records]))
            except EvidenceError:
                for record_id in records:
                    _set_aside(out, by_record.pop(record_id))
                records.clear()
        if not by_record:
            return
        out.plan = replace(run_plan(tree / folder, db, out.base_commit), base=out.base)
        moves = {r.record_id: (r.grade_before, r.grade_after) for r in out.plan.records}
        git.run("checkout", "-q", "--", ".", cwd=tree)
        made: dict[str, list[Edit]] = {}
        for record_id, items in by_record.items():
            file = items[0].file
            made.setdefault(file, []).extend(editors[record_id].edits)
            write_atomically(tree / file, edited(editors[record_id].text, made[file]))
            subject, body = _message(record_id, items, moves.get(record_id))
            git.run("add", "--", file, cwd=tree)
            git.run("commit", "-q", "--no-verify", "-m", subject, "-m", body, cwd=tree)
            out.commits.append(subject)
        head = git.run("rev-parse", "HEAD", cwd=tree)
    existing = git.rev(f"refs/heads/{out.branch}")
    if existing is not None and _same(git, existing, head, out.base_commit):
        out.head, out.moved = existing, False
        return
    # moved only from where it was seen: a branch moved meanwhile is not overwritten
    git.run("update-ref", f"refs/heads/{out.branch}", head, existing or "")
    out.head, out.moved = head, True


def _set_aside(out: Proposal, items: list[Item]) -> None:
    """Items a record file could not take (written by hand in a way the writer keeps
    whole): not proposed, in the checklist with what settles them."""
    for item in items:
        out.items.remove(item)
        out.unsettled.append(item.queued)


def _declined(pull: PullRequest, last: proposals.LastProposal) -> bool:
    """The newest pull request of the branch was closed unmerged while it held the last
    proposal (its head that proposal's commit): a person said no to those items."""
    if pull.state != "closed" or pull.merged:
        return False
    if pull.head_sha:
        return pull.head_sha == last.head_commit
    return pull.number == last.pull_request


def _unchanged(
    git: Git, out: Proposal, last: proposals.LastProposal | None, carried: set[Proposed]
) -> bool:
    """The branch is where the last proposal left it, on the same base, with the same
    items: nothing to build, nothing to say again."""
    return (
        last is not None
        and last.base_commit == out.base_commit
        and git.rev(f"refs/heads/{out.branch}") == last.head_commit
        and carried == {i.proposed for i in out.items}
    )


def _message(
    record_id: str, items: list[Item], move: tuple[str | None, str | None] | None
) -> tuple[str, str]:
    """`acme: credits $4,000 -> $2,500 on own` (or `acme: 3 claims from their pages`), and
    a body naming each claim, its page and the grade move."""
    if len(items) == 1:
        subject = f"{record_id}: {items[0].proposed.claim_id} {items[0].what}"
    else:
        subject = f"{record_id}: {len(items)} claims from their pages"
    if len(subject) > MAX_SUBJECT:
        subject = f"{record_id}: {len(items)} claim(s) from their pages"
    lines = [
        f"{i.proposed.claim_id}: {i.what} (the wording of {i.proposed.source_id})" for i in items
    ]
    if move is not None and move[0] != move[1]:
        lines.append(f"Grade: {move[0] or '(none)'} -> {move[1] or '(none)'}")
    lines.append("Proposed by `evidence propose` from the pages checked in the last refresh.")
    return subject, "\n".join(lines)


def _same(git: Git, existing: str, head: str, base: str) -> bool:
    """The branch already holds this proposal: on the same base, the same files, the same
    commit subjects."""
    if git.run("rev-parse", f"{existing}^{{tree}}") != git.run("rev-parse", f"{head}^{{tree}}"):
        return False
    if git.run("merge-base", existing, base, check=False) != base:
        return False
    subjects = git.run("log", "--format=%s", f"{base}..{existing}")
    return subjects == git.run("log", "--format=%s", f"{base}..{head}")


def _never_over_a_person(
    git: Git, branch: str, base: str, last: proposals.LastProposal | None
) -> None:
    """A branch with a commit the pipeline did not make is a person's: refuse."""
    for ref in (f"refs/heads/{branch}", f"refs/remotes/origin/{branch}"):
        tip = git.rev(ref)
        if tip is None:
            continue
        if last is not None and tip == last.head_commit:
            continue
        # its author and its committer: a person who amends or rebases a commit of ours
        # is its committer
        authors = git.run("log", "--format=%H %ae %ce", f"{base}..{tip}")
        for line in authors.splitlines():
            sha, author, committer = [*line.split(" "), "", ""][:3]
            email = author if author != EMAIL else committer
            if author != EMAIL or committer != EMAIL:
                raise EvidenceError(
                    f"{branch} holds a commit not made by evidence propose ({sha[:10]} by "
                    f"{email}): merge or delete the branch first; a person's commit is never "
                    "overwritten"
                )


def _origin(git: Git) -> str | None:
    return git.run("remote", "get-url", "origin", check=False) or None


def _push(git: Git, proposal: Proposal) -> None:
    if not _origin(git):
        raise EvidenceError("--push needs a remote named origin in the catalog's repository")
    git.run("fetch", "-q", "origin", check=False)  # what origin holds of the branch now
    remote = git.rev(f"refs/remotes/origin/{proposal.branch}")
    if remote is not None and remote != proposal.head:
        _never_over_a_person(git, proposal.branch, proposal.base_commit, None)
    lease = f"--force-with-lease=refs/heads/{proposal.branch}:{remote or ''}"
    git.run(
        "push", "-q", lease, "origin", f"refs/heads/{proposal.branch}:refs/heads/{proposal.branch}"
    )
    proposal.pushed = True


@contextmanager
def _worktree(git: Git, commit: str) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="evidence-propose-") as tmp:
        tree = Path(tmp) / "tree"
        git.run("worktree", "add", "-q", "--detach", str(tree), commit)
        try:
            yield tree
        finally:
            git.run("worktree", "remove", "--force", str(tree), check=False)
            git.run("worktree", "prune", check=False)
