"""The record card of `evidence show`: the hand-kept card, kept true by machine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from evidence_cli.render import cell, day, evidence_line, failing_note, freshness_line, table
from extractors.conditions import Condition
from extractors.printable import one_line, printable
from extractors.values import CheckOutcome
from warehouse.card import Card, ParsedExtract, ShownValue, SourceCheck, SourceHealthRow


def render_card(data: Card) -> str:
    rec = data.record
    out = [f"{rec.title}", f"id: {rec.record_id}", ""]
    fields = rec.fields or []
    width = max([len(f["name"]) for f in fields] + [8])
    out += [f"{f['name'].ljust(width)}  {f['value']}" for f in fields]
    if fields:
        out.append("")
    out.append(evidence_line(rec.grade, data.claims, data.checks))
    health = data.sources
    out += [f"  {line}" for line in _held(rec.record_id, health)]  # beside what it holds
    out.append(freshness_line(rec.freshness, rec.checked_at, rec.stale_on, rec.via))
    window_days = rec.window_s / 86400
    out.append(
        f"Window: {window_days:g} days; stale on {day(rec.stale_on)}"
        if rec.stale_on
        else f"Window: {window_days:g} days"
    )

    claims = data.claims
    broken = sorted(
        (c for c in claims if c.condition in (Condition.WARN, Condition.FAIL)),
        key=lambda c: c.condition != Condition.FAIL,
    )
    for c in broken:  # broken conditions first
        out.append(f"Condition {c.condition}: {c.claim_id}: {c.condition_detail}")
    values: dict[str, list[ShownValue]] = {}
    for row in data.values:
        values.setdefault(row.claim_id, []).append(row)

    checks: dict[str, list[SourceCheck]] = {}
    for check in data.checks:
        checks.setdefault(check.claim_id, []).append(check)
    by_source = {h.source_id: h for h in health}
    out += ["", "Claims:"]
    if not claims:
        out.append("  (none: a record with no claims stays unverified)")
    for claim in claims:
        status = f" [status: {claim.status}]" if claim.status else ""
        out.append(f"  {claim.claim_id}: {claim.grade}{status}")
        out.append(f'    quote: "{claim.quote}"')
        if claim.condition is not None:
            out.append(f"    condition: {claim.condition} ({claim.condition_detail})")
        for check in checks.get(claim.claim_id, []):
            line = f"    {check.source_id} ({check.role}): {check.outcome}"
            dated = _page_dates(check)
            if check.outcome == CheckOutcome.CHANGED and check.found_status:
                line += f', {claim.status} -> {check.found_status}: "{check.found_text}"'
                if dated:
                    line += f" ({dated})"
            elif check.outcome == CheckOutcome.CHANGED:
                line += f', found {cell(check.found_values)}: "{check.found_text}"'
                if dated:
                    line += f" ({dated})"
            elif check.checked_at is not None:
                line += f" (checked {day(check.checked_at)}{'; ' + dated if dated else ''})"
            failing = failing_note(by_source.get(check.source_id))
            if failing:
                line += f" — {failing}"
            out.append(line)
            if check.outcome == CheckOutcome.ABSENT and check.closest_text:
                out.append(
                    f"      closest on the page ({check.closest_score}): "
                    f'"{_short(check.closest_text)}"'
                )
        for source, shown in _by_source(values.get(claim.claim_id, [])).items():
            out.append(f"    values on {source}: {value_history(shown)}")

    numbers = [e for e in data.extracts if e.what == "number"]
    statuses = [e for e in data.extracts if e.what == "status"]
    out += ["", "Parsed numbers:"]
    for source_id, figures in _by_source(numbers).items():  # each source's figures together
        out.append(f"  {source_id}:")
        rows = [
            (
                n.kind,
                _value(n),
                n.currency or n.unit,
                n.subject,
                n.qualifier,
                n.raw,
            )
            for n in figures
        ]
        head = ["kind", "value", "unit", "subject", "qualifier", "raw"]
        out.append(_Block(_indent(_indent(table(head, rows)))))
    if not numbers:
        out.append("  (none)")
    out += ["", "Statuses:"]
    if statuses:
        out += [
            f'  {s.source_id}: {s.kind} ("{s.raw}") — {_short(s.sentence or "")}' for s in statuses
        ]
    else:
        out.append("  (none)")

    out += ["", "Sources:"]
    out.append(
        _Block(
            _indent(
                table(
                    ["source", "role", "last outcome", "http", "last ok", "failures", "url"],
                    [
                        (
                            h.source_id,
                            h.role,
                            h.last_outcome or "never fetched",
                            h.last_http_status,
                            day(h.last_ok_at) if h.last_ok_at else "never",
                            h.consecutive_failures,
                            h.url,
                        )
                        for h in health
                    ],
                    max_width=80,
                )
            )
        )
    )
    for o in data.origins:
        if o.archived_url:
            out.append(f"  {o.source_id}: archived copy ({day(o.archived_at)}): {o.archived_url}")
    for h in health:
        if h.needs_browser:
            out.append(
                f"  {h.source_id}: {h.needs_review}; add `render: browser` to the "
                "source in its record file"
            )
    # titles, fields and quotes are the user's and pages': each line one line, escaped
    return "\n".join(printable(e) if isinstance(e, _Block) else one_line(e) for e in out)


class _Block(str):
    """Lines of a card that are many on purpose (a table whose cells are one line each)."""


def _held(record_id: str, health: list[SourceHealthRow]) -> list[str]:
    """The sources whose newest page is held for review, said under the Evidence line."""
    return [
        f"{h.source_id}: newest page held for review ({h.needs_review}); the previous "
        f"one still counts. `evidence accept {record_id} {h.source_id}` lets it count."
        for h in health
        if h.needs_review and not h.needs_browser
    ]


class _OfSource(Protocol):
    @property
    def source_id(self) -> str: ...


Of = TypeVar("Of", bound=_OfSource)


def _by_source(rows: Sequence[Of]) -> dict[str, list[Of]]:
    out: dict[str, list[Of]] = {}
    for row in rows:
        out.setdefault(row.source_id, []).append(row)
    return out


def value_history(rows: Sequence[ShownValue]) -> str:
    """ "500 GPU hours 2026-11-02 to 2026-12-01; 300 GPU hours since 2026-12-01"."""
    parts = []
    for i, v in enumerate(rows):
        said = v.status or v.text or cell(v.value)
        if v.current and i == len(rows) - 1:
            parts.append(f"{said} since {day(v.first_seen_at)}")
        else:
            parts.append(f"{said} {day(v.first_seen_at)} to {day(v.last_seen_at)}")
    return "; ".join(parts)


def _value(n: ParsedExtract) -> str:
    if n.kind in ("date", "date_range"):
        start, end = n.date_from, n.date_to
        return str(start) if start == end else f"{start} to {end}"
    value = cell(n.value)
    return f"{value}-{cell(n.value_end)}" if n.value_end is not None else value


def _short(text: str, width: int = 100) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _page_dates(check: SourceCheck) -> str:
    """The page's own dates, as the card shows them beside a check."""
    if check.modified_on:
        return f"page updated {check.modified_on.isoformat()}"
    if check.published_on:
        return f"page published {check.published_on.isoformat()}"
    return ""


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())
