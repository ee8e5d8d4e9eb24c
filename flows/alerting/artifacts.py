"""Prefect artifacts of a refresh: what a Prefect user sees, versioned, on the Artifacts
page of their server. A table keyed `evidence-status` (one row per record) and a
markdown report keyed `evidence-changes` (what changed in this run: the run's report,
as the command prints it)."""

from __future__ import annotations

from dataclasses import fields
from datetime import datetime
from typing import Any

from flows.alerting.report import RunReport
from warehouse.queries import RecordSummary

STATUS_KEY = "evidence-status"
CHANGES_KEY = "evidence-changes"
MAX_LINES = 200  # of each part of the changes report; the rest is counted


def publish(report: RunReport) -> None:
    """Both artifacts of one run."""
    from prefect.artifacts import create_markdown_artifact, create_table_artifact

    create_table_artifact(
        [_cells(row) for row in report.records],
        key=STATUS_KEY,
        description="Every record after this refresh: grade, freshness, sources.",
    )
    create_markdown_artifact(
        changes_report(report),
        key=CHANGES_KEY,
        description="What changed in this refresh.",
    )


def _cells(row: RecordSummary) -> dict[str, Any]:
    """The row's fields by name, in the order run_summary.sql gives them."""
    values = {f.name: getattr(row, f.name) for f in fields(row)}
    return {k: v.isoformat() if isinstance(v, datetime) else v for k, v in values.items()}


def changes_report(report: RunReport) -> str:
    """Markdown: grades and freshness that moved (and what moved them), claim checks that
    moved, sources that failed in this run."""
    lines = ["# What changed in this refresh", ""]
    moved = []
    for m in report.moved:
        grade, freshness = m.now
        if m.was is None:
            moved.append(f"- **{m.record_id}**: {grade} ({freshness}), first graded")
            continue
        moved.append(f"- **{m.record_id}**: {m.was[0]} ({m.was[1]}) -> {grade} ({freshness})")
        moved.extend(f"  - {c.line()}" for c in m.claims)
    checks = [f"- {c.record_id} / {c.line()}" for c in report.claims]
    values = [f"- {v.record_id} / {v.line()}" for v in report.values]
    conditions = [f"- {c.line()}" for c in report.conditions]
    failing = [f"- {f.line()}" for f in report.failures]
    counts = (
        f"{report.urls} URLs: {report.new} with a new snapshot, {report.unchanged} unchanged, "
        f"{report.failed} failed; {report.unmoved} records did not move"
    )
    for title, items in (
        ("Conditions", conditions),
        ("Grades and freshness", moved),
        ("Claim checks", checks),
        ("Values that moved", values),
        ("Sources that failed", failing),
    ):
        lines.append(f"## {title}")
        lines.extend(items[:MAX_LINES] or ["- none"])
        if len(items) > MAX_LINES:
            lines.append(f"- ... and {len(items) - MAX_LINES} more")
        lines.append("")
    lines.append(counts)
    return "\n".join(lines)
