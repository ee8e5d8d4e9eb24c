"""A catalog graded offline: every claim against the newest stored snapshot of each of
its sources (read on a read-only connection: no fetch, no Prefect, nothing written), its
`expect:` evaluated, each record graded by the refresh's own rules (warehouse/sql/grade_rules.sql).
The refresh's own checks are reused; a quote it never checked is matched here on the
stored page, so that a catalog edited since the last refresh is judged as written.
`evidence check` and `evidence plan` both read catalogs through it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from evidence_base.words import Role
from extractors.claim_values import ClaimValue, check_claim, claim_value, quote_value
from extractors.claims import normalize_text
from extractors.conditions import ConditionResult, SourceValue, evaluate_condition
from extractors.values import CheckOutcome, ClaimCheck, Grade, Status
from flows.catalog import Catalog, ClaimConfig, Record, SourceConfig
from flows.runtime import clock
from warehouse.db import session
from warehouse.evidence import (
    StoredSnapshot,
    StoredValue,
    page_texts,
    stored_checks,
    stored_snapshots,
    stored_values,
)
from warehouse.grading import WouldBeCheck, grade_offline

UNCHECKED = "unchecked"  # said of a source with no snapshot stored
DOUBTFUL = (CheckOutcome.CHANGED, CheckOutcome.ABSENT)


@dataclass(frozen=True, slots=True)
class SourceOutcome:
    """One claim against one source's newest stored snapshot."""

    source_id: str
    role: Role
    outcome: CheckOutcome | None  # None: no snapshot of the source is stored
    found_text: str | None = None
    found_values: tuple[float, ...] = ()
    found_status: str | None = None


@dataclass(frozen=True, slots=True)
class ClaimResult:
    record_id: str
    claim_id: str
    file: str
    line: int | None
    quote: str
    grade: Grade
    sources: tuple[SourceOutcome, ...]
    condition: str | None = None  # pass | warn | fail; None without `expect:`
    condition_detail: str | None = None

    @property
    def broken(self) -> bool:
        """`changed` or `absent` on every primary that has a snapshot (one at least)."""
        seen = [s.outcome for s in self.sources if s.role == Role.PRIMARY and s.outcome]
        return bool(seen) and all(o in DOUBTFUL for o in seen)

    @property
    def doubted(self) -> bool:
        """`changed` on some source, or `absent` on one while no primary confirms it (a
        quote absent from one of several pages is common; another figure is news)."""
        outcomes = {s.outcome for s in self.sources}
        return CheckOutcome.CHANGED in outcomes or (
            CheckOutcome.ABSENT in outcomes and self.grade is not Grade.DOCUMENTED
        )

    @property
    def checked(self) -> bool:
        return any(s.outcome is not None for s in self.sources)


@dataclass(frozen=True, slots=True)
class RecordResult:
    record_id: str
    file: str
    line: int | None
    grade: Grade
    claims: tuple[ClaimResult, ...]


class Evidence:
    """The stored snapshots, read once; each quote matched on each page at most once (the
    refresh's own check reused where it made one for the same quote)."""

    def __init__(self, db: Path | None) -> None:
        self.db = db
        self.by_source: dict[tuple[str, str, str], StoredSnapshot] = {}
        self.by_url: dict[str, StoredSnapshot] = {}
        self.known: dict[tuple[str, str, Status | None], ClaimCheck] = {}
        self.values: dict[tuple[str, str, str], list[StoredValue]] = {}
        self.now = clock.now()
        if db is None:
            return
        with session(db, read_only=True) as con:  # of this release, or one line says so
            snapshots = stored_snapshots(con)
            self.known = stored_checks(con, snapshots)
            self.values = stored_values(con)
        for s in snapshots:  # oldest first: the newest of a URL wins
            self.by_source[(s.record_id, s.source_id, s.url)] = s
            self.by_url[s.url] = s

    @property
    def snapshots(self) -> int:
        return len(self.by_source)

    def snapshot(self, record_id: str, source_id: str, url: str) -> StoredSnapshot | None:
        """The source's own newest snapshot, else the newest of its URL (a source moved to
        another record, or added beside one that has the page already)."""
        return self.by_source.get((record_id, source_id, url)) or self.by_url.get(url)

    def match(self, wanted: Iterable[tuple[str, str, Status | None, str]]) -> None:
        """Check each (content hash, quote, status) not checked yet, reading each page
        once; a status claim as the refresh checks it (flows/checks.py), about its
        record's title (the fourth of each)."""
        missing: dict[str, dict[tuple[str, Status | None], str]] = defaultdict(dict)
        for digest, quote, status, title in wanted:
            if (digest, quote, status) not in self.known:
                missing[digest].setdefault((quote, status), title)
        if not missing or self.db is None:
            return
        with session(self.db, read_only=True) as con:
            texts = page_texts(con, missing)
        for digest, quotes in missing.items():
            page = normalize_text(texts.get(digest, ""))
            for (quote, status), title in quotes.items():
                self.known[(digest, quote, status)] = check_claim(quote, page, status, title)

    def before(self, key: tuple[str, str, str], now_value: ClaimValue | None) -> StoredValue | None:
        """The value a source showed before the one it shows now: the kept current value
        when it differs, else the one kept before it."""
        kept = self.values.get(key, [])
        if not kept or now_value is None:
            return None
        last = kept[-1]
        same = (last.value, last.status) == (
            now_value.value,
            now_value.status.value if now_value.status else None,
        )
        if not same:
            return last
        return kept[-2] if len(kept) > 1 else None


def grade_records(catalog: Catalog, evidence: Evidence) -> list[RecordResult]:
    """Every record and claim of the catalog graded against the stored snapshots, by the
    refresh's own rules (warehouse/sql/grade_rules.sql)."""
    wanted: list[tuple[str, str, Status | None, str]] = []
    for record in catalog.records:
        for claim, sources in _claim_sources(record):
            for source in sources:
                snap = evidence.snapshot(record.id, source.source_id, source.url)
                if snap is not None:
                    wanted.append(
                        (snap.content_hash, claim.quote, claim.status, record.config.title)
                    )
    evidence.match(wanted)
    read = [(record, _read_claims(record, evidence)) for record in catalog.records]
    grades = grade_offline(
        [check for _, claims in read for c in claims for check in c.would_be],
        [(record.id, c.claim.id) for record, claims in read for c in claims],
        [record.id for record, _ in read],
    )
    return [
        RecordResult(
            record_id=record.id,
            file=record.file,
            line=record.line_of(),
            grade=grades.records[record.id],
            claims=tuple(
                ClaimResult(
                    record_id=record.id,
                    claim_id=c.claim.id,
                    file=record.file,
                    line=record.line_of(c.index),
                    quote=c.claim.quote,
                    grade=grades.claims[(record.id, c.claim.id)],
                    sources=c.outcomes,
                    condition=c.condition.condition.value if c.condition else None,
                    condition_detail=c.condition.detail if c.condition else None,
                )
                for c in claims
            ),
        )
        for record, claims in read
    ]


@dataclass(frozen=True, slots=True)
class _ClaimRead:
    """A claim read on its sources' stored pages, before it is graded."""

    index: int
    claim: ClaimConfig
    outcomes: tuple[SourceOutcome, ...]
    would_be: tuple[WouldBeCheck, ...]
    condition: ConditionResult | None


def _claim_sources(record: Record) -> list[tuple[ClaimConfig, list[SourceConfig]]]:
    return [
        (
            claim,
            [
                s
                for s in record.config.sources
                if claim.sources is None or s.source_id in claim.sources
            ],
        )
        for claim in record.config.claims
    ]


def _read_claims(record: Record, evidence: Evidence) -> list[_ClaimRead]:
    read = []
    for index, (claim, sources) in enumerate(_claim_sources(record)):
        outcomes = []
        values = []
        would_be = []
        for source in sources:
            snap = evidence.snapshot(record.id, source.source_id, source.url)
            check = (
                None
                if snap is None
                else evidence.known.get((snap.content_hash, claim.quote, claim.status))
            )
            if snap is None or check is None:
                outcomes.append(SourceOutcome(source.source_id, source.role, None))
                continue
            would_be.append(
                WouldBeCheck(
                    record.id,
                    claim.id,
                    source.source_id,
                    source.role,
                    check.outcome,
                    snap.fetched_at,
                    snap.run_id,
                    snap.via,
                    snap.dead_since,
                )
            )
            outcomes.append(
                SourceOutcome(
                    source.source_id,
                    source.role,
                    check.outcome,
                    check.found_text,
                    tuple(check.found_values),
                    check.found_status.value if check.found_status else None,
                )
            )
            if source.role == Role.PRIMARY and claim.expect is not None:
                values.append(_source_value(record.id, claim, source.source_id, check, evidence))
        condition = None if claim.expect is None else _condition(claim, values, evidence.now)
        read.append(_ClaimRead(index, claim, tuple(outcomes), tuple(would_be), condition))
    return read


def _source_value(
    record_id: str, claim: ClaimConfig, source_id: str, check: ClaimCheck, evidence: Evidence
) -> SourceValue:
    value = claim_value(claim.quote, check, evidence.now, figure=claim.figure, status=claim.status)
    before = evidence.before((record_id, claim.id, source_id), value)
    if value is None:
        return SourceValue(source_id=source_id)
    return SourceValue(
        source_id=source_id,
        value=value.value,
        unit=value.unit,
        currency=value.currency,
        status=value.status,
        text=value.text,
        before=before.value if before else None,
        before_text=before.text if before else None,
    )


def _condition(claim: ClaimConfig, values: list[SourceValue], now: datetime) -> ConditionResult:
    assert claim.expect is not None
    own = quote_value(claim.quote, claim.figure, now)
    return evaluate_condition(
        claim.expect.to_expect(),
        values,
        unit=own.unit if own else None,
        currency=own.currency if own else None,
    )
