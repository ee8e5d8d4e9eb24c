"""Measure: status claims on the real pages of the corpus that state a status (found with
the statuses extractor). Each page is served as it is, then with its status sentence
rewritten by hand to another status (tests/fixtures/status_rewrites.json); the claim
quoting the sentence is `confirmed` on every unedited page and `changed`, with the
status the rewrite states, on at least 95% of the edited ones."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from servers import Page, WebServer
from support import CORPUS, need_corpus, refresh_at, write_config

from extractors.sentences import split_sentences
from extractors.statuses import extract_statuses
from extractors.text import extract_main_text
from warehouse.db import connect

pytestmark = pytest.mark.slow

REWRITES = Path(__file__).parent / "fixtures" / "status_rewrites.json"
T0 = datetime(2026, 11, 2, 6, 0, tzinfo=UTC)
CHANGED_FLOOR = 0.95


def _html(prefix: str) -> str:
    (path,) = (CORPUS / "html").glob(f"{prefix}*.html.gz")
    return gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")


def test_status_sentences_rewritten_on_corpus_pages(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    need_corpus()
    cases = json.loads(REWRITES.read_text(encoding="utf-8"))
    records, edited = [], {}
    for i, case in enumerate(cases):
        html = _html(case["page"])
        text = extract_main_text(html).text
        (mention,) = [m for m in extract_statuses(text) if case["phrase"] in m.sentence]
        # a second claim, on a sentence the rewrite leaves alone: a record rests on more
        # than one claim, and a page that loses every confirmed claim is held for review
        other = next(s for s in split_sentences(text) if len(s) > 40 and case["phrase"] not in s)
        assert case["old"] in html, case
        web.routes[f"/c{i}"] = Page(html)
        edited[f"/c{i}"] = html.replace(case["old"], case["new"])
        records.append(
            f"- id: c{i}\n  title: page {case['page']}\n"
            f'  sources: [{{id: p, url: "{web.url(f"/c{i}")}", role: primary}}]\n'
            f"  claims:\n"
            f"    - {{id: status, quote: {json.dumps(mention.sentence, ensure_ascii=False)}, "
            f"status: {mention.status.value}}}\n"
            f"    - {{id: other, quote: {json.dumps(other, ensure_ascii=False)}}}\n"
        )
    db = tmp_path / "w.duckdb"
    config = write_config(
        tmp_path, "".join(records), f"database: {db}\nfetch: {{retries: 0, per_host: 8}}\n"
    )
    refresh_at(config, db, T0, monkeypatch)
    before = _checks(db)
    for path, html in edited.items():
        web.routes[path] = Page(html)
    refresh_at(config, db, T0 + timedelta(days=1), monkeypatch)
    after = _checks(db)

    confirmed = [r for r, (outcome, _) in before.items() if outcome == "confirmed"]
    right = [
        f"c{i}" for i, case in enumerate(cases) if after.get(f"c{i}") == ("changed", case["status"])
    ]
    pages = len({case["page"] for case in cases})
    print(
        f"\nstatus claims: {len(cases)} sentences on {pages} corpus pages; confirmed "
        f"unedited {len(confirmed)}/{len(cases)}; changed with the right status "
        f"{len(right)}/{len(cases)}"
    )
    for i, case in enumerate(cases):
        if f"c{i}" not in right:
            print(f"  missed c{i} {case['page']}: {after.get(f'c{i}')} for {case['new']!r}")
    assert len(confirmed) == len(cases)
    assert len(right) >= CHANGED_FLOOR * len(cases)


def _checks(db: Path) -> dict[str, tuple[str, str | None]]:
    con = connect(db, read_only=True)
    try:
        rows = con.execute(
            "SELECT record_id, outcome, found_status FROM claim_checks WHERE claim_id = 'status'"
        ).fetchall()
    finally:
        con.close()
    return {r: (outcome, status) for r, outcome, status in rows}
