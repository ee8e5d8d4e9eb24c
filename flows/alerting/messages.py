"""Evidence alerts: one message per record per change (a grade falls, a claim turns
`changed`, a record goes stale, a page is held for review or needs a browser), each
naming what moved it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from datetime import datetime

from evidence_base.words import AlertKind
from extractors.sentences import sentence_around
from extractors.values import CheckOutcome, Freshness, Grade
from flows.alerting.moves import (
    UNCHECKED,
    changed_figures,
    condition_moves,
    history_text,
    value_moves,
)
from flows.runtime import clock
from warehouse.alerts import CheckState, EvidenceState, Message
from warehouse.keeping import ReviewDate

MAX_IN_TITLE = 3  # claims a `changed:` title names; its body names them all


def evidence_messages(
    before: EvidenceState,
    after: EvidenceState,
    quotes: dict[tuple[str, str], str],
    urls: dict[tuple[str, str], str],
    texts: Mapping[int, str] | None = None,
    now: datetime | None = None,
) -> list[Message]:
    """One message per record per change, comparing states around a grading (`texts`:
    the main text of the snapshots the changed checks were made on, see
    `changed_snapshots`, for the sentences they quote; `now`: the date year-less
    figures are read against)."""
    texts = texts or {}
    now = now or clock.now()
    messages = []
    old_records, new_records = before.records, after.records
    for record, (grade, freshness) in new_records.items():
        if record not in old_records:
            continue  # a record seen for the first time has nothing to fall from
        old_grade, old_freshness = old_records[record]
        if Grade(grade).rank < Grade(old_grade).rank:
            moved = _moved_checks(before, after, record)
            why = (
                "\n".join(
                    f"Moved by: {claim} on {source} {urls.get((record, source), '')}: "
                    f"{was} -> {now}"
                    for claim, source, was, now in moved
                )
                if moved
                else "Moved by: no claim check changed; a source stopped counting "
                "(see `evidence sources`)"
            )
            by = f" ({', '.join(f'{c} on {s}' for c, s, _, _ in moved[:3])})" if moved else ""
            messages.append(
                Message(
                    AlertKind.GRADE,
                    record,
                    f"grade: {record} fell from {old_grade} to {grade}{by}",
                    f"Record: {record}\nGrade: {old_grade} -> {grade}\n{why}\n"
                    + _sources(record, urls),
                )
            )
        if freshness == Freshness.STALE and old_freshness != Freshness.STALE:
            messages.append(
                Message(
                    AlertKind.STALE,
                    record,
                    f"stale: {record} is stale",
                    f"Record: {record}\nFreshness: {old_freshness} -> stale "
                    "(no source backing its grade has answered within the window)\n"
                    + _sources(record, urls),
                )
            )
    changes: dict[str, list[str]] = defaultdict(list)
    changed_sources: dict[str, set[str]] = defaultdict(set)
    heads: dict[str, list[str]] = defaultdict(list)  # "cap $5,000 -> $4,000", a claim each
    # a value said with the unit its page gives it ("$29 per month", a table's cell)
    moves = value_moves(before, after)
    news = _new_changes(before, after)
    valued = {(m.record_id, m.claim_id, m.source_id): m for m in moves}
    for (record, claim, source), check, old in news:
        quote = quotes.get((record, claim), "")
        figures = "; ".join(f"{a} -> {b}" for a, b in changed_figures(old, check, quote, now))
        value = valued.get((record, claim, source))
        if value is not None and value.was and value.now:
            figures = f"{value.was} -> {value.now}"
        heads[record].append(f"{claim} {figures}".strip())
        line = (
            f"{claim} on {source} {urls.get((record, source), '')}: "
            f'{figures or "other figures"} (quote: "{quote}")'
        )
        said = _sentence(texts, old, quote) if old is not None else None
        says = _sentence(texts, check, check.found_text)
        if said:
            line += f'\n  Before: "{said}"'
        if says:
            line += f'\n  After: "{says}"'
        changes[record].append(line)
        changed_sources[record].add(source)
    told = {key for key, _, _ in news}
    for move in moves:
        key = (move.record_id, move.claim_id, move.source_id)
        if move.record_id not in before.records:
            continue
        history = f"\n  History: {history_text(move.history)}"
        if key in told:  # its line is there: add the values it has had
            changes[move.record_id] = [
                line + history if line.startswith(f"{move.claim_id} on {move.source_id} ") else line
                for line in changes[move.record_id]
            ]
            continue
        heads[move.record_id].append(f"{move.claim_id} {move.was} -> {move.now}")
        changes[move.record_id].append(
            f"{move.claim_id} on {move.source_id} "
            f"{urls.get((move.record_id, move.source_id), '')}: {move.was} -> {move.now}" + history
        )
        changed_sources[move.record_id].add(move.source_id)
    for record, lines in changes.items():
        named = list(dict.fromkeys(heads[record]))
        claims = ", ".join(named[:MAX_IN_TITLE]) + (
            f" and {len(named) - MAX_IN_TITLE} more" if len(named) > MAX_IN_TITLE else ""
        )
        sources = changed_sources[record]
        one = next(iter(sources)) if len(sources) == 1 else None
        messages.append(
            Message(
                kind=AlertKind.CHANGED,
                record_id=record,
                source_id=one,
                title=f"changed: {record} {claims}",
                body=f"Record: {record}\n" + "\n".join(lines),
            )
        )
    for c in condition_moves(before, after):
        title = (
            f"condition: {c.record_id} {c.claim_id} {c.now}: {c.detail}"
            if c.broke
            else f"recovered: {c.record_id} {c.claim_id} condition holds again"
        )
        messages.append(
            Message(
                kind=AlertKind.CONDITION if c.broke else AlertKind.RECOVERED,
                record_id=c.record_id,
                title=title,
                body=f"Record: {c.record_id}\nClaim: {c.claim_id}\n"
                f"Condition: {c.was or 'unchecked'} -> {c.now}\n{c.detail}\n"
                + _sources(c.record_id, urls),
            )
        )
    for (record, source, _snapshot), reason in after.held.items():
        if (record, source, _snapshot) not in before.held:
            messages.append(
                Message(
                    kind=AlertKind.REVIEW,
                    record_id=record,
                    source_id=source,
                    title=f"review: {record} {source} page held for review",
                    body=f"Record: {record}\nSource: {source} {urls.get((record, source), '')}\n"
                    f"Why: {reason}\nThe previous page still counts; "
                    f"`evidence accept {record} {source}` lets the new one count.",
                )
            )
    for (record, source), reason in after.shells.items():
        if (record, source) not in before.shells:
            messages.append(
                Message(
                    kind=AlertKind.REVIEW,
                    record_id=record,
                    source_id=source,
                    title=f"review: {record} {source} needs render: browser",
                    body=f"Record: {record}\nSource: {source} {urls.get((record, source), '')}\n"
                    f"Why: {reason}\nAdd `render: browser` to this source in its record "
                    "file: its claims cannot be checked over HTTP.",
                )
            )
    return messages


def review_by_messages(due: list[ReviewDate]) -> list[Message]:
    """One `review:` message per review_by date reached (the caller raises each once)."""
    return [
        Message(
            kind=AlertKind.REVIEW,
            record_id=d.record_id,
            title=f"review: {d.record_id} "
            + (f"{d.claim_id} " if d.claim_id else "")
            + f"due for review since {d.review_by}",
            body=f"Record: {d.record_id}\n"
            + (f"Claim: {d.claim_id}\n" if d.claim_id else "")
            + f"Review by: {d.review_by}\n`evidence review` lists it with what settles it: "
            "`evidence update` of the claim, or a later review_by in the record's file.",
        )
        for d in due
    ]


def _new_changes(
    before: EvidenceState, after: EvidenceState
) -> list[tuple[tuple[str, str, str], CheckState, CheckState | None]]:
    """Checks that turned `changed`, or changed to other numbers, in this run."""
    found = []
    for key, check in after.checks.items():
        old = before.checks.get(key)
        if check.outcome != CheckOutcome.CHANGED or key[0] not in before.records:
            continue
        if (
            old is not None
            and old.outcome == CheckOutcome.CHANGED
            and (old.values, old.found_status) == (check.values, check.found_status)
        ):
            continue
        found.append((key, check, old))
    return found


def changed_snapshots(before: EvidenceState, after: EvidenceState) -> set[int]:
    """The snapshots whose text the `changed:` messages quote, before and after."""
    ids: set[int] = set()
    for _, check, old in _new_changes(before, after):
        for c in (check, old):
            if c is not None and c.snapshot_id is not None:
                ids.add(c.snapshot_id)
    return ids


def _sentence(texts: Mapping[int, str], check: CheckState, words: str | None) -> str | None:
    """The sentence of the check's snapshot holding `words` (what it found, or the quote
    a confirmed check found)."""
    if check.snapshot_id is None or check.snapshot_id not in texts:
        return None
    text = texts[check.snapshot_id]
    return sentence_around(text, check.found_text or words) or sentence_around(text, words)


def _moved_checks(
    before: EvidenceState, after: EvidenceState, record: str
) -> list[tuple[str, str, str, str]]:
    """(claim, source, outcome before, outcome now) of the record's checks that moved."""
    moved: list[tuple[str, str, str, str]] = []
    for (rec, claim, source), check in sorted(after.checks.items()):
        if rec != record:
            continue
        old = before.checks.get((rec, claim, source))
        was = old.outcome if old is not None else UNCHECKED
        if was != check.outcome:
            moved.append((claim, source, was, check.outcome))
    return moved


def _sources(record: str, urls: dict[tuple[str, str], str]) -> str:
    lines = [f"  {source}: {url}" for (r, source), url in sorted(urls.items()) if r == record]
    return "Sources:\n" + "\n".join(lines)
