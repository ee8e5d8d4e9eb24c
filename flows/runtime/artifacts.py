"""Prefect artifacts of a refresh: what a Prefect user sees, versioned, on the Artifacts
page of their server. A table keyed `evidence-status` (one row per record) and a
markdown report keyed `evidence-changes` (what changed in this run)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from warehouse.alerts import EvidenceState

STATUS_KEY = "evidence-status"
CHANGES_KEY = "evidence-changes"
MAX_LINES = 200  # of the changes report; the rest is counted


def publish(summary: Sequence[dict[str, Any]], before: EvidenceState, after: EvidenceState) -> None:
    """Both artifacts of one run (`summary`: its rows, as the command prints them)."""
    from prefect.artifacts import create_markdown_artifact, create_table_artifact

    create_table_artifact(
        [_cells(row) for row in summary],
        key=STATUS_KEY,
        description="Every record after this refresh: grade, freshness, sources.",
    )
    create_markdown_artifact(
        changes_report(summary, before, after),
        key=CHANGES_KEY,
        description="What changed in this refresh.",
    )


def _cells(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v.isoformat() if isinstance(v, datetime) else v for k, v in row.items()}


def changes_report(
    summary: Sequence[dict[str, Any]], before: EvidenceState, after: EvidenceState
) -> str:
    """Markdown: grades and freshness that moved, claim checks that moved, sources that
    failed in this run."""
    lines = ["# What changed in this refresh", ""]
    moved = [
        f"- **{record}**: {old[0]} ({old[1]}) -> {new[0]} ({new[1]})"
        for record, new in sorted(after.records.items())
        if (old := before.records.get(record)) is not None and old != new
    ]
    fresh = [
        f"- **{r}**: {g} ({f}), first graded"
        for r, (g, f) in sorted(after.records.items())
        if r not in before.records
    ]
    checks = []
    for key, check in sorted(after.checks.items()):
        was = before.checks.get(key)
        if was is None or (was.outcome, was.values) != (check.outcome, check.values):
            record, claim, source = key
            outcome = was.outcome if was is not None else "unchecked"
            checks.append(f"- {record} / {claim} on {source}: {outcome} -> {check.outcome}")
    failing = [
        f"- **{row['record']}**: {row['failed']} source(s) failed"
        for row in summary
        if row.get("failed")
    ]
    for title, items in (
        ("Grades and freshness", moved + fresh),
        ("Claim checks", checks),
        ("Sources that failed", failing),
    ):
        lines.append(f"## {title}")
        lines.extend(items[:MAX_LINES] or ["- none"])
        if len(items) > MAX_LINES:
            lines.append(f"- ... and {len(items) - MAX_LINES} more")
        lines.append("")
    return "\n".join(lines)
