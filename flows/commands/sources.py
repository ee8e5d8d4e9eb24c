"""A dead or unreachable source settled in its record's file: its url replaced, or its
entry removed. Written as `update` writes (only its lines change, comments kept), the
catalog checked whole first; the next refresh fetches the new url (`evidence refresh
--source RECORD/SOURCE` at once)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from evidence_base.errors import EvidenceError
from flows.catalog import (
    Catalog,
    RecordFile,
    catalog_with,
    check_url,
    diff_text,
    write_atomically,
)


@dataclass(frozen=True, slots=True)
class SourceEdit:
    record_id: str
    source_id: str
    path: Path
    diff: str
    said: str  # what was done, in a line


def edit_source(
    catalog: Catalog, record_id: str, source_id: str, url: str | None, scope: str = ""
) -> SourceEdit:
    """Replace the source's url (`url` given) or remove its entry (`url` None)."""
    record = catalog.record(record_id)
    path = Path(record.file)
    before = path.read_text(encoding="utf-8")
    file = RecordFile(path, record_id, before)
    if url is not None:
        url = url.strip()
        try:
            check_url(url)
        except ValueError as e:
            raise EvidenceError(str(e)) from None
        file.set_source_url(source_id, url)
        said = (
            f"{source_id} of {record_id} now reads {url}: the next refresh fetches it "
            f"(`evidence refresh --source {record_id}/{source_id}{scope}` at once)"
        )
    else:
        naming = [c.id for c in record.config.claims if c.sources and source_id in c.sources]
        if naming:
            raise EvidenceError(
                f"claim(s) {', '.join(naming)} of {record_id} name {source_id} in `sources:`: "
                "take it out of them first"
            )
        if len(record.config.sources) == 1:
            raise EvidenceError(
                f"{source_id} is the only source of {record_id}: replace its url instead"
            )
        file.remove_source(source_id)
        said = f"{source_id} removed from {record_id}; its snapshots stay in the database"
    after = file.new_text()
    catalog_with(catalog.config_dir, path, after)  # the whole catalog still valid
    write_atomically(path, after)
    return SourceEdit(record_id, source_id, path, diff_text(path, before, after), said)


def scope_claim(
    catalog: Catalog, record_id: str, claim_id: str, source_id: str, scope: str = ""
) -> SourceEdit:
    """Check the claim on one of its record's sources only (`sources: [SOURCE]`): what
    settles primaries that disagree, or a page that never carried the claim."""
    catalog.source(record_id, source_id)
    path = Path(catalog.record(record_id).file)
    before = path.read_text(encoding="utf-8")
    file = RecordFile(path, record_id, before)
    file.set_claim_sources(claim_id, [source_id])
    after = file.new_text()
    catalog_with(catalog.config_dir, path, after)
    write_atomically(path, after)
    said = (
        f"{claim_id} of {record_id} is checked on {source_id} only: the next refresh grades "
        f"it so (`evidence refresh --record {record_id}{scope}` at once)"
    )
    return SourceEdit(record_id, source_id, path, diff_text(path, before, after), said)
