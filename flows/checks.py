"""Claim checks and review holds: the steps between storing pages and grading them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping
from datetime import datetime

from extractors.claim_values import check_claim, claim_value
from extractors.claims import NormalizedText, normalize_text
from extractors.soft import review_reason
from extractors.values import ClaimCheck, Status
from flows.runtime import clock
from warehouse import pages, store
from warehouse.db import Connection
from warehouse.rows import CheckRow, PendingCheck, Review

TEXTS_PER_READ = 250  # page texts read from the warehouse at a time


def check_claims(
    con: Connection,
    known: Mapping[tuple[str, str], ClaimCheck] | None = None,
    hashes: Collection[str] | None = None,
) -> int:
    """Check every claim against each newest snapshot not yet checked; returns checks made.

    `known` holds checks already made by the extraction workers, by (content hash, quote);
    `hashes` limits the work to snapshots of these pages (one batch of a refresh).
    """
    known = known or {}
    pending = store.pending_checks(con, hashes)
    if not pending:
        return 0
    rows: list[CheckRow] = []
    by_page: dict[str, list[PendingCheck]] = defaultdict(list)
    now = clock.now()
    in_tables: dict[str, list[tuple[PendingCheck, ClaimCheck]]] = defaultdict(list)
    for p in pending:
        check = known.get((p.content_hash, p.quote))
        if check is None or p.status is not None:  # a status claim reads its page again
            by_page[p.content_hash].append(p)
        elif "|" in (check.found_text or ""):  # a table's row: its header gives the units
            in_tables[p.content_hash].append((p, check))
        else:
            rows.append(_check_row(p, check, now))
    digests = list(by_page.keys() | in_tables.keys())
    for start in range(0, len(digests), TEXTS_PER_READ):
        chunk = digests[start : start + TEXTS_PER_READ]
        texts = pages.page_texts(con, chunk)
        for digest in chunk:
            text = texts.get(digest, "")
            if by_page[digest]:  # (a page only for its table rows is read as it is)
                page = normalize_text(text)
                rows.extend(
                    _check_row(p, check_on_page(p, page), now, text) for p in by_page[digest]
                )
            rows.extend(_check_row(p, check, now, text) for p, check in in_tables[digest])
    store.write_checks(con, rows)
    return len(rows)


def check_on_page(p: PendingCheck, page: NormalizedText) -> ClaimCheck:
    """One claim checked on one page: its quote, and for a status claim the status the
    page states about its record's subject."""
    status = Status(p.status) if p.status is not None else None
    return check_claim(p.quote, page, status, p.title)


def _check_row(
    p: PendingCheck, check: ClaimCheck, now: datetime, page: str | None = None
) -> CheckRow:
    status = Status(p.status) if p.status is not None else None
    value = claim_value(p.quote, check, now, figure=p.figure, status=status, page=page)
    return CheckRow(
        record_id=p.record_id,
        claim_id=p.claim_id,
        source_id=p.source_id,
        snapshot_id=p.snapshot_id,
        quote=p.quote,
        outcome=check.outcome,
        found_text=check.found_text,
        found_values=check.found_values,
        closest_text=check.closest_text,
        closest_score=check.closest_score,
        claim_status=p.status,
        figure=p.figure,
        found_status=check.found_status.value if check.found_status is not None else None,
        value=value.value if value else None,
        unit=value.unit if value else None,
        currency=value.currency if value else None,
        value_status=value.status.value if value and value.status else None,
        value_text=value.text if value else None,
    )


def review_snapshots(con: Connection, now: datetime) -> list[Review]:
    """Hold new primary snapshots that lost most of their text or every confirmed claim;
    returns those held."""
    reviews = [
        Review(
            record_id=c.record_id,
            source_id=c.source_id,
            snapshot_id=c.snapshot_id,
            reason=None
            if c.previous_id is None
            else review_reason(c.previous_chars, c.chars, c.previously_confirmed, c.confirmed),
        )
        for c in store.review_candidates(con)
    ]
    store.write_reviews(con, reviews, now)
    return [r for r in reviews if r.reason is not None]
