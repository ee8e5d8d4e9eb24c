"""`evidence suggest URL`: fetch a page as a refresh would and print a record skeleton
with candidate claims, ready to paste into the catalog."""

from __future__ import annotations

import json
from datetime import datetime

from extractors.candidates import candidates
from extractors.encoding import decode_body
from extractors.page import extract_page
from flows import clock
from flows.attempts import FetchLimits, FetchRequest, last_live
from flows.config import FetchSettings, slugify, source_slug
from flows.fetch import fetch_batch
from warehouse.errors import EvidenceError


def suggest(
    url: str, fetch: FetchSettings, role: str = "primary", render: str | None = None
) -> str:
    """The YAML of a record for the page at `url`: its source and candidate claims, best
    first, each with its parsed figure or status as a comment."""
    render = render or fetch.render
    request = FetchRequest(url=url, obey_robots=fetch.obey_robots, render=render)
    attempts = fetch_batch([request], limits_of(fetch), clock.now)[url]
    got = last_live(attempts)
    if not got.outcome.success or got.body is None:
        detail = got.error or (f"HTTP {got.http_status}" if got.http_status else "")
        raise EvidenceError(
            f"could not read {url}: {got.outcome.value}" + (f" ({detail})" if detail else "")
        )
    html, _ = decode_body(got.body, got.encoding)
    page = extract_page(html or "", got.final_url or url, got.fetched_at or clock.now())
    found = candidates(page)
    if not found:
        raise EvidenceError(
            f"no figure or status in the main text of {url}"
            + ("" if render == "browser" else "; if JavaScript builds it, try --render browser")
        )
    return record_yaml(url, page.title, role, render, found, clock.now())


def limits_of(fetch: FetchSettings) -> FetchLimits:
    return FetchLimits(
        timeout_s=fetch.timeout_s,
        concurrency=fetch.concurrency,
        per_host=fetch.per_host,
        retries=fetch.retries,
        max_bytes=fetch.max_bytes,
        user_agent=fetch.user_agent,
        archive_fallback=None,
        browser_path=fetch.browser_path,
        browser_concurrency=fetch.browser_concurrency,
    )


def record_yaml(
    url: str,
    title: str | None,
    role: str,
    render: str,
    found: list,
    now: datetime,
) -> str:
    """A record in the catalog's YAML (strings JSON-quoted: valid YAML, any text safe)."""
    source_id = source_slug(url)
    lines = [
        f"# suggested by `evidence suggest` on {now.date().isoformat()}: keep the claims you",
        "# want (best first), give the record a title and fields, add other sources",
        f"- id: {slugify(title or source_id)[:60].strip('-') or source_id}",
        f"  title: {json.dumps(title or url, ensure_ascii=False)}",
        "  sources:",
        f"    - id: {source_id}",
        f"      url: {json.dumps(url)}",
        f"      role: {role}",
    ]
    if render == "browser":
        lines.append("      render: browser")
    lines.append("  claims:")
    used: set[str] = set()
    for c in found:
        claim_id = c.slug[:40].strip("-") or "claim"
        n = 2
        while claim_id in used:
            claim_id, n = f"{c.slug[:37].strip('-')}-{n}", n + 1
        used.add(claim_id)
        lines.append(f"    - id: {claim_id}  # {c.what}")
        lines.append(f"      quote: {json.dumps(c.quote, ensure_ascii=False)}")
        if c.what.startswith("status "):
            lines.append(f"      status: {c.what.removeprefix('status ')}")
    return "\n".join(lines) + "\n"
