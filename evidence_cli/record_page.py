"""What a record's page of the static site shows beyond the card's rows: each claim with
its checks and value histories, each figure as the page writes it, each source with its
origin. Views built from the card (warehouse.card), never the card's rows changed."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime

from markupsafe import Markup

from evidence_base.words import Role
from evidence_cli.card import value_history
from evidence_cli.charts import step_chart_svg
from evidence_cli.render import failing_note
from extractors.conditions import Condition
from warehouse.card import Card, ClaimState, ParsedExtract, ShownValue, SourceCheck

Day = Callable[[datetime | date | None], str | None]  # a date as the site writes it


@dataclass(frozen=True, slots=True)
class ValuesOnSource:
    """The values one source has shown for a claim: in words, and as a step chart."""

    source_id: str
    history: str
    chart: Markup


@dataclass(frozen=True, slots=True)
class ClaimOnPage:
    """A claim with its checks and the values its sources have shown."""

    claim: ClaimState
    # each with the day it was made, and what its source's failing page says (or None)
    checks: list[tuple[SourceCheck, str | None, str | None]]
    values: list[ValuesOnSource]

    @property
    def dated(self) -> bool:
        """Whether a page it was checked on gives its own dates (a column for them)."""
        return any(c.published_on or c.modified_on for c, _, _ in self.checks)


@dataclass(frozen=True, slots=True)
class SourceOnPage:
    """A source's health and origin fields: accessed, the page's own dates, the archived
    copy (the days as the page writes them)."""

    source_id: str
    role: Role
    url: str
    last_outcome: str | None
    consecutive_failures: int
    accessed_at: str | None
    published_on: date | None
    modified_on: date | None
    archived_url: str | None
    archived_at: str | None


def claims_on_page(card: Card, now: datetime, day: Day) -> list[ClaimOnPage]:
    """The record's claims, broken conditions first, each with its checks and the values
    each source has shown for it."""
    health = {h.source_id: h for h in card.sources}
    checks: dict[str, list[tuple[SourceCheck, str | None, str | None]]] = {}
    for c in card.checks:
        note = failing_note(health.get(c.source_id))
        checks.setdefault(c.claim_id, []).append((c, day(c.checked_at), note))
    shown: dict[tuple[str, str], list[ShownValue]] = {}
    for v in card.values:
        shown.setdefault((v.claim_id, v.source_id), []).append(v)
    claims = [
        ClaimOnPage(
            claim=claim,
            checks=checks.get(claim.claim_id, []),
            values=[
                ValuesOnSource(
                    source_id=source,
                    history=value_history(rows),
                    chart=step_chart_svg(rows, now, source),
                )
                for (claim_id, source), rows in shown.items()
                if claim_id == claim.claim_id
            ],
        )
        for claim in card.claims
    ]
    broken_first = {Condition.FAIL: 0, Condition.WARN: 1}
    claims.sort(key=lambda c: broken_first.get(c.claim.condition or Condition.PASS, 2))
    return claims


def figures_on_page(card: Card) -> dict[str, list[tuple[ParsedExtract, str]]]:
    """By source, the figures read from its newest page, each with its value as the page
    shows it."""
    figures: dict[str, list[tuple[ParsedExtract, str]]] = {}
    for e in card.extracts:
        if e.what == "number":
            figures.setdefault(e.source_id, []).append((e, figure_text(e)))
    return figures


def figure_text(n: ParsedExtract) -> str:
    if n.kind in ("date", "date_range"):
        if n.date_to and n.date_to != n.date_from:
            return f"{n.date_from} to {n.date_to}"
        return str(n.date_from)
    if n.value_end is not None:
        return f"{n.value:g} to {n.value_end:g}"
    return f"{n.value:g}" if n.value is not None else ""


def sources_on_page(card: Card, day: Day) -> list[SourceOnPage]:
    """Each source of the record, in the card's order, with its origin fields."""
    origins = {o.source_id: o for o in card.origins}
    out = []
    for s in card.sources:
        o = origins.get(s.source_id)
        out.append(
            SourceOnPage(
                source_id=s.source_id,
                role=s.role,
                url=s.url,
                last_outcome=s.last_outcome,
                consecutive_failures=s.consecutive_failures,
                accessed_at=day(o.accessed_at) if o else None,
                published_on=o.published_on if o else None,
                modified_on=o.modified_on if o else None,
                archived_url=o.archived_url if o else None,
                archived_at=day(o.archived_at) if o else None,
            )
        )
    return out
