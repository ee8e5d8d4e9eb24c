"""What `evidence check` found, as a person, a program or GitHub Actions reads it."""

from __future__ import annotations

import json
import re
from pathlib import Path

from flows.commands.check import CheckReport, Problem

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]+")  # a page's words never steer a terminal


def render_check(report: CheckReport, fmt: str) -> str:
    problems = report.problems()
    if fmt == "json":
        return json.dumps([_as_dict(p) for p in problems], indent=2, ensure_ascii=False)
    if fmt == "github":
        lines = [_workflow_command(p) for p in problems]
        if not report.db_found:
            lines.append(f"::notice::{_escape(_no_database(report))}")
        return "\n".join(lines)
    lines = [f"{_place(p.file, p.line)}: {p.level}: {_clean(p.message)}" for p in problems]
    lines.append(_summary(report, problems))
    return "\n".join(lines)


def _summary(report: CheckReport, problems: list[Problem]) -> str:
    errors = sum(p.level == "error" for p in problems)
    warnings = len(problems) - errors
    tally = f"{errors} error(s), {warnings} warning(s)"
    if not report.db_found:
        return f"{_clean(_no_database(report))}; {tally}"
    counts = report.counts()
    said = ", ".join(f"{n} {outcome}" for outcome, n in counts.items())
    claims = sum(len(r.claims) for r in report.records)
    checks = sum(counts.values())
    return _clean(
        f"checked {len(report.records)} record(s), {claims} claim(s) against "
        f"{report.snapshots} stored snapshot(s) of {report.db}: of {checks} check(s) of a "
        f"claim on a source, {said}; {tally}"
    )


def _no_database(report: CheckReport) -> str:
    return (
        f"no database at {report.db}: checked the config only "
        "(`evidence refresh` stores the snapshots claims are checked against)"
    )


def no_database_note(report: CheckReport) -> str | None:
    """For json output, said on stderr: the claims were not checked."""
    return None if report.db_found else _no_database(report)


def _as_dict(p: Problem) -> dict[str, object]:
    return {
        "level": p.level,
        "kind": p.kind,
        "file": _clean(_shown(p.file)),
        "line": p.line,
        "record_id": p.record_id,
        "claim_id": p.claim_id,
        "message": _clean(p.message),
    }


def _workflow_command(p: Problem) -> str:
    """`::error file=F,line=L::message`, as docs/commands.md writes it, escaped as the runner
    reads it."""
    props = [f"file={_escape_property(_clean(_shown(p.file)))}"]
    if p.line:
        props.append(f"line={p.line}")
    return f"::{p.level} {','.join(props)}::{_escape(_clean(p.message))}"


def _escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape(text).replace(":", "%3A").replace(",", "%2C")


def _place(file: str, line: int | None) -> str:
    shown = _clean(_shown(file))  # a file's name is no line of its own, nor a command
    return f"{shown}:{line}" if line else shown


def _shown(file: str) -> str:
    """Relative to the current directory when under it, as an annotation needs it."""
    path = Path(file)
    if path.is_absolute() and path.is_relative_to(Path.cwd()):
        return str(path.relative_to(Path.cwd()))
    return file


def _clean(text: str) -> str:
    return _CONTROL.sub(" ", text)
