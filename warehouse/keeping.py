"""Keeping the catalog: the review queue, review_by dates and their alerts, the file each
record was stored from, and the trace of `evidence update`. Every line of their SQL."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

import duckdb

from evidence_base.words import Role
from extractors.grading import urgency
from extractors.moves import moved_figures
from extractors.statuses import extract_statuses
from extractors.values import CheckOutcome
from warehouse.db import field_values, insert_rows, rows_as, sql_file, transaction

# Outcomes of a source that a fix to its URL settles, rather than another try.
WRONG_URL = ("soft_404", "dns_error", "redirect_loop")
GONE_STATUSES = (404, 410)


@dataclass(frozen=True, slots=True)
class RecordFile:
    record_id: str
    config_file: str
    digest: str


@dataclass(frozen=True, slots=True)
class ReviewDate:
    record_id: str
    claim_id: str | None
    review_by: date


@dataclass(frozen=True, slots=True)
class QueueRow:
    """One thing a person must look at, as the queue's SQL finds it."""

    rank: int
    record_id: str
    subject: str | None  # the claim or source it is about; none for the record itself
    source_id: str | None
    # condition-fail, changed, absent, disagree, condition-warn, held, needs-browser, dead,
    # unreachable, stale, review-by
    kind: str
    quote: str | None
    status: str | None
    found_text: str | None
    found_values: list[float] | None
    closest_text: str | None
    found_status: str | None  # the status a status claim's page states
    detail: str | None
    failures: int | None
    since: datetime | None
    config_file: str | None
    grade: str  # the record's, and its freshness: how soon it needs a person
    freshness: str
    pos1: int | None  # where in its record: the claim's place, then the source's
    pos2: int | None

    def order(self) -> tuple[object, ...]:
        """Its place in the queue: by kind of trouble, then records as `evidence status`
        orders them, then in the record's own order (an unknown place last)."""
        return (
            self.rank,
            urgency(self.grade, self.freshness),
            self.record_id,
            (self.pos1 is None, self.pos1 or 0),
            (self.pos2 is None, self.pos2 or 0),
            self.kind,
        )


@dataclass(frozen=True, slots=True)
class QueueItem:
    """A row of `evidence review`: what happened, since when, and what settles it."""

    record_id: str
    item: str | None
    kind: str
    what: str
    since: date | None
    command: str
    source: str | None = None  # the page it is about (the source `update` takes it from)


QUEUE_COLUMNS = ["record_id", "item", "kind", "what", "since", "command"]


@dataclass(frozen=True, slots=True)
class CurrentCheck:
    """A claim's check on one source's page that counts, for `evidence update`."""

    source_id: str
    role: Role
    outcome: CheckOutcome
    found_text: str | None
    closest_text: str | None
    found_status: str | None
    snapshot_id: int
    quote: str
    status: str | None


def sync_keeping(
    con: duckdb.DuckDBPyConnection, files: Sequence[RecordFile], dates: Sequence[ReviewDate]
) -> None:
    """The files and review_by dates of the catalog as just stored."""
    with transaction(con):
        con.execute("DELETE FROM store.record_files")
        con.execute("DELETE FROM store.review_dates")
        insert_rows(
            con,
            "store.record_files",
            [field_values(f) for f in files],
        )
        insert_rows(
            con,
            "store.review_dates",
            [field_values(d) for d in dates],
        )


def stored_file(con: duckdb.DuckDBPyConnection, record_id: str) -> RecordFile | None:
    """The file a record was last stored from, and its digest then."""
    rows = rows_as(
        RecordFile,
        con.execute(
            "SELECT record_id, config_file, digest FROM store.record_files WHERE record_id = ?",
            [record_id],
        ),
    )
    return rows[0] if rows else None


def stored_files(con: duckdb.DuckDBPyConnection, record_ids: list[str]) -> list[RecordFile]:
    """The files these records were last stored from, and their digests then."""
    return rows_as(
        RecordFile,
        con.execute(
            "SELECT record_id, config_file, digest FROM store.record_files"
            " WHERE list_contains(?, record_id)",
            [record_ids],
        ),
    )


def absent_on(con: duckdb.DuckDBPyConnection, record_id: str, source_id: str) -> list[str]:
    """The record's claims its source's current page does not carry."""
    rows = con.execute(
        "SELECT claim_id FROM store.current_checks WHERE record_id = ? AND source_id = ? "
        "AND outcome = 'absent' ORDER BY claim_id",
        [record_id, source_id],
    ).fetchall()
    return [r[0] for r in rows]


def current_checks(
    con: duckdb.DuckDBPyConnection, record_id: str, claim_id: str
) -> list[CurrentCheck]:
    """The claim's checks that count, primary sources first, in the record's order."""
    return rows_as(
        CurrentCheck,
        con.execute(
            "SELECT k.source_id, k.role, k.outcome, k.found_text, k.closest_text,"
            " k.found_status, k.snapshot_id, c.quote, c.status"
            " FROM store.current_checks k JOIN store.claims c USING (record_id, claim_id)"
            " JOIN store.sources s USING (record_id, source_id)"
            " WHERE k.record_id = ? AND k.claim_id = ? AND coalesce(k.counts, true)"
            " ORDER BY k.role <> ?, s.position",
            [record_id, claim_id, Role.PRIMARY],
        ),
    )


def note_update(
    con: duckdb.DuckDBPyConnection,
    check: CurrentCheck,
    record_id: str,
    claim_id: str,
    quote: str,
    status: str | None,
    now: datetime,
) -> None:
    con.execute(
        "INSERT INTO store.claim_updates VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            record_id,
            claim_id,
            check.source_id,
            check.snapshot_id,
            check.quote,
            quote,
            check.status,
            status,
            now,
        ],
    )


def claim_grade(
    con: duckdb.DuckDBPyConnection, record_id: str, claim_id: str
) -> tuple[str, bool] | None:
    """A claim's grade, and whether its primaries disagree."""
    row = con.execute(
        "SELECT grade, coalesce(disagree, false) FROM store.claim_grades"
        " WHERE record_id = ? AND claim_id = ?",
        [record_id, claim_id],
    ).fetchone()
    return (row[0], bool(row[1])) if row else None


def record_grade(con: duckdb.DuckDBPyConnection, record_id: str) -> tuple[str, str] | None:
    row = con.execute(
        "SELECT grade, freshness FROM record_status WHERE record_id = ?", [record_id]
    ).fetchone()
    return (row[0], row[1]) if row else None


def due_review_dates(con: duckdb.DuckDBPyConnection, now: datetime) -> list[ReviewDate]:
    """review_by dates reached (by the connection's clock) with no alert raised yet,
    and not settled by an `evidence update` since; noted as raised (inside the caller's
    transaction, with the messages kept for them)."""
    due = rows_as(
        ReviewDate,
        con.execute(
            """
            SELECT d.record_id, d.claim_id, d.review_by
            FROM store.review_dates d
            WHERE d.review_by <= (evidence_now() AT TIME ZONE 'UTC')::DATE
              AND NOT EXISTS (
                  SELECT 1 FROM store.review_alerts a
                  WHERE a.record_id = d.record_id AND a.review_by = d.review_by
                    AND a.claim_id IS NOT DISTINCT FROM d.claim_id)
              AND NOT EXISTS (
                  SELECT 1 FROM store.claim_updates u
                  WHERE u.record_id = d.record_id
                    AND (d.claim_id IS NULL OR u.claim_id = d.claim_id)
                    AND u.updated_at >= d.review_by::TIMESTAMPTZ)
            ORDER BY d.record_id, d.claim_id NULLS FIRST
            """
        ),
    )
    insert_rows(
        con,
        "store.review_alerts",
        [{**field_values(d), "raised_at": now} for d in due],
    )
    return due


def review_queue(con: duckdb.DuckDBPyConnection, now: datetime, scope: str = "") -> list[QueueItem]:
    """What needs a person, most urgent first (warehouse/sql/review_queue.sql), each with
    what happened and the command that settles it (`now`: the date year-less figures are
    read against; `scope`: the ` --config DIR --db PATH` every `evidence` command carries,
    so that it acts on this catalog from any folder)."""
    rows = sorted(rows_as(QueueRow, con.execute(sql_file("review_queue.sql"))), key=QueueRow.order)
    return [_item(r, now, scope) for r in rows]


def _item(r: QueueRow, now: datetime, scope: str) -> QueueItem:
    since = r.since.date() if r.since is not None else None
    file = r.config_file or "its record file"
    what: str
    command: str
    if r.kind.startswith("condition-"):
        what = r.detail or "its condition does not hold"
        command = (
            f"edit the `expect:` of claim {r.subject} in {file} (it asks what the page no "
            "longer says), or take the page's wording: "
            f"evidence update {r.record_id} {r.subject}{scope}"
        )
    elif r.kind in ("changed", "absent"):
        words = r.found_text if r.kind == "changed" else r.closest_text
        what = _moved(r, words, since, now)
        if words:  # the source named: another's page would make `update` refuse
            command = f"evidence update {r.record_id} {r.subject} --source {r.source_id}{scope}"
        else:  # nothing on the page near the quote: write it anew, or leave that page out
            command = (
                f"write the page's words into claim {r.subject} in {file}, or check it on "
                f"the pages that carry it: `sources: [...]` without {r.source_id}"
            )
    elif r.kind == "disagree":
        moved = _moved(r, r.found_text, since, now)
        what = f"primaries disagree: {moved}; confirmed on {r.detail}"
        command = (
            f"keep one page for {r.subject}: `sources: [{r.source_id}]` "
            f"(or [{(r.detail or '').split(', ')[0]}]) on the claim in {file}"
        )
    elif r.kind == "held":
        what = f"page held for review: {r.detail}"
        command = f"evidence accept {r.record_id} {r.subject}{scope}"
    elif r.kind == "needs-browser":
        what = r.detail or "needs `render: browser`"
        command = f"add `render: browser` to source {r.subject} in {file}"
    elif r.kind == "dead":
        what = f"dead since {since}: {r.detail}"
        command = f"fix or remove the url of {r.subject} in {file}"
    elif r.kind == "unreachable":
        n = r.failures or 0
        what = f"{r.detail} ({n} failed refresh{'es' if n != 1 else ''})"
        outcome, _, rest = (r.detail or "").partition(" ")
        code = rest.split(":")[0]
        if outcome in WRONG_URL or (
            outcome == "http_error" and code.isdigit() and int(code) in GONE_STATUSES
        ):
            command = f"fix the url of {r.subject} in {file}"
        else:
            command = f"evidence refresh --source {r.record_id}/{r.subject}{scope}"
    elif r.kind == "stale":
        what = f"stale since {since}"
        command = f"evidence refresh --record {r.record_id}{scope}"
    else:  # review-by
        what = f"review by {since}" + (f" ({r.subject})" if r.subject else "")
        command = f"set a later review_by in {file}"
    return QueueItem(r.record_id, r.subject, r.kind, what, since, command, r.source_id)


def _moved(r: QueueRow, words: str | None, since: date | None, now: datetime) -> str:
    """`$4,000 -> $2,500 on hf-blog`, `open -> closed on hf-blog`, or `absent since ...`."""
    on = f" on {r.source_id}"
    if r.status and words:
        found = r.found_status or next((m.status.value for m in extract_statuses(words)), None)
        if found and found != r.status:
            return f"{r.status} -> {found}{on}"
    if r.kind in ("changed", "disagree") and words and r.quote:
        pairs = moved_figures(r.quote, words, now)
        if pairs:
            return "; ".join(f"{a} -> {b}" for a, b in pairs) + on
        return f'now "{words}"{on}'
    near = f'; closest: "{words}"' if words else ""
    return f"absent since {since}{on}{near}"
