"""A run's report: what it tells the user on stdout, in its artifact and in its alerts.

Each record whose grade or freshness moved, with the claim checks that moved it (for a
`changed` one, its figures as written before and after); the records that did not move,
counted; every claim whose value moved on a source, its grade moved or not; the
conditions that started to break or hold again; the URLs fetched, with a new snapshot,
unchanged or failed (these add up); and the failed sources, each with its URL, outcome
and error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flows.alerting.moves import ClaimMove, ConditionMove, RecordMove, ValueMove


@dataclass(frozen=True, slots=True)
class Failure:
    """A URL whose live fetch failed in the run, with the sources it backs."""

    url: str
    outcome: str
    error: str | None
    sources: tuple[str, ...]  # "record/source"

    @property
    def first_line(self) -> str:
        return (self.error or "").strip().splitlines()[0] if (self.error or "").strip() else ""

    def line(self) -> str:
        why = f": {self.first_line}" if self.first_line else ""
        return f"{self.url} ({', '.join(self.sources)}): {self.outcome}{why}"


@dataclass(frozen=True, slots=True)
class RunReport:
    run_id: str
    records: list[dict[str, Any]]  # one summary row per record (grade, freshness, ...)
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


def failures_by_url(rows: list[dict[str, Any]]) -> list[Failure]:
    """The failed sources of a run (warehouse.queries.run_failures), one entry a URL."""
    by_url: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_url.setdefault(row["url"], []).append(row)
    return [
        Failure(
            url=url,
            outcome=str(group[0]["outcome"]),
            error=group[0]["error"],
            sources=tuple(f"{r['record_id']}/{r['source_id']}" for r in group),
        )
        for url, group in by_url.items()
    ]
