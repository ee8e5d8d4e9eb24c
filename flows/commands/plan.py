"""`evidence plan`: what a change to the catalog does, before it is merged.

The catalog at a git ref (its files read with `git show REF:path`, the catalog folder
found from the repository's root) and the catalog in the working tree are both graded
against the stored snapshots, as `evidence check` grades (no fetch, nothing written),
and compared: records and claims added, removed and edited, each affected record's
grade before -> after, and the new quotes that no stored page carries.
"""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from evidence_base.errors import ConfigError, EvidenceError
from extractors.values import CheckOutcome, Grade
from flows.catalog import Record, check_catalog
from flows.commands.offline import (
    UNCHECKED,
    ClaimResult,
    Evidence,
    RecordResult,
    grade_records,
)

CLAIM_KEYS = ("quote", "status", "sources", "figure", "expect")
RECORD_KEYS = ("title", "freshness_window", "fields", "sources")


@dataclass(frozen=True, slots=True)
class ClaimChange:
    claim_id: str
    change: str  # added | removed | edited
    keys: tuple[str, ...]  # for an edit: what changed
    grade_before: str | None
    grade_after: str | None
    outcomes: tuple[tuple[str, str], ...]  # (source, outcome) in the working tree
    absent_everywhere: bool  # a new quote absent on every source that has a snapshot


@dataclass(frozen=True, slots=True)
class RecordChange:
    record_id: str
    change: str  # added | removed | edited
    keys: tuple[str, ...]
    grade_before: str | None
    grade_after: str | None
    claims: tuple[ClaimChange, ...]


@dataclass(frozen=True, slots=True)
class Plan:
    base: str
    catalog: str  # the catalog folder, from the repository's root
    db: Path
    db_found: bool
    records: tuple[RecordChange, ...]
    settings_changed: bool
    config_errors: tuple[ConfigError, ...]  # of the working tree: the plan stops at them
    base_errors: int  # mistakes of the catalog at the ref (its records left out)

    @property
    def headline(self) -> str:
        if self.config_errors:
            return f"{len(self.config_errors)} config error(s) in the working tree"
        counts: dict[str, int] = {}
        for r in self.records:
            counts[r.change] = counts.get(r.change, 0) + 1
        parts = [f"{n} record(s) {change}" for change, n in sorted(counts.items())]
        moved = [r for r in self.records if r.grade_before != r.grade_after]
        if moved:
            parts.append(f"{len(moved)} grade(s) move")
        absent = sum(c.absent_everywhere for r in self.records for c in r.claims)
        if absent:
            parts.append(f"{absent} new quote(s) found on no stored page")
        if self.settings_changed:
            parts.append("settings changed")
        return ", ".join(parts) if parts else "no differences found"


def run_plan(config_dir: Path, db: Path, base: str = "HEAD") -> Plan:
    root = _git_root(config_dir)
    folder = config_dir.resolve().relative_to(root)
    _verify(root, base)
    head = check_catalog(config_dir)
    found = db.is_file()
    evidence = Evidence(db if found else None)
    with tempfile.TemporaryDirectory(prefix="evidence-plan-") as tmp:
        before = check_catalog(_checkout(root, base, folder, Path(tmp) / "config"))
        old = {r.id: r for r in before.catalog.records}
        old_graded = {r.record_id: r for r in grade_records(before.catalog, evidence)}
    new = {r.id: r for r in head.catalog.records}
    new_graded = {r.record_id: r for r in grade_records(head.catalog, evidence)}
    changes = []
    for rid in [*new, *(rid for rid in old if rid not in new)]:
        change = _record_change(rid, old.get(rid), new.get(rid), old_graded, new_graded)
        if change is not None:
            changes.append(change)
    return Plan(
        base=base,
        catalog=str(PurePosixPath(folder)) if str(folder) != "." else ".",
        db=db,
        db_found=found,
        records=tuple(changes),
        settings_changed=before.catalog.settings != head.catalog.settings,
        config_errors=head.errors,
        base_errors=len(before.errors),
    )


def _record_change(
    rid: str,
    old: Record | None,
    new: Record | None,
    old_graded: dict[str, RecordResult],
    new_graded: dict[str, RecordResult],
) -> RecordChange | None:
    before = old_graded.get(rid)
    after = new_graded.get(rid)
    old_claims = {c.id: c for c in old.config.claims} if old else {}
    new_claims = {c.id: c for c in new.config.claims} if new else {}
    before_claims = {c.claim_id: c for c in before.claims} if before else {}
    after_claims = {c.claim_id: c for c in after.claims} if after else {}
    claims = []
    for cid in [*new_claims, *(c for c in old_claims if c not in new_claims)]:
        o, n = old_claims.get(cid), new_claims.get(cid)
        keys: tuple[str, ...]
        if o is None:
            kind, keys = "added", ()
        elif n is None:
            kind, keys = "removed", ()
        else:
            keys = tuple(k for k in CLAIM_KEYS if getattr(o, k, None) != getattr(n, k, None))
            if not keys:
                continue
            kind = "edited"
        result = after_claims.get(cid)
        new_quote = kind == "added" or "quote" in keys or "status" in keys
        claims.append(
            ClaimChange(
                claim_id=cid,
                change=kind,
                keys=keys,
                grade_before=_grade(before_claims.get(cid)),
                grade_after=_grade(result),
                outcomes=tuple((s.source_id, s.outcome or UNCHECKED) for s in result.sources)
                if result
                else (),
                absent_everywhere=new_quote and result is not None and _absent_everywhere(result),
            )
        )
    record_keys: tuple[str, ...]
    if old is None:
        kind, record_keys = "added", ()
    elif new is None:
        kind, record_keys = "removed", ()
    else:
        record_keys = tuple(
            k for k in RECORD_KEYS if getattr(old.config, k) != getattr(new.config, k)
        )
        if claims or old.config.claims != new.config.claims:  # edited, or only reordered
            record_keys = (*record_keys, "claims")
        if not record_keys:
            return None
        kind = "edited"
    return RecordChange(
        record_id=rid,
        change=kind,
        keys=record_keys,
        grade_before=before.grade.value if before else None,
        grade_after=after.grade.value if after else None,
        claims=tuple(claims),
    )


def _grade(result: ClaimResult | None) -> str | None:
    return None if result is None else Grade(result.grade).value


def _absent_everywhere(result: ClaimResult) -> bool:
    seen = [s.outcome for s in result.sources if s.outcome is not None]
    return bool(seen) and all(o == CheckOutcome.ABSENT for o in seen)


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, timeout=60, check=False
    )


def _git_root(config_dir: Path) -> Path:
    if not config_dir.is_dir():
        raise ConfigError(str(config_dir), "no such config directory: pass --config DIR")
    try:
        done = _git(config_dir, "rev-parse", "--show-toplevel")
    except FileNotFoundError:
        raise EvidenceError("evidence plan needs git, and no `git` is on PATH") from None
    if done.returncode != 0:
        raise EvidenceError(
            f"{config_dir} is not in a git repository: evidence plan compares the catalog "
            "at a git ref with the working tree"
        )
    return Path(done.stdout.decode().strip()).resolve()


def _verify(root: Path, ref: str) -> None:
    if (
        ref.startswith("-")
        or _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").returncode
    ):
        raise EvidenceError(f"no commit {ref!r} in {root}: give --base a branch, tag or commit")


def _checkout(root: Path, ref: str, folder: Path, target: Path) -> Path:
    """The catalog's settings.yaml and records/*.yaml at ref, written under target."""
    prefix = PurePosixPath(folder)
    listed = _git(root, "ls-tree", "-r", "--name-only", "-z", ref, "--", f"{prefix}/")
    (target / "records").mkdir(parents=True)
    for name in listed.stdout.decode().split("\0"):
        path = PurePosixPath(name)
        try:
            inner = path.relative_to(prefix) if str(prefix) != "." else path
        except ValueError:
            continue
        wanted = inner == PurePosixPath("settings.yaml") or (
            inner.parent == PurePosixPath("records") and inner.suffix in (".yaml", ".yml")
        )
        if wanted:
            shown = _git(root, "show", f"{ref}:{name}")
            if shown.returncode == 0:
                (target / inner).write_bytes(shown.stdout)
    return target
