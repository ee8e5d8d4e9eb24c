"""What `evidence refresh` prints on stdout: the run's report, as a dbt run summary does.

The conditions that started to break or hold again, first; the records whose grade or
freshness moved, each with the claim checks that moved it; the others counted; every
claim whose value moved on a source; the URLs fetched (new, unchanged and failed add up
to them); the failed sources, the first few of them (flows/alerting/report.py says them,
the same for a run `evidence serve` starts); with --verbose, the table of every record.
"""

from __future__ import annotations

from dataclasses import fields

from evidence_cli.render import table
from extractors.printable import one_line
from flows.alerting import RunReport
from warehouse.queries import RecordSummary


def report_text(report: RunReport, verbose: bool = False) -> str:
    # URLs, errors and figures came from pages: each line one line, escaped
    lines = [one_line(line) for line in report.summary_lines(verbose)]
    if verbose:
        columns = [f.name for f in fields(RecordSummary)]
        rows = [[getattr(r, c) for c in columns] for r in report.records]
        lines += ["", table(columns, rows)]  # (its cells are one line each)
    return "\n".join(lines)
