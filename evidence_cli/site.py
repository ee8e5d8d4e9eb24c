"""`evidence site --out DIR`: the catalog as a static site, readable from file:// with no
network and no JavaScript. Jinja2 templates (evidence_cli/templates/) with autoescape on: every
string that came from a page is escaped."""

from __future__ import annotations

import html
import re
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any
from uuid import NAMESPACE_URL, uuid5

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from evidence_cli.record_page import claims_on_page, figures_on_page, sources_on_page
from evidence_cli.render import evidence_said
from extractors.grading import urgency
from extractors.values import Freshness, Grade
from flows.catalog import license_url
from warehouse import queries
from warehouse.db import Connection
from warehouse.errors import WarehouseError
from warehouse.outputs import dir_in, file_in, output_dir, write_text

SITE_TITLE = "Evidence catalog"
PROJECT_URL = "https://github.com/evidence-pipeline/evidence-pipeline"
# Okabe-Ito colours, distinguishable with every common colour blindness; the badges
# carry the word as well.
GRADE_COLOURS = {
    Grade.DOCUMENTED: "#0072B2",
    Grade.REPORTED: "#56B4E9",
    Grade.UNVERIFIED: "#999999",
    Grade.CONTRADICTED: "#D55E00",
}


@dataclass(frozen=True, slots=True)
class IndexRow:
    """A record as a line of the site's index: its status, with its dates as days and
    its last change said."""

    record_id: str
    title: str
    grade: Grade
    freshness: Freshness
    sources_confirming: int
    stale_on: str | None
    days_left: int | None  # until it goes stale
    last_change: str | None
    moved: str
    unreachable: int


def index_row(r: queries.SiteRecord, moved: str, today: date) -> IndexRow:
    return IndexRow(
        record_id=r.record_id,
        title=r.title,
        grade=r.grade,
        freshness=r.freshness,
        sources_confirming=r.sources_confirming,
        stale_on=_day(r.stale_on),
        days_left=(r.stale_on.date() - today).days if r.stale_on is not None else None,
        last_change=_day(r.last_change),
        moved=moved,
        unreachable=r.unreachable,
    )


def write_site(
    con: Connection,
    out: Path,
    now: datetime,
    *,
    license: str | None = None,
    with_data: bool = False,
) -> Path:
    """Write index.html (with schema.org Dataset metadata), records/<id>.html,
    review.html (the queue of `evidence review`), sources.html and feed.xml into `out`;
    `with_data`: the stable views too, under data/parquet and data/csv with their
    datapackage.json. Returns the index's path."""
    env = Environment(
        loader=PackageLoader("evidence_cli", "templates"),
        autoescape=select_autoescape(["html", "xml"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["url_breaks"] = url_breaks
    env.filters["day"] = _day
    common = {"site_title": SITE_TITLE, "generated": now.strftime("%Y-%m-%d %H:%M UTC")}
    history: defaultdict[str, list[queries.GradeChange]] = defaultdict(list)
    for change in queries.grade_history(con):
        history[change.record_id].append(change)
    changes = queries.newest_changes(con)
    records = [
        index_row(r, what_moved(r.record_id, history[r.record_id], changes), now.date())
        for r in queries.site_records(con)
    ]
    records.sort(  # as `evidence status` orders them; among equals, unreachable first
        key=lambda r: (
            urgency(r.grade, r.freshness),
            0 if r.unreachable else 1,
            natural(r.record_id),
        )
    )
    out = output_dir(out)  # written through: a symlinked folder is followed
    dir_in(out, "records")
    files = _write_data(con, out, now) if with_data else []
    from flows.commands.review import review_items

    queue = review_items(con, now)
    index = file_in(out, "index.html")
    write_text(
        index,
        env.get_template("index.html").render(
            records=records,
            root="",
            dataset=dataset(records, now, license, files),
            queue_size=len(queue),
            **common,
        ),
    )
    write_text(
        file_in(out, "review.html"),
        env.get_template("review.html").render(queue=queue, root="", **common),
    )
    for r in records:
        page = _record_page(con, r.record_id, history[r.record_id], now)
        page["moved"], page["last_change"] = r.moved, r.last_change
        write_text(
            file_in(out, f"records/{r.record_id}.html"),
            env.get_template("record.html").render(root="../", **page, **common),
        )
    sources = sorted(
        queries.source_health(con),
        key=lambda s: (bool(s.reachable), natural(s.record_id), natural(s.source_id)),
    )
    write_text(
        file_in(out, "sources.html"),
        env.get_template("sources.html").render(sources=sources, root="", **common),
    )
    catalog = queries.catalog_uuid(con) or uuid5(NAMESPACE_URL, f"file:{out.resolve()}").hex
    write_text(
        file_in(out, "feed.xml"),
        env.get_template("feed.xml").render(
            entries=_feed_entries(con, history, catalog),
            feed_id=f"urn:evidence-pipeline:catalog:{catalog}",
            updated=now.astimezone(UTC).isoformat(),
            **common,
        ),
    )
    return index


DATA_FORMATS = ("parquet", "csv")


def _write_data(con: Connection, out: Path, now: datetime) -> list[tuple[str, str, str]]:
    """The stable views beside the site; (path from the site, format, media type) each."""
    from flows.commands.export import write_tables

    files = []
    for fmt in DATA_FORMATS:
        for resource in write_tables(con, out / "data" / fmt, fmt, SITE_TITLE, now):
            files.append((f"data/{fmt}/{resource['path']}", fmt, resource["mediatype"]))
        files.append((f"data/{fmt}/datapackage.json", "datapackage", "application/json"))
    return files


def dataset(
    records: list[IndexRow],
    now: datetime,
    license: str | None,
    files: list[tuple[str, str, str]],
) -> dict[str, Any]:
    """The catalog as a schema.org Dataset (JSON-LD), as dataset search engines read it;
    its distributions are the exports written beside the site."""
    data: dict[str, Any] = {
        "@context": "https://schema.org/",
        "@type": "Dataset",
        "name": SITE_TITLE,
        "description": (
            f"{len(records)} records of a catalog of facts, each claim checked against its "
            "primary and third-party sources: its evidence grade (documented, reported, "
            "unverified, contradicted), when it was checked and when it goes stale."
        ),
        "dateModified": now.astimezone(UTC).isoformat(),
        "variableMeasured": ["grade", "freshness", "checked_at", "stale_on"],
        # schema.org: a Dataset's creator is an Organization or a Person
        "creator": {"@type": "Organization", "name": "evidence-pipeline", "url": PROJECT_URL},
    }
    if license:
        data["license"] = license_url(license)  # an SPDX id given as its licence's URL
    if files:
        data["distribution"] = [
            {
                "@type": "DataDownload",
                "name": path.rsplit("/", 1)[-1],
                "contentUrl": path,
                "encodingFormat": media,
            }
            for path, _, media in files
        ]
    return data


def _record_page(
    con: Connection, record_id: str, history: list[queries.GradeChange], now: datetime
) -> dict[str, Any]:
    card = queries.card(con, record_id)
    if card is None:
        raise WarehouseError(f"no record {record_id!r} in the warehouse")
    figures = figures_on_page(card)
    return {
        "record": card.record,
        "checked_on": _day(card.record.checked_at),
        "stale_on": _day(card.record.stale_on),
        # the card's sentence, from the rows of the grade
        "evidence": evidence_said(card.record.grade, card.claims, card.checks),
        "fields": [(f["name"], f["value"]) for f in card.record.fields or []],
        "claims": claims_on_page(card, now, _day),
        "figures": sorted(figures.items(), key=lambda kv: natural(kv[0])),
        "sources": sources_on_page(card, _day),
        "timeline": timeline_svg(history, now),
    }


def natural(text: str) -> tuple[tuple[int, int | str], ...]:
    """A sort key that reads the numbers in a name as numbers: r2 before r10."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text) if part
    )


def url_breaks(url: str) -> Markup:
    """A URL, escaped, in pieces that never break: a narrow column wraps it only after a
    '/' or a '-', or before a '?', '&' or '#', never inside a word of it."""
    pieces = re.split(r"(?<=[/-])(?![/-])|(?=[?&#])", url)
    return Markup("<wbr>").join(
        Markup('<span class="nowrap">{}</span>').format(p) for p in pieces if p
    )


def what_moved(record_id: str, history: list[queries.GradeChange], changes: dict[str, str]) -> str:
    """The record's last change, said plainly: "documented -> contradicted: gpu-hours 500
    GPU hours -> 300 GPU hours" (the figures from its `changed:` alert, when a changed
    claim is what made it contradicted)."""
    if not history:
        return ""
    last = history[-1]
    if len(history) == 1:
        return f"{last.grade} ({last.freshness}), first graded"
    prev = history[-2]
    if prev.grade != last.grade:
        moved = f"{prev.grade} -> {last.grade}"
    else:
        moved = f"{prev.freshness} -> {last.freshness}"
    title = changes.get(record_id)
    if last.grade == Grade.CONTRADICTED and title:
        moved += ": " + title.removeprefix(f"changed: {record_id} ")
    return moved


CURRENT_BAND = 0.08  # of the timeline's width at least, for the grade as it stands


def timeline_svg(history: list[queries.GradeChange], now: datetime, width: int = 640) -> Markup:
    """The record's grade over time as coloured bands (stale periods hatched), inline SVG."""
    if not history:
        return Markup('<p class="muted">Not graded yet.</p>')
    start = history[0].changed_at
    span = max((now - start).total_seconds(), 1.0)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="46" role="img" '
        f'aria-label="grade history" class="timeline">',
        '<defs><pattern id="stale" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="3" height="6" fill="#fff" '
        'fill-opacity="0.55"/></pattern></defs>',
    ]
    # The current state keeps a visible band even when it began today: the bands before
    # it are drawn in what is left.
    last_x = (history[-1].changed_at - start).total_seconds() / span * width
    room = width * (1 - CURRENT_BAND)
    scale = room / last_x if last_x > room else 1.0
    for i, row in enumerate(history):
        end = history[i + 1].changed_at if i + 1 < len(history) else now
        x = (row.changed_at - start).total_seconds() / span * width * scale
        w = max((end - row.changed_at).total_seconds() / span * width * scale, 2.0)
        if i + 1 == len(history):
            w = max(width - x, 2.0)  # the grade as it stands, up to today
        colour = GRADE_COLOURS.get(row.grade, "#999999")
        label = html.escape(f"{row.grade}, {row.freshness} from {_day(row.changed_at)}")
        parts.append(
            f'<rect x="{x:.1f}" y="4" width="{w:.1f}" height="22" fill="{colour}">'
            f"<title>{label}</title></rect>"
        )
        if row.freshness != Freshness.FRESH:
            parts.append(
                f'<rect x="{x:.1f}" y="4" width="{w:.1f}" height="22" fill="url(#stale)"/>'
            )
    first, last = _ends(start, now)
    parts.append(f'<text x="0" y="42" font-size="11">{first}</text>')
    parts.append(f'<text x="{width}" y="42" font-size="11" text-anchor="end">{last}</text></svg>')
    return Markup("".join(parts)) + _legend(history)


def _ends(start: datetime, now: datetime) -> tuple[str, str]:
    """The timeline's two ends, told apart: days, or times within the day it began."""
    if _day(start) != _day(now):
        return str(_day(start)), str(_day(now))
    at = start.astimezone(UTC)
    return f"{_day(start)} {at:%H:%M}", f"{now.astimezone(UTC):%H:%M} UTC (now)"


def _legend(history: list[queries.GradeChange]) -> Markup:
    """What the timeline's colours and hatching mean, for the grades it shows."""
    grades = list(dict.fromkeys(row.grade for row in history))
    items = [
        Markup(
            '<span class="key"><span class="swatch" style="background:{}"></span>{}</span>'
        ).format(GRADE_COLOURS.get(g, "#999999"), g)
        for g in grades
    ]
    if any(row.freshness != Freshness.FRESH for row in history):
        items.append(Markup('<span class="key"><span class="swatch hatched"></span>stale</span>'))
    return Markup('<p class="legend">') + Markup(" ").join(items) + Markup("</p>")


def _feed_entries(
    con: Connection, history: dict[str, list[queries.GradeChange]], catalog: str
) -> list[dict]:
    """Grade and freshness changes (going stale among them) and claims now `changed`,
    newest first, each dated by its change and named within the catalog's own id."""
    base = f"urn:evidence-pipeline:catalog:{catalog}"
    entries = []
    for record_id, rows in history.items():
        for previous, row in zip([None, *rows], rows, strict=False):
            if previous is None:
                what = f"{record_id} graded {row.grade} ({row.freshness})"
            elif row.freshness == Freshness.STALE and previous.freshness != Freshness.STALE:
                what = f"{record_id} went stale"
            else:
                what = (
                    f"{record_id}: {previous.grade} ({previous.freshness}) -> "
                    f"{row.grade} ({row.freshness})"
                )
            entries.append(
                {
                    "title": what,
                    "id": f"{base}:{record_id}:{row.changed_at.isoformat()}",
                    "updated": row.changed_at.astimezone(UTC).isoformat(),
                    "record_id": record_id,
                    "summary": what,
                }
            )
    for v in queries.value_moves(con):
        what = f"{v.record_id} {v.claim_id} on {v.source_id}: {v.was} -> {v.now}"
        entries.append(
            {
                "title": what,
                "id": f"{base}:{v.record_id}:{v.claim_id}:"
                f"{v.source_id}:value:{v.first_seen_at.isoformat()}",
                "updated": v.first_seen_at.astimezone(UTC).isoformat(),
                "record_id": v.record_id,
                "summary": f"{what}. Values: {v.history}",
            }
        )
    for c in queries.changed_claims(con):
        entries.append(
            {
                "title": f"{c.record_id} {c.claim_id} changed on {c.source_id}"
                + (f": {c.status} -> {c.found_status}" if c.found_status else ""),
                "id": f"{base}:{c.record_id}:{c.claim_id}:{c.source_id}:{c.changed_at.isoformat()}",
                "updated": c.changed_at.astimezone(UTC).isoformat(),
                "record_id": c.record_id,
                "summary": f"now: {c.found_text}",
            }
        )
    entries.sort(key=lambda e: e["updated"], reverse=True)
    return entries[:500]


def _day(value: datetime | date | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.astimezone(UTC).date().isoformat()
    return value.isoformat()
