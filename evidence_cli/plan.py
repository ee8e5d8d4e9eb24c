"""`evidence plan` as a pull request comment (markdown) or for a program (json)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from flows.commands.plan import Plan, RecordChange

_MARKDOWN = re.compile(r"([\\`*_\[\]<>|#])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]+")


def render_plan(plan: Plan, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(_as_dict(plan), indent=2, ensure_ascii=False)
    return _markdown(plan)


def _markdown(plan: Plan) -> str:
    lines = [f"**evidence plan** (`{_md(plan.base)}` -> working tree): {plan.headline}", ""]
    if plan.config_errors:
        lines.append("Config errors (`evidence check` lists them with their lines):")
        lines.append("")
        lines += [
            f"- `{_md(_shown(e.file))}:{e.line or ''}` {_md(e.reason)}" for e in plan.config_errors
        ]
        return "\n".join(lines)
    where = (
        f"stored snapshots of `{_md(str(plan.db))}`"
        if plan.db_found
        else f"no stored snapshots (no database at `{_md(str(plan.db))}`)"
    )
    lines.append(f"Catalog `{_md(plan.catalog)}`, graded against {where}; nothing fetched.")
    if plan.base_errors:
        lines.append(f"The catalog at `{_md(plan.base)}` had {plan.base_errors} config error(s).")
    if not plan.records:
        return "\n".join(lines)
    lines += ["", "| record | change | grade |", "| --- | --- | --- |"]
    for r in plan.records:
        lines.append(
            f"| `{r.record_id}` | {_change(r)} | {_moves(r.grade_before, r.grade_after)} |"
        )
    for r in plan.records:
        if not r.claims:
            continue
        lines += ["", f"`{r.record_id}`:"]
        for c in r.claims:
            said = f"claim `{c.claim_id}` {c.change}"
            if c.keys:
                said += f" ({', '.join(c.keys)})"
            if c.grade_before != c.grade_after:
                said += f": {_moves(c.grade_before, c.grade_after)}"
            elif c.grade_after:
                said += f": {c.grade_after}"
            if c.absent_everywhere:
                said += " — **absent on every source**"
            elif c.outcomes and c.change != "removed":
                said += " — " + ", ".join(f"{o} on {s}" for s, o in c.outcomes)
            lines.append(f"- {said}")
    return "\n".join(lines)


def _change(r: RecordChange) -> str:
    return f"{r.change} ({', '.join(r.keys)})" if r.keys else r.change


def _moves(before: str | None, after: str | None) -> str:
    if before == after:
        return before or ""
    return f"{before or '(none)'} -> {after or '(none)'}"


def _md(text: str) -> str:
    return _MARKDOWN.sub(r"\\\1", _CONTROL.sub(" ", text))


def _shown(file: str) -> str:
    path = Path(file)
    if path.is_absolute() and path.is_relative_to(Path.cwd()):
        return str(path.relative_to(Path.cwd()))
    return file


def _as_dict(plan: Plan) -> dict[str, object]:
    return {
        "base": plan.base,
        "catalog": plan.catalog,
        "database": str(plan.db) if plan.db_found else None,
        "headline": plan.headline,
        "settings_changed": plan.settings_changed,
        "config_errors": [
            {"file": _shown(e.file), "line": e.line, "message": e.reason}
            for e in plan.config_errors
        ],
        "records": [
            {
                "record_id": r.record_id,
                "change": r.change,
                "keys": list(r.keys),
                "grade_before": r.grade_before,
                "grade_after": r.grade_after,
                "claims": [
                    {
                        "claim_id": c.claim_id,
                        "change": c.change,
                        "keys": list(c.keys),
                        "grade_before": c.grade_before,
                        "grade_after": c.grade_after,
                        "outcomes": {s: o for s, o in c.outcomes},
                        "absent_everywhere": c.absent_everywhere,
                    }
                    for c in r.claims
                ],
            }
            for r in plan.records
        ],
    }
