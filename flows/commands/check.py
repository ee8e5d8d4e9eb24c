"""`evidence check`: the catalog checked offline, as CI and pre-commit run it.

Every config error of every file, then every claim against the stored snapshots and
every `expect:` (flows/commands/offline.py), said as problems at their place in a file:
errors that fail the check, warnings that fail it with --strict.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from evidence_base.errors import ConfigError
from extractors.values import CheckOutcome
from flows.catalog import Ignored, check_catalog
from flows.commands.offline import (
    DOUBTFUL,
    UNCHECKED,
    ClaimResult,
    Evidence,
    RecordResult,
    SourceOutcome,
    grade_records,
)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing `evidence check` reports, at its place in a file."""

    level: str  # error | warning
    kind: str  # config | claim | condition
    file: str
    line: int | None
    message: str
    record_id: str | None = None
    claim_id: str | None = None


@dataclass(frozen=True, slots=True)
class CheckReport:
    config_errors: tuple[ConfigError, ...]
    records: tuple[RecordResult, ...]
    db: Path
    db_found: bool
    snapshots: int
    strict: bool = False
    only_files: frozenset[Path] | None = field(default=None)
    ignored: tuple[Ignored, ...] = ()  # keys of settings.yaml out of a catalog's bounds
    settings_file: Path | None = None

    def problems(self) -> list[Problem]:
        files = {e.file: i for i, e in reversed(list(enumerate(self.config_errors)))}
        errors = sorted(self.config_errors, key=lambda e: (files[e.file], e.line or 0))
        out = [  # file by file as read, each in the order of its lines
            Problem("error", "config", e.file, e.line, e.reason)
            for e in errors
            if self._wanted(e.file)
        ]
        if self.settings_file is not None and self._wanted(str(self.settings_file)):
            out += [
                Problem(
                    "error" if self.strict else "warning",
                    "settings",
                    str(self.settings_file),
                    _line_of(self.settings_file, item.key),
                    item.line(),
                )
                for item in self.ignored
            ]
        for record in self.records:
            if not self._wanted(record.file):
                continue
            for claim in record.claims:
                out.extend(self._claim_problems(claim))
        return out

    def _claim_problems(self, claim: ClaimResult) -> list[Problem]:
        out = []
        where = f"{claim.record_id}/{claim.claim_id}"
        if claim.doubted:
            level = "error" if claim.broken or self.strict else "warning"
            said = "; ".join(_said(s) for s in claim.sources if s.outcome in DOUBTFUL)
            held = [s.source_id for s in claim.sources if s.outcome == CheckOutcome.CONFIRMED]
            tail = f"; confirmed on {', '.join(held)}" if held else ""
            out.append(
                Problem(
                    level,
                    "claim",
                    claim.file,
                    claim.line,
                    f"{where}: {said}{tail} (grade {claim.grade})",
                    claim.record_id,
                    claim.claim_id,
                )
            )
        if claim.condition in ("warn", "fail"):
            level = "error" if claim.condition == "fail" or self.strict else "warning"
            out.append(
                Problem(
                    level,
                    "condition",
                    claim.file,
                    claim.line,
                    f"{where}: expect: {claim.condition_detail}",
                    claim.record_id,
                    claim.claim_id,
                )
            )
        return out

    def _wanted(self, file: str) -> bool:
        return self.only_files is None or Path(file).resolve() in self.only_files

    @property
    def exit_code(self) -> int:
        """0 when all hold, 1 when a claim or an `error` condition broke, 2 for a config
        error."""
        problems = self.problems()
        if any(p.kind == "config" for p in problems):
            return 2
        return 1 if any(p.level == "error" for p in problems) else 0

    def counts(self) -> dict[str, int]:
        """Checks (claim x source) by outcome, of the files reported on."""
        counts = dict.fromkeys([*CheckOutcome, UNCHECKED], 0)
        for record in self.records:
            if self._wanted(record.file):
                for claim in record.claims:
                    for s in claim.sources:
                        counts[s.outcome or UNCHECKED] += 1
        return counts


def _said(s: SourceOutcome) -> str:
    if s.outcome == CheckOutcome.CHANGED and s.found_status:
        return f"changed on {s.source_id} ({s.role}): the page says {s.found_status!r}"
    if s.outcome == CheckOutcome.CHANGED and s.found_text:
        return f"changed on {s.source_id} ({s.role}): the page says {s.found_text!r}"
    return f"{s.outcome} on {s.source_id} ({s.role})"


def _line_of(path: Path, key: str) -> int | None:
    """The line of settings.yaml that sets a dotted key's last part, when one does."""
    leaf = key.rsplit(".", 1)[-1] + ":"
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    return next((i for i, line in enumerate(lines, 1) if line.strip().startswith(leaf)), None)


def _catalog_file(config_dir: Path, path: Path) -> None:
    """A file `check FILE` may name: one that exists and is the catalog's (a mistyped
    path in CI must fail, not pass with nothing checked)."""
    if not path.is_file():
        raise ConfigError(str(path), "no such file: give a record file of the catalog")
    records = (config_dir / "records").resolve()
    real = path.resolve()
    if real == (config_dir / "settings.yaml").resolve():
        return
    if real.parent != records or real.suffix not in (".yaml", ".yml"):
        raise ConfigError(
            str(path),
            f"not a record file of the catalog at {config_dir}: record files are "
            f"{config_dir / 'records'}/*.yaml (and settings.yaml)",
        )


def run_check(
    config_dir: Path,
    db: Path,
    strict: bool = False,
    only_files: Iterable[Path] | None = None,
) -> CheckReport:
    """The catalog at config_dir, checked against the database at db (when there is
    one); with only_files, only the problems of these files are reported (each must be a
    record file of the catalog, or its settings.yaml: else a ConfigError)."""
    for path in only_files or ():
        _catalog_file(config_dir, path)
    checked = check_catalog(config_dir)
    found = db.is_file()
    evidence = Evidence(db if found else None)
    records = grade_records(checked.catalog, evidence)
    return CheckReport(
        config_errors=checked.errors,
        records=tuple(records),
        db=db,
        db_found=found,
        snapshots=evidence.snapshots,
        strict=strict,
        only_files=None if only_files is None else frozenset(p.resolve() for p in only_files),
        ignored=checked.ignored,
        settings_file=config_dir / "settings.yaml",
    )
