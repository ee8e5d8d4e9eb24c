"""`evidence suggest URL`: fetch a page as a refresh would and print a record skeleton
with candidate claims, ready to paste into the catalog."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import yaml as pyyaml

from evidence_base.errors import ConfigError, EvidenceError, first_line
from evidence_base.words import Render, Role
from extractors.candidates import candidates
from extractors.encoding import decode_body
from extractors.page import extract_page
from extractors.printable import printable
from flows.catalog import (
    SLUG,
    Catalog,
    FetchSettings,
    Record,
    RecordFile,
    catalog_with,
    load_catalog,
    slugify,
    source_slug,
    write_atomically,
    yaml_quoted,
)
from flows.fetching import FetchRequest, fetch_batch, last_live
from flows.runtime import clock


def suggest(
    url: str, fetch: FetchSettings, role: Role = Role.PRIMARY, render: str | None = None
) -> str:
    """The YAML of a record for the page at `url`: its source and candidate claims, best
    first, each with its parsed figure or status as a comment."""
    title, render, found = _read(url, fetch, render)
    return record_yaml(url, title, role, render, found, clock.now())


def add_to_record(
    record: Record,
    config_dir: Path,
    url: str,
    fetch: FetchSettings,
    role: Role = Role.THIRD_PARTY,
    render: str | None = None,
) -> str:
    """Add the page at `url` as a source of `record`, in its file, keeping the file's
    comments, quoting and order (ruamel.yaml's round trip); returns the candidate claims
    of the page as YAML to paste under `claims:`. The catalog is loaded again after the
    write; a file it rejects is put back as it was."""
    path = Path(record.file)
    source_id = source_slug(url)
    for s in record.config.sources:
        if s.url == url or (s.id or source_slug(s.url)) == source_id:
            raise EvidenceError(f"{record.id} already has the source {source_id} ({s.url})")
    title, render, found = _read(url, fetch, render)
    del title
    before = path.read_text(encoding="utf-8")
    file = RecordFile(path, record.id, before)
    source = {"id": source_id, "url": url, "role": role.value}
    if render is Render.BROWSER:
        source["render"] = "browser"
    file.add_source(source)
    write_atomically(path, file.new_text())
    try:
        load_catalog(config_dir)
    except ConfigError:
        write_atomically(path, before)
        raise
    lines = [
        f"# added {source_id} to {record.id} in {path}; candidate claims of that page, to",
        "# paste under its claims: (each checked on that source only)",
    ]
    lines += _claim_lines(found, "", source_id, {c.id for c in record.config.claims})
    return "\n".join(lines) + "\n"


def _read(url: str, fetch: FetchSettings, render: str | None) -> tuple[str | None, str, list]:
    """The page's title, how it was loaded, and its candidate claims."""
    render = Render(render or fetch.render)
    request = FetchRequest(url=url, obey_robots=fetch.obey_robots, render=render)
    limits = fetch.model_copy(update={"archive_fallback": None})  # the live page only
    attempts = fetch_batch([request], limits, clock.now)[url]
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
            + (
                ""
                if render is Render.BROWSER
                else "; if JavaScript builds it, try --render browser"
            )
        )
    return page.title, render, found


def record_yaml(
    url: str,
    title: str | None,
    role: Role,
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
        f"  title: {yaml_quoted(title or url)}",
        "  sources:",
        f"    - id: {source_id}",
        f"      url: {yaml_quoted(url)}",
        f"      role: {role}",
    ]
    if render is Render.BROWSER:
        lines.append("      render: browser")
    lines.append("  claims:")
    lines += _claim_lines(found, "    ")
    return "\n".join(lines) + "\n"


def _comment(text: str) -> str:
    """A page's words as a YAML comment: one line, every character that steers a terminal
    or a YAML reader shown as its escape."""
    return printable(" ".join(text.split()))


def _claim_lines(
    found: list, indent: str, source_id: str | None = None, taken: set[str] | None = None
) -> list[str]:
    """The candidates as claims (ids unique, and none of the `taken` ones), the parsed
    figure as a comment; checked on `source_id` only, when given."""
    lines = []
    used: set[str] = set(taken or ())
    for c in found:
        claim_id = c.slug[:40].strip("-") or "claim"
        n = 2
        while claim_id in used:
            claim_id, n = f"{c.slug[:37].strip('-')}-{n}", n + 1
        used.add(claim_id)
        lines.append(f"{indent}- id: {claim_id}  # {_comment(c.what)}")
        lines.append(f"{indent}  quote: {yaml_quoted(c.quote)}")
        if c.figure is not None:
            lines.append(f"{indent}  figure: {c.figure}")
        if source_id is not None:
            lines.append(f"{indent}  sources: [{source_id}]")
        if c.what.startswith("status "):
            lines.append(f"{indent}  status: {c.what.removeprefix('status ')}")
    return lines


def write_record(catalog: Catalog, text: str) -> Path:
    """A suggested record (as `suggest` writes it, edited by a person) written as a file
    of its own, `records/<id>.yaml`, when the catalog with it is valid; its path."""
    try:
        data = pyyaml.safe_load(text)
    except pyyaml.YAMLError as e:
        raise EvidenceError(f"the record is not YAML: {first_line(str(e))}") from None
    record = data[0] if isinstance(data, list) and len(data) == 1 else data
    if not isinstance(record, dict) or not isinstance(record.get("id"), str):
        raise EvidenceError("give one record, with its id")
    record_id = record["id"]
    if not SLUG.fullmatch(record_id):
        raise EvidenceError(f"bad record id {record_id!r}: lower-case letters, digits, dashes")
    path = catalog.config_dir / "records" / f"{record_id}.yaml"
    if path.exists() or any(r.id == record_id for r in catalog.records):
        raise EvidenceError(f"the catalog has a record {record_id} already: give another id")
    catalog_with(catalog.config_dir, path, text)  # the whole catalog with it, valid
    write_atomically(path, text)
    return path
