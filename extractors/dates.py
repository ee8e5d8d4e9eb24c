"""A page's own dates: when it was published and last updated.

Read, in this order of trust, from a visible "Published ..." / "Last updated ..." line
of the main text, the page's JSON-LD (datePublished, dateModified), its meta tags
(article:published_time, article:modified_time, og:updated_time, ...) and its <time>
elements. Dates are taken as the page writes them (a metadata time in UTC is not moved
to any other zone), and none after the moment of the fetch is believed.

Only those places are read: extractors/fingerprint.py covers each of them, so that a
page whose dates moved is never taken for one that did not change.
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime

from extractors.numbers import extract_numbers
from extractors.values import NumberKind

EARLIEST = date(1995, 1, 1)
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_META = re.compile(r"<meta\b[^>]*>", re.I)
_ATTR = re.compile(r"([\w:.-]+)\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s>\"']+)")
_JSON_LD = re.compile(r"<script\b[^>]*application/ld\+json[^>]*>(.*?)</script\s*>", re.I | re.S)
_TIME = re.compile(r"<time\b([^>]*)>", re.I)
_LINE = re.compile(
    r"(?im)^[^\S\n]*(?P<label>(?:originally\s+)?published|posted|first\s+published|"
    r"(?:last\s+)?updated|last\s+modified|modified|last\s+reviewed)"
    r"(?:\s+on)?\s*:?\s+(?P<rest>[^\n]{4,60})"
)
PUBLISHED_META = (
    "article:published_time",
    "og:published_time",
    "datepublished",
    "published_time",
    "publishdate",
    "publish-date",
    "publish_date",
    "pubdate",
    "parsely-pub-date",
    "sailthru.date",
    "dc.date.issued",
    "dc.date",
    "dcterms.created",
    "dcterms.date",
    "date",
)
MODIFIED_META = (
    "article:modified_time",
    "og:updated_time",
    "datemodified",
    "modified_time",
    "last-modified",
    "lastmod",
    "dcterms.modified",
    "dc.date.modified",
)


def page_dates(html: str, text: str, fetched_at: datetime) -> tuple[date | None, date | None]:
    """(published_on, modified_on) of a page; None where it says nothing believable."""
    latest = fetched_at.date()
    published, modified = _from_text(text, fetched_at)
    head = html[:400_000]
    ld_published, ld_modified = _from_json_ld(head)
    meta = _metas(head)
    published = published or ld_published or _first(meta, PUBLISHED_META)
    modified = modified or ld_modified or _first(meta, MODIFIED_META)
    time_published, time_modified = _from_time_elements(head)
    published = published or time_published
    modified = modified or time_modified
    return _believable(published, latest), _believable(modified, latest)


def _believable(day: date | None, latest: date) -> date | None:
    return day if day is not None and EARLIEST <= day <= latest else None


def _iso(value: str | None) -> date | None:
    if not value:
        return None
    m = _ISO.search(value)
    if m is None:
        return None
    try:
        return date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None


def _metas(head: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for m in _META.finditer(head):
        attrs = {k.lower(): v.strip("\"'") for k, v in _ATTR.findall(m.group(0))}
        key = (attrs.get("property") or attrs.get("name") or attrs.get("itemprop") or "").lower()
        if key and "content" in attrs:
            found.setdefault(key, attrs["content"])
    return found


def _first(meta: dict[str, str], keys: tuple[str, ...]) -> date | None:
    for key in keys:
        day = _iso(meta.get(key))
        if day is not None:
            return day
    return None


def _from_json_ld(head: str) -> tuple[date | None, date | None]:
    published = modified = None
    for m in _JSON_LD.finditer(head):
        try:
            data = json.loads(m.group(1).strip().rstrip(";"))
        except (ValueError, RecursionError):
            continue
        for item in _walk(data):
            published = published or _iso(_str(item.get("datePublished")))
            modified = modified or _iso(_str(item.get("dateModified")))
        if published and modified:
            break
    return published, modified


def _walk(data: object, depth: int = 0) -> list[dict]:
    """The JSON objects of a JSON-LD block that carry dates, outer ones first."""
    if depth > 6:
        return []
    found: list[dict] = []
    if isinstance(data, dict):
        if "datePublished" in data or "dateModified" in data:
            found.append(data)
        for key in ("@graph", "mainEntity", "mainEntityOfPage"):
            found.extend(_walk(data.get(key), depth + 1))
    elif isinstance(data, list):
        for item in data[:50]:
            found.extend(_walk(item, depth + 1))
    return found


def _str(value: object) -> str | None:
    if isinstance(value, list) and value:
        value = value[0]
    return value if isinstance(value, str) else None


def _from_time_elements(head: str) -> tuple[date | None, date | None]:
    published = modified = None
    for m in _TIME.finditer(head):
        attrs = {k.lower(): v.strip("\"'") for k, v in _ATTR.findall(m.group(1))}
        day = _iso(attrs.get("datetime"))
        if day is None:
            continue
        hint = " ".join(attrs.get(k, "") for k in ("itemprop", "class", "id")).lower()
        if "modif" in hint or "updat" in hint:
            modified = modified or day
        elif published is None:
            published = day
    return published, modified


def _from_text(text: str, fetched_at: datetime) -> tuple[date | None, date | None]:
    """Dates of visible "Published ..." and "Updated ..." lines of the main text."""
    published = modified = None
    for m in _LINE.finditer(text[:20_000]):
        day = next(
            (
                n.date_from
                for n in extract_numbers(m.group("rest"), fetched_at)
                if n.kind is NumberKind.DATE and n.date_from is not None
            ),
            None,
        )
        if day is None:
            continue
        label = m.group("label").lower()
        if "updated" in label or "modified" in label or "reviewed" in label:
            modified = modified or day
        else:
            published = published or day
    return published, modified
