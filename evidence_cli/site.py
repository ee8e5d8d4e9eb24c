"""`evidence site --out DIR`: the catalog as a static site, readable from file:// with no
network and no JavaScript. Jinja2 templates (evidence_cli/templates/) with autoescape on: every
string that came from a page is escaped."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import NAMESPACE_URL, uuid5

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from evidence_base.outputs import dir_in, file_in, output_dir, write_text
from evidence_cli.record_page import claims_on_page, figures_on_page, sources_on_page
from evidence_cli.render import evidence_said
from extractors.values import Freshness, Grade
from flows.commands import pages
from warehouse import queries
from warehouse.db import Connection

SITE_TITLE, day, natural = pages.SITE_TITLE, pages.day, pages.natural

# Okabe-Ito colours, distinguishable with every common colour blindness; the badges
# carry the word as well.
GRADE_COLOURS = {
    Grade.DOCUMENTED: "#0072B2",
    Grade.REPORTED: "#56B4E9",
    Grade.UNVERIFIED: "#999999",
    Grade.CONTRADICTED: "#D55E00",
}


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
    env = templates()
    env.filters["day"] = day
    common = {"site_title": SITE_TITLE, "generated": now.strftime("%Y-%m-%d %H:%M UTC")}
    catalog = pages.catalog_pages(con, now)
    records = catalog.records
    out = output_dir(out)  # written through: a symlinked folder is followed
    dir_in(out, "records")
    files = _write_data(con, out, now) if with_data else []
    queue = pages.queue(con, now)
    index = file_in(out, "index.html")
    write_text(
        index,
        env.get_template("index.html").render(
            records=records,
            root="",
            dataset=pages.dataset(records, now, license, files),
            queue_size=len(queue),
            **common,
        ),
    )
    write_text(
        file_in(out, "review.html"),
        env.get_template("review.html").render(queue=queue, root="", **common),
    )
    for r in records:
        page = pages.record_page(con, r.record_id, catalog.history.get(r.record_id, []), r)
        write_text(
            file_in(out, f"records/{r.record_id}.html"),
            env.get_template("record.html").render(
                root="../", **record_context(page, now), **common
            ),
        )
    write_text(
        file_in(out, "sources.html"),
        env.get_template("sources.html").render(sources=pages.sources(con), root="", **common),
    )
    name = queries.catalog_uuid(con) or uuid5(NAMESPACE_URL, f"file:{out.resolve()}").hex
    write_text(
        file_in(out, "feed.xml"),
        env.get_template("feed.xml").render(
            entries=pages.feed_entries(con, catalog.history, name),
            feed_id=f"urn:evidence-pipeline:catalog:{name}",
            updated=now.astimezone(UTC).isoformat(),
            **common,
        ),
    )
    return index


def templates() -> Environment:
    """The site's templates, autoescaped: the static site and the desk render with them."""
    env = Environment(
        loader=PackageLoader("evidence_cli", "templates"),
        autoescape=select_autoescape(["html", "xml"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["url_breaks"] = url_breaks
    env.filters["day"] = day
    return env


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


def record_context(page: pages.RecordPage, now: datetime) -> dict[str, Any]:
    """A record page's template values: its card rendered (claims, figures, sources, the
    grade's timeline), for the static site and the desk alike."""
    card = page.card
    figures = figures_on_page(card)
    return {
        "record": card.record,
        "checked_on": day(card.record.checked_at),
        "stale_on": day(card.record.stale_on),
        # the card's sentence, from the rows of the grade
        "evidence": evidence_said(card.record.grade, card.claims, card.checks),
        "fields": [(f["name"], f["value"]) for f in card.record.fields or []],
        "claims": claims_on_page(card, now, day),
        "figures": sorted(figures.items(), key=lambda kv: natural(kv[0])),
        "sources": sources_on_page(card, day),
        "timeline": timeline_svg(list(page.history), now),
        "moved": page.moved,
        "last_change": page.last_change,
    }


def url_breaks(url: str) -> Markup:
    """A URL, escaped, in pieces that never break: a narrow column wraps it only after a
    '/' or a '-', or before a '?', '&' or '#', never inside a word of it."""
    pieces = re.split(r"(?<=[/-])(?![/-])|(?=[?&#])", url)
    return Markup("<wbr>").join(
        Markup('<span class="nowrap">{}</span>').format(p) for p in pieces if p
    )


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
        label = html.escape(f"{row.grade}, {row.freshness} from {day(row.changed_at)}")
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
    if day(start) != day(now):
        return str(day(start)), str(day(now))
    at = start.astimezone(UTC)
    return f"{day(start)} {at:%H:%M}", f"{now.astimezone(UTC):%H:%M} UTC (now)"


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
