"""What a refresh will do, worked out from the catalog before anything is fetched: the
catalog's rows for the warehouse, one request per distinct URL, and the quotes each
URL's page is checked for."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from evidence_base.words import Render
from flows.catalog import Catalog, Record, file_digest
from flows.fetching import FetchRequest
from warehouse.keeping import RecordFile, ReviewDate
from warehouse.queries import Due
from warehouse.rows import ClaimRow, RecordRow, SourceRow, SourceState


@dataclass(frozen=True, slots=True)
class Target:
    """A (record, source) that a URL's fetch answers for."""

    record_id: str
    source_id: str


@dataclass
class Plan:
    requests: list[FetchRequest]
    targets: dict[str, list[Target]] = field(default_factory=dict)


def catalog_rows(catalog: Catalog) -> tuple[list[RecordRow], list[SourceRow], list[ClaimRow]]:
    """The catalog as the warehouse stores it."""
    records: list[RecordRow] = []
    sources: list[SourceRow] = []
    claims: list[ClaimRow] = []
    for record in catalog.records:
        c = record.config
        records.append(
            RecordRow(
                record_id=c.id,
                title=c.title,
                window_s=int(record.window.total_seconds()),
                fields=tuple((k, "" if v is None else str(v)) for k, v in c.fields.items()),
                config_file=record.file,
            )
        )
        sources.extend(
            SourceRow(record_id=c.id, source_id=s.source_id, url=s.url, role=s.role)
            for s in c.sources
        )
        claims.extend(
            ClaimRow(
                record_id=c.id,
                claim_id=cl.id,
                quote=cl.quote,
                status=cl.status.value if cl.status else None,
                source_ids=tuple(cl.sources) if cl.sources is not None else None,
                figure=cl.figure,
                expect=cl.expect.to_expect().to_json() if cl.expect else None,
            )
            for cl in c.claims
        )
    return records, sources, claims


def keeping_rows(catalog: Catalog) -> tuple[list[RecordFile], list[ReviewDate]]:
    """The file each record is read from (its bytes' digest: an edit on disk is seen) and
    the review_by dates of records and claims."""
    digests: dict[str, str] = {}
    files: list[RecordFile] = []
    dates: list[ReviewDate] = []
    for record in catalog.records:
        if record.file not in digests:
            digests[record.file] = file_digest(Path(record.file))
        files.append(
            RecordFile(record_id=record.id, config_file=record.file, digest=digests[record.file])
        )
        c = record.config
        if c.review_by is not None:
            dates.append(ReviewDate(c.id, None, c.review_by))
        dates.extend(ReviewDate(c.id, cl.id, cl.review_by) for cl in c.claims if cl.review_by)
    return files, dates


def plan_requests(
    records: Iterable[Record],
    states: dict[tuple[str, str], SourceState],
    obey_robots: bool,
    render: Render = Render.HTTP,
    only: set[tuple[str, str]] | None = None,
) -> Plan:
    """One request per distinct URL; conditional only when every source of it agrees and
    it is fetched over HTTP; rendered in a browser when any source of it asks. `only`:
    the (record, source) pairs to fetch (those due, or asked for); None: every one."""
    targets: dict[str, list[Target]] = defaultdict(list)
    obey: dict[str, bool] = {}
    redirects: dict[str, bool] = {}
    browser: dict[str, bool] = {}
    wait_for: dict[str, str | None] = {}
    for record in records:
        for source in record.config.sources:
            if only is not None and (record.id, source.source_id) not in only:
                continue
            url = source.url
            targets[url].append(Target(record.id, source.source_id))
            wants = obey_robots if source.obey_robots is None else source.obey_robots
            obey[url] = obey.get(url, False) or wants
            redirects[url] = redirects.get(url, False) or source.expect_redirect
            browser[url] = browser.get(url, False) or (source.render or render) is Render.BROWSER
            wait_for[url] = wait_for.get(url) or source.wait_for
    requests = []
    for url, ts in targets.items():
        known = {states.get((t.record_id, t.source_id)) for t in ts}
        state = known.pop() if len(known) == 1 and not browser[url] else None
        requests.append(
            FetchRequest(
                url=url,
                etag=state.etag if state else None,
                last_modified=state.last_modified if state else None,
                obey_robots=obey[url],
                expect_redirect=redirects[url],
                render=Render.BROWSER if browser[url] else Render.HTTP,
                wait_for=wait_for[url] if browser[url] else None,
            )
        )
    return Plan(requests, dict(targets))


def quotes_by_url(records: Iterable[Record]) -> dict[str, tuple[str, ...]]:
    """By URL: the quotes of every claim that one of its sources is checked for."""
    out: dict[str, dict[str, None]] = defaultdict(dict)
    for record in records:
        for source in record.config.sources:
            for claim in record.config.claims:
                if claim.sources is None or source.source_id in claim.sources:
                    out[source.url][claim.quote] = None
    return {url: tuple(quotes) for url, quotes in out.items()}


def due_pairs(
    due: Iterable[Due], asked: set[tuple[str, str]]
) -> tuple[set[tuple[str, str]], Counter[str]]:
    """The (record, source) pairs a due run fetches, and how many for each reason (a
    DueReason, or "asked for")."""
    fetch = set(asked)
    reasons: Counter[str] = Counter({"asked for": len(asked)} if asked else {})
    for d in due:
        if d.why is not None and (d.record_id, d.source_id) not in asked:
            fetch.add((d.record_id, d.source_id))
            reasons[d.why] += 1
    return fetch, reasons
