"""A run's report: what it tells the user on stdout, in its artifact and in its alerts.

Each record whose grade or freshness moved, with the claim checks that moved it (for a
`changed` one, its figures as written before and after); the records that did not move,
counted; every claim whose value moved on a source, its grade moved or not; the
conditions that started to break or hold again; the URLs fetched, with a new snapshot,
unchanged or failed (these add up); and the failed sources, each with its URL, outcome
and error.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from evidence_base.errors import first_line
from flows.alerting.moves import ClaimMove, ConditionMove, RecordMove, ValueMove
from warehouse.queries import HeldPage, RecordSummary, RunFailure

MAX_FAILED = 10  # failed sources named; `evidence sources --failing` lists every one
MAX_FIRST = 10  # records graded for the first time named one by one; more are counted


@dataclass(frozen=True, slots=True)
class Failure:
    """A URL whose live fetch failed in the run, with the sources it backs."""

    url: str
    outcome: str
    error: str | None
    sources: tuple[str, ...]  # "record/source"

    def line(self) -> str:
        reason = first_line(self.error or "")
        why = f": {reason}" if reason else ""
        return f"{self.url} ({', '.join(self.sources)}): {self.outcome}{why}"


@dataclass(frozen=True, slots=True)
class RunReport:
    run_id: str
    records: list[RecordSummary]  # one per record (grade, freshness, ...)
    moved: list[RecordMove]
    claims: list[ClaimMove]  # every check that moved, its record's grade moved or not
    failures: list[Failure]
    urls: int = 0
    new: int = 0  # URLs with a new snapshot
    unchanged: int = 0  # a 304, or the same reading
    failed: int = 0
    alerts: list[str] = field(default_factory=list)  # titles of the messages raised
    values: list[ValueMove] = field(default_factory=list)  # every value that moved
    conditions: list[ConditionMove] = field(default_factory=list)  # broke or hold again
    held: list[HeldPage] = field(default_factory=list)  # pages held for review now
    scope: str = ""  # ` --config DIR --db PATH` for the commands the summary names

    @property
    def first_graded(self) -> list[RecordMove]:
        return [m for m in self.moved if m.was is None]

    @property
    def regraded(self) -> list[RecordMove]:
        """Records graded before whose grade or freshness moved."""
        return [m for m in self.moved if m.was is not None]

    @property
    def unmoved(self) -> int:
        return len(self.records) - len(self.moved)

    def summary_lines(self, verbose: bool = False) -> list[str]:
        """What moved and what failed, as `evidence refresh` (and a served run) says it."""
        lines: list[str] = [c.line() for c in self.conditions]  # broken conditions first
        for move in self.regraded:
            lines.append(move.line())
            lines.extend(f"  {c.line()}" for c in move.claims)
            if not move.claims:
                lines.append(f"  {move.why}")
        first = self.first_graded
        if len(first) <= MAX_FIRST:
            lines.extend(m.line() for m in first)
        else:
            grades = Counter(m.now[0] for m in first)
            counted = ", ".join(f"{grade} {n}" for grade, n in sorted(grades.items()))
            lines.append(f"{len(first)} records graded for the first time: {counted}")
        if self.values:
            lines.append(f"{len(self.values)} value(s) moved:")
            lines.extend(f"  {v.record_id}: {v.line()}" for v in self.values)
        if self.unmoved or not self.moved:
            hint = "" if verbose else " (--verbose lists every record)"
            lines.append(f"{_records(self.unmoved)} did not move{hint}")
        lines.append(
            f"{self.urls} URL(s) fetched: {self.new} with a new snapshot, "
            f"{self.unchanged} unchanged, {self.failed} failed"
        )
        for failure in self.failures[:MAX_FAILED]:
            lines.append(f"failed: {failure.line()}")
        if len(self.failures) > MAX_FAILED:
            more = len(self.failures) - MAX_FAILED
            lines.append(
                f"...and {more} more failed (evidence sources --failing{self.scope} lists them)"
            )
        for h in self.held:
            lines.append(
                f"held for review: {h.record_id}/{h.source_id}: {first_line(h.reason)} "
                f"(evidence accept {h.record_id} {h.source_id}{self.scope} lets it count)"
            )
        return lines


def _records(n: int) -> str:
    return f"{n} record" if n == 1 else f"{n} records"


def failures_by_url(rows: list[RunFailure]) -> list[Failure]:
    """The failed sources of a run (warehouse.queries.run_failures), one entry a URL."""
    by_url: dict[str, list[RunFailure]] = {}
    for row in rows:
        by_url.setdefault(row.url, []).append(row)
    return [
        Failure(
            url=url,
            outcome=str(group[0].outcome),
            error=group[0].error,
            sources=tuple(f"{r.record_id}/{r.source_id}" for r in group),
        )
        for url, group in by_url.items()
    ]
