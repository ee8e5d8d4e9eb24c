"""Measure: status claims inside real pages. A sentence stating that applications for a
grant are open is put into the main text of corpus pages (one page a rewording), and a
record claims it; then each page is served with the sentence reworded to another status
(status_scoring.REWORDINGS, written by hand). The claim is `confirmed` on every page as
first served and `changed`, with the status the rewording states, on at least 95% of the
reworded ones: the rest of a real page (its furniture, its own status words) does not
stand in the way of reading it."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from servers import Page, WebServer
from status_scoring import GRANT, QUOTE, REWORDINGS
from support import CORPUS, need_corpus, refresh_at, write_config

from extractors.sentences import split_sentences
from extractors.text import extract_main_text
from warehouse.db import connect

pytestmark = pytest.mark.slow

T0 = datetime(2026, 11, 2, 6, 0, tzinfo=UTC)
CHANGED_FLOOR = 0.95
STATED = f"{QUOTE}."


def _pages(n: int) -> list[tuple[str, str]]:
    """n corpus pages (name, html) with the sentence put into their main text: after the
    end of one of the page's own sentences, where the text extractor reads it."""
    found = []
    for path in sorted((CORPUS / "html").glob("*.html.gz")):
        html = gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")
        body = max(html.lower().find("<body"), 0)
        for sentence in split_sentences(extract_main_text(html).text):
            at = html.find(sentence, body)
            if len(sentence) < 60 or not sentence.endswith(".") or at < 0:
                continue
            end = at + len(sentence)
            edited = f"{html[:end]} {STATED}{html[end:]}"
            if STATED in extract_main_text(edited).text:
                found.append((path.name[:12], edited))
                break
        if len(found) == n:
            break
    return found


def test_a_status_sentence_reworded_inside_real_pages(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    need_corpus()
    pages = _pages(len(REWORDINGS))
    assert len(pages) == len(REWORDINGS)
    records, reworded = [], {}
    for i, ((name, html), (sentence, _)) in enumerate(zip(pages, REWORDINGS, strict=True)):
        text = extract_main_text(html).text
        assert STATED in text, name
        # a second claim, on a sentence the rewording leaves alone: a record rests on more
        # than one claim, and a page that loses every confirmed claim is held for review
        other = next(s for s in split_sentences(text) if len(s) > 40 and QUOTE not in s)
        web.routes[f"/c{i}"] = Page(html)
        reworded[f"/c{i}"] = html.replace(STATED, sentence)
        records.append(
            f"- id: c{i}\n  title: {GRANT}\n"
            f'  sources: [{{id: p, url: "{web.url(f"/c{i}")}", role: primary}}]\n'
            f"  claims:\n"
            f"    - {{id: status, quote: {json.dumps(QUOTE)}, status: open}}\n"
            f"    - {{id: other, quote: {json.dumps(other, ensure_ascii=False)}}}\n"
        )
    db = tmp_path / "w.duckdb"
    config = write_config(
        tmp_path, "".join(records), f"database: {db}\nfetch: {{retries: 0, per_host: 8}}\n"
    )
    refresh_at(config, db, T0, monkeypatch)
    before = _checks(db)
    for path, html in reworded.items():
        web.routes[path] = Page(html)
    refresh_at(config, db, T0 + timedelta(days=1), monkeypatch)
    after = _checks(db)

    confirmed = [r for r, (outcome, _) in before.items() if outcome == "confirmed"]
    right = [
        f"c{i}"
        for i, (_, status) in enumerate(REWORDINGS)
        if after.get(f"c{i}") == ("changed", status.value)
    ]
    print(
        f"\nstatus claims in {len(pages)} corpus pages: confirmed as first served "
        f"{len(confirmed)}/{len(pages)}; changed with the right status {len(right)}/{len(pages)}"
    )
    for i, (sentence, _) in enumerate(REWORDINGS):
        if f"c{i}" not in right:
            print(f"  missed c{i} {pages[i][0]}: {after.get(f'c{i}')} for {sentence!r}")
    assert len(confirmed) == len(pages)
    assert len(right) >= CHANGED_FLOOR * len(pages)


def _checks(db: Path) -> dict[str, tuple[str, str | None]]:
    con = connect(db, read_only=True)
    try:
        rows = con.execute(
            "SELECT record_id, outcome, found_status FROM claim_checks WHERE claim_id = 'status'"
        ).fetchall()
    finally:
        con.close()
    return {r: (outcome, status) for r, outcome, status in rows}
