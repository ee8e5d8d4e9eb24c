"""What `evidence refresh` prints on stdout: the run's report, as a dbt run summary does.

The conditions that started to break or hold again, first; the records whose grade or
freshness moved, each with the claim checks that moved it; the others counted; every
claim whose value moved on a source; the URLs fetched (new, unchanged and failed add up
to them); the failed sources, the first MAX_FAILED of them.
"""

from __future__ import annotations

from collections import Counter

from cli.render import SUMMARY_COLUMNS, table
from flows.alerting import RunReport

MAX_FAILED = 10  # failed sources named; `evidence sources --failing` lists every one
MAX_FIRST = 10  # records graded for the first time named one by one; more are counted


def report_text(report: RunReport, verbose: bool = False) -> str:
    lines: list[str] = [c.line() for c in report.conditions]  # broken conditions first
    for move in report.regraded:
        lines.append(move.line())
        lines.extend(f"  {c.line()}" for c in move.claims)
        if not move.claims:
            lines.append("  no claim check moved: a source stopped or started counting")
    first = report.first_graded
    if len(first) <= MAX_FIRST:
        lines.extend(m.line() for m in first)
    else:
        grades = Counter(m.now[0] for m in first)
        counted = ", ".join(f"{grade} {n}" for grade, n in sorted(grades.items()))
        lines.append(f"{len(first)} records graded for the first time: {counted}")
    if report.values:
        lines.append(f"{len(report.values)} value(s) moved:")
        lines.extend(f"  {v.record_id}: {v.line()}" for v in report.values)
    if report.unmoved or not report.moved:
        hint = "" if verbose else " (--verbose lists every record)"
        lines.append(f"{_records(report.unmoved)} did not move{hint}")
    lines.append(
        f"{report.urls} URL(s) fetched: {report.new} with a new snapshot, "
        f"{report.unchanged} unchanged, {report.failed} failed"
    )
    for failure in report.failures[:MAX_FAILED]:
        lines.append(f"failed: {failure.line()}")
    if len(report.failures) > MAX_FAILED:
        more = len(report.failures) - MAX_FAILED
        lines.append(f"...and {more} more failed (evidence sources --failing lists them)")
    if verbose:
        rows = [[r[c] for c in SUMMARY_COLUMNS] for r in report.records]
        lines += ["", table(SUMMARY_COLUMNS, rows)]
    return "\n".join(lines)


def _records(n: int) -> str:
    return f"{n} record" if n == 1 else f"{n} records"
