"""`evidence update ID CLAIM`: take a page's current wording into a claim, in the
record's own file, then check and grade the record again against the stored pages (no
fetch), so that a record whose primary agrees is `documented` at once."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from evidence_base.errors import EvidenceError, UnknownClaim, WarehouseMissing
from evidence_base.words import Role
from extractors.statuses import extract_statuses
from extractors.values import CheckOutcome
from flows.catalog import (
    Catalog,
    ClaimConfig,
    RecordFile,
    catalog_with,
    diff_text,
    file_digest,
    write_atomically,
)
from flows.checks import check_claims
from flows.planning import catalog_rows, keeping_rows
from flows.preflight import upgrade_file
from flows.runtime import clock
from warehouse import keeping, store
from warehouse.db import session
from warehouse.keeping import CurrentCheck
from warehouse.lock import refresh_lock

HAND = "your words"  # where a quote written by hand comes from


@dataclass(frozen=True, slots=True)
class Update:
    """What `evidence update` did (or, with --dry-run, would do)."""

    record_id: str
    claim_id: str
    source_id: str
    path: Path
    diff: str
    written: bool
    before: tuple[str, str] | None = None  # the record's (grade, freshness)
    after: tuple[str, str] | None = None
    words: str = ""  # the quote written (or to be)

    @property
    def regraded(self) -> str:
        return regraded(self.before, self.after)


def regraded(before: tuple[str, str] | None, after: tuple[str, str] | None) -> str:
    """How a record's grade moved: `contradicted, fresh -> documented, fresh`."""

    def said(graded: tuple[str, str] | None) -> str:
        return ", ".join(graded) if graded else "not graded"

    return f"{said(before)} -> {said(after)}"


def update_claim(
    catalog: Catalog,
    db: Path,
    record_id: str,
    claim_id: str,
    source_id: str | None = None,
    dry_run: bool = False,
    scope: str = "",
    quote: str | None = None,
    expect_words: str | None = None,
) -> Update:
    """Write the wording of the claim's page into its quote (and status), or the keeper's
    own words (`quote`: a quote written by hand, where no page has a passage near it), or
    raise an EvidenceError naming why not, the file untouched; the commands it names
    carry `scope` (` --config DIR --db PATH`). `expect_words`: the words a person was
    shown, refused when the page's are others by now."""
    record = catalog.record(record_id)
    claim = next((c for c in record.config.claims if c.id == claim_id), None)
    if claim is None:
        raise UnknownClaim(claim_id, (c.id for c in record.config.claims), owner=record_id)
    if not db.exists():
        raise WarehouseMissing(f"no database at {db}: run `evidence refresh` first")
    path = Path(record.file)
    now = clock.now()
    with refresh_lock(db), _upgraded(db), session(db, now=now) as con:
        stored = keeping.stored_file(con, record_id)
        if stored is None:
            raise EvidenceError(
                f"{record_id} has not been refreshed yet: run `evidence refresh --record "
                f"{record_id}{scope}` first"
            )
        if stored.digest != file_digest(path):
            raise EvidenceError(
                f"{path} changed since the last refresh: run `evidence refresh --record "
                f"{record_id}{scope}` first, so that the wording is taken from pages checked "
                "against the file as it is"
            )
        check: CurrentCheck | None = None
        if quote is not None:
            words = " ".join(quote.split())
            if not words:
                raise EvidenceError(f"an empty quote for {claim_id}: write the page's words")
        else:
            check = choose_check(
                keeping.current_checks(con, record_id, claim_id),
                claim_id,
                source_id,
                keeping.claim_grade(con, record_id, claim_id),
                scope,
            )
            words = page_words(check)
            if expect_words is not None and words != " ".join(expect_words.split()):
                raise EvidenceError(
                    f"the page's words for {claim_id} changed since they were shown "
                    "(a refresh came between): look at them again"
                )
        before_text = path.read_text(encoding="utf-8")
        file = RecordFile(path, record_id, before_text)
        new_status = take_words(file, claim, words, check)
        after_text = file.new_text()
        diff = diff_text(path, before_text, after_text)
        taken_from = check.source_id if check is not None else HAND
        if dry_run:
            return Update(record_id, claim_id, taken_from, path, diff, False, words=words)
        grade_before = keeping.record_grade(con, record_id)
        # the catalog as it will be, checked before anything is written: the file is
        # written once, whole, and only when valid (a kill leaves it as it was or done)
        updated = catalog_with(catalog.config_dir, path, after_text)
        write_atomically(path, after_text)
        store.sync_catalog(con, *catalog_rows(updated))
        keeping.sync_keeping(con, *keeping_rows(updated))
        if check is not None:
            keeping.note_update(con, check, record_id, claim_id, words, new_status, now)
        check_claims(con)
        store.grade_all(con)
        grade_after = keeping.record_grade(con, record_id)
    return Update(
        record_id, claim_id, taken_from, path, diff, True, grade_before, grade_after, words
    )


def take_words(
    file: RecordFile, claim: ClaimConfig, words: str, check: CurrentCheck | None
) -> str | None:
    """Edit the claim in its file to say `words` (and, for a status claim, the status they
    state, or the one its check found); the claim's status after."""
    status = claim.status.value if claim.status else None
    new_status = status
    if status is not None:
        found = [m.status.value for m in extract_statuses(words)]
        said = check.found_status if check is not None else None
        new_status = said or (found[0] if found else status)
    file.set_claim(claim.id, "quote", words)
    file.drop_figure_comment(claim.id)  # suggest's parsed figure: now another one
    if new_status != status and new_status is not None:
        file.set_claim(claim.id, "status", new_status)
    return new_status


def page_words(check: CurrentCheck) -> str:
    """The page's wording a check found (or its closest passage), spaces folded."""
    return " ".join((check.found_text or check.closest_text or "").split())


@contextmanager
def _upgraded(db: Path) -> Iterator[None]:
    upgrade_file(db)
    yield


def choose_check(
    checks: list[CurrentCheck],
    claim_id: str,
    source_id: str | None,
    grade: tuple[str, bool] | None = None,
    scope: str = "",
) -> CurrentCheck:
    """The check whose page's wording is taken: the named source's, else the first primary
    that shows the claim `changed`, else the first with a passage near the quote, then the
    same among third parties."""
    if source_id is not None:
        named = [c for c in checks if c.source_id == source_id]
        if not named:
            known = {c.source_id for c in checks}
            raise EvidenceError(
                f"claim {claim_id!r} has no checked page on source {source_id!r}"
                + (f"; checked on: {', '.join(sorted(known))}" if known else "")
            )
        check = named[0]
        if check.outcome == CheckOutcome.CONFIRMED:
            raise EvidenceError(
                f"{claim_id} is confirmed on {source_id}: its quote is on the page, nothing to take"
            )
        if not (check.found_text or check.closest_text):
            raise EvidenceError(
                f"no passage of {source_id}'s page is near the quote of {claim_id}: "
                "write the new quote by hand (--quote TEXT; `evidence show` gives the "
                "page's figures)"
            )
        return check
    if not checks:
        raise EvidenceError(
            f"{claim_id} has no checked page yet: run `evidence refresh{scope}` first"
        )
    agree = [
        c.source_id
        for c in checks
        if c.role == Role.PRIMARY and c.outcome == CheckOutcome.CONFIRMED
    ]
    # the newest evidence decides: a primary that confirms it refuses only while the
    # claim is documented by it (not when a newer primary shows it changed)
    if agree and (grade is None or grade == ("documented", False)):
        raise EvidenceError(
            f"{claim_id} is confirmed on its primary source {agree[0]}: nothing to take "
            "(--source SOURCE takes another page's wording all the same)"
        )
    for role in Role:
        mine = [c for c in checks if c.role == role]
        for c in [c for c in mine if c.outcome == CheckOutcome.CHANGED and c.found_text] + [
            c for c in mine if c.outcome != CheckOutcome.CONFIRMED and c.closest_text
        ]:
            return c
    if all(c.outcome == CheckOutcome.CONFIRMED for c in checks):
        raise EvidenceError(f"{claim_id} is confirmed on every page: nothing to take")
    raise EvidenceError(
        f"no page has a passage near the quote of {claim_id}: write the new quote by hand "
        "(--quote TEXT; `evidence show` gives the page's figures)"
    )
