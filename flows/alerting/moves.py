"""What moved in a run, worked out once from the evidence before and after it, for the
alerts, the run's summary and its Prefect artifact to say the same: each claim check
that moved (for a `changed` one, its figures as written before and after), and each
record whose grade or freshness moved, with the checks that moved it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from extractors.moves import bare_figures, moved_figures
from extractors.values import CheckOutcome, Freshness, Grade
from warehouse.alerts import CheckState, EvidenceState, ValueState

UNCHECKED = "unchecked"  # a check's outcome before it had one


@dataclass(frozen=True, slots=True)
class ClaimMove:
    """A claim check whose outcome or figures moved."""

    record_id: str
    claim_id: str
    source_id: str
    url: str
    was: CheckOutcome | str  # the outcome before (UNCHECKED: none)
    now: CheckOutcome
    figures: tuple[tuple[str, str], ...] = ()  # a `changed` check's, as written: before, now

    @property
    def figures_text(self) -> str:
        return "; ".join(f"{a} -> {b}" for a, b in self.figures)

    def line(self) -> str:
        """ "quota on acme-pricing: confirmed -> changed, 500 GPU hours -> 300 GPU hours"."""
        moved = f"{self.was} -> {self.now}" if self.was != self.now else self.now
        return f"{self.claim_id} on {self.source_id}: {moved}" + (
            f", {self.figures_text}" if self.figures else ""
        )


@dataclass(frozen=True, slots=True)
class RecordMove:
    """A record whose grade or freshness moved (`was` None: graded for the first time)."""

    record_id: str
    was: tuple[Grade, Freshness] | None
    now: tuple[Grade, Freshness]
    claims: tuple[ClaimMove, ...] = ()
    why: str = ""  # what moved it when no claim check did

    def line(self) -> str:
        """ "acme: documented (fresh) -> contradicted (fresh)"."""
        grade, freshness = self.now
        if self.was is None:
            return f"{self.record_id}: {grade} ({freshness}), first graded"
        return f"{self.record_id}: {self.was[0]} ({self.was[1]}) -> {grade} ({freshness})"


def claim_moves(
    before: EvidenceState,
    after: EvidenceState,
    quotes: Mapping[tuple[str, str], str],
    urls: Mapping[tuple[str, str], str],
    now: datetime,
) -> list[ClaimMove]:
    """Every check whose outcome moved, or that shows other figures, in reading order."""
    moves = []
    for key, check in sorted(after.checks.items()):
        old = before.checks.get(key)
        if old is not None and (old.outcome, old.values, old.found_status) == (
            check.outcome,
            check.values,
            check.found_status,
        ):
            continue
        record, claim, source = key
        figures = changed_figures(old, check, quotes.get((record, claim), ""), now)
        moves.append(
            ClaimMove(
                record_id=record,
                claim_id=claim,
                source_id=source,
                url=urls.get((record, source), ""),
                was=old.outcome if old is not None else UNCHECKED,
                now=check.outcome,
                figures=figures,
            )
        )
    return moves


@dataclass(frozen=True, slots=True)
class ValueMove:
    """A claim whose value moved on a source in the run, its grade moved or not."""

    record_id: str
    claim_id: str
    source_id: str
    was: str  # as written ("$55", "open")
    now: str
    history: tuple[ValueState, ...] = ()  # every value the source has shown, oldest first

    def line(self) -> str:
        """ "credits on acme: $55 -> $58"."""
        return f"{self.claim_id} on {self.source_id}: {self.was} -> {self.now}"


@dataclass(frozen=True, slots=True)
class ConditionMove:
    """A claim's condition that started to break, or holds again."""

    record_id: str
    claim_id: str
    was: str | None  # None: evaluated for the first time
    now: str
    detail: str

    @property
    def broke(self) -> bool:
        return self.now != "pass"

    def line(self) -> str:
        """ "acme/gpu-hours: condition fail: 300 is below at_least 400 on nimbus-free"."""
        if self.broke:
            return f"{self.record_id}/{self.claim_id}: condition {self.now}: {self.detail}"
        return f"{self.record_id}/{self.claim_id}: condition holds again ({self.was} -> pass)"


def value_moves(before: EvidenceState, after: EvidenceState) -> list[ValueMove]:
    """Every claim whose current value on a source is another than before the run. A
    claim whose `figure:` the keeper changed reads another of its figures: the value
    before is not this one's, and the claim's own check says what the page moved."""
    moves = []
    for key in sorted(after.values):
        now = after.current_value(key)
        was = _last_current(before, key)
        if now is None or was is None or was.same(now):
            continue
        old, new = before.checks.get(key), after.checks.get(key)
        if old is not None and new is not None and old.figure != new.figure:
            continue
        record, claim, source = key
        moves.append(
            ValueMove(
                record_id=record,
                claim_id=claim,
                source_id=source,
                was=was.said,
                now=now.said,
                history=after.values[key],
            )
        )
    return moves


def _last_current(state: EvidenceState, key: tuple[str, str, str]) -> ValueState | None:
    """The value the source gave when last it gave one (an absent check in between does
    not make the next value a first)."""
    shown = state.values.get(key, ())
    return shown[-1] if shown else None


def condition_moves(before: EvidenceState, after: EvidenceState) -> list[ConditionMove]:
    """Every condition that started to break (on its first evaluation too) or holds again;
    nothing while one stays broken."""
    moves = []
    for key, (condition, detail) in sorted(after.conditions.items()):
        old = before.conditions.get(key)
        was = old[0] if old is not None else None
        starts = condition != "pass" and (was is None or was == "pass")
        worse = condition == "fail" and was == "warn"
        holds = condition == "pass" and was is not None and was != "pass"
        if starts or worse or holds:
            moves.append(ConditionMove(key[0], key[1], was, condition, detail))
    return moves


def history_text(history: tuple[ValueState, ...]) -> str:
    """ "500 GPU hours 2026-11-02 to 2026-12-01; 300 GPU hours since 2026-12-01"."""
    parts = []
    for i, v in enumerate(history):
        first = v.first_seen_at.date().isoformat()
        if v.current and i == len(history) - 1:
            parts.append(f"{v.said} since {first}")
        else:
            parts.append(f"{v.said} {first} to {v.last_seen_at.date().isoformat()}")
    return "; ".join(parts)


def record_moves(
    before: EvidenceState, after: EvidenceState, claims: list[ClaimMove]
) -> list[RecordMove]:
    """Every record whose grade or freshness moved, or that was graded for the first time,
    with the checks of it that moved."""
    moves = []
    by_record: dict[str, list[ClaimMove]] = {}  # grouped once: a refresh moves thousands
    for c in claims:
        by_record.setdefault(c.record_id, []).append(c)
    checks_now, checks_was = _by_record(after.checks), _by_record(before.checks)
    for record, state in sorted(after.records.items()):
        was = before.records.get(record)
        if was == state:
            continue
        mine = tuple(by_record.get(record, ()))
        why = (
            ""
            if mine
            else _why_moved(record, checks_now.get(record, {}), checks_was.get(record, {}), state)
        )
        moves.append(RecordMove(record_id=record, was=was, now=state, claims=mine, why=why))
    return moves


Checks = dict[tuple[str, str, str], CheckState]  # (record, claim, source) -> its check


def _by_record(checks: Checks) -> dict[str, Checks]:
    grouped: dict[str, Checks] = {}
    for key, check in checks.items():
        grouped.setdefault(key[0], {})[key] = check
    return grouped


def _why_moved(
    record: str,
    mine: Checks,
    was: Checks,
    state: tuple[Grade, Freshness],
) -> str:
    """What moved a record when none of its claim checks did (`mine`, `was`: its checks
    after and before): a source that stopped or started counting (it died, or came
    back), the catalog (claims or sources added or taken away), or the clock (its window
    ran out)."""
    flipped: dict[tuple[str, bool], list[str]] = {}
    for (_, claim, source), check in sorted(mine.items()):
        old = was.get((record, claim, source))
        if old is not None and old.counts != check.counts:
            flipped.setdefault((source, check.counts), []).append(claim)
    if flipped:
        return "; ".join(
            f"{source}'s page "
            + (
                "counts again (its source answers)"
                if counts
                else "no longer counts (its source is dead)"
            )
            + f": {', '.join(claims)}"
            for (source, counts), claims in flipped.items()
        )
    if set(mine) != set(was):
        return "the catalog changed: claims or sources were added or taken away"
    if state[1] == Freshness.STALE:
        return "no source backing it answered within its window"
    return "no claim check moved"


def changed_figures(
    old: CheckState | None, check: CheckState, quote: str, now: datetime
) -> tuple[tuple[str, str], ...]:
    """A `changed` check's figures, as written before and now: the page's wording against
    the last one's (or the quote's); the bare numbers where the wording is not kept."""
    if check.outcome != CheckOutcome.CHANGED:
        return ()
    if check.found_status is not None:  # a status claim: "open -> closed"
        was = (
            old.found_status
            if old is not None and old.outcome == CheckOutcome.CHANGED and old.found_status
            else check.claim_status or "(none)"
        )
        return ((was, check.found_status),) if was != check.found_status else ()
    if check.found_text:
        pairs = moved_figures(_wording(old, quote), check.found_text, now)
        if pairs:
            return tuple(pairs)
    was = (
        _numbers(old.values)
        if old is not None and old.outcome == CheckOutcome.CHANGED
        else ", ".join(bare_figures(quote)) or "(none)"
    )
    is_ = _numbers(check.values)
    return ((was, is_),) if was != is_ else ()


def _numbers(values: tuple[float, ...]) -> str:
    return ", ".join(f"{v:g}" for v in values) or "(none)"


def _wording(old: CheckState | None, quote: str) -> str:
    """How the page put the claim before: what the last check found, else the quote."""
    if old is not None and old.found_text:
        return old.found_text
    return quote
