"""`evidence reextract`: stored pages read again after an extractor change, nothing fetched."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from servers import Page, WebServer
from support import one_source_catalog, refresh_at

from warehouse.db import connect


@pytest.mark.slow
def test_reextract_rereads_older_pages_without_fetching(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from evidence_cli.main import main

    config, db = one_source_catalog(tmp_path, web.url("/p"), "Teams get $2,000 in credits")
    web.routes["/p"] = Page(
        "<html><main><p>Teams get $2,000 in credits. Seats are sold out.</p></main></html>"
    )
    refresh_at(config, db, datetime(2026, 11, 4, tzinfo=UTC), monkeypatch)
    hits = web.hits["/p"]
    con = connect(db)
    # an older extractor read this page, badly: no numbers, no statuses, no text
    con.execute("UPDATE store.pages SET extractor_version = '0', text = ''")
    con.execute("DELETE FROM store.page_numbers")
    con.execute("DELETE FROM store.page_statuses")
    con.execute("UPDATE store.checks SET outcome = 'absent'")
    from warehouse.store import grade_all

    grade_all(con)
    assert con.execute("SELECT grade FROM record_status").fetchone() == ("unverified",)
    con.close()

    capsys.readouterr()
    assert main(["reextract", "--config", str(config)]) == 0
    assert "re-extracted 1 stored page(s)" in capsys.readouterr().out
    assert web.hits["/p"] == hits  # nothing fetched
    con = connect(db, read_only=True)
    try:
        assert con.execute("SELECT grade FROM record_status").fetchone() == ("documented",)
        assert con.execute("SELECT count(*) FROM quoted_numbers WHERE value = 2000").fetchone() == (
            1,
        )
        assert con.execute("SELECT status FROM statuses").fetchall() == [("exhausted",)]
        assert con.execute("SELECT DISTINCT extractor_version FROM store.pages").fetchall() != [
            ("0",)
        ]
    finally:
        con.close()
    assert main(["reextract", "--config", str(config)]) == 0  # nothing older left
    assert "re-extracted 0 stored page(s)" in capsys.readouterr().out


@pytest.mark.slow
def test_an_extractor_change_reaches_the_card_the_site_and_suggest(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Pages an older grammar read ("2.315%" as 2315, "Rs 18 lakh" as nothing) are read
    again by `reextract`; the same figure written "$4K" confirms a quote of "$4,000"."""
    from evidence_cli.main import main

    quote = "$4,000 in GPU credits for the best runs"
    config, db = one_source_catalog(tmp_path, web.url("/p"), quote)
    body = (
        "<html><main><h1>Credits</h1><p>Teams get $4K in GPU credits for the best runs. "
        "Bonds pay a yield of 2.315% a year. The top grant is Rs 18 lakh.</p></main></html>"
    )
    web.routes["/p"] = Page(body)
    refresh_at(config, db, datetime(2026, 11, 4, tzinfo=UTC), monkeypatch)
    con = connect(db)
    assert con.execute("SELECT outcome, found_text FROM claim_checks").fetchall() == [
        ("confirmed", "$4K in GPU credits for the best runs")
    ]
    assert con.execute("SELECT grade FROM record_status").fetchone() == ("documented",)
    # as extractor 5 stored it: the yield in thousands, the lakh not read
    con.execute("UPDATE store.pages SET extractor_version = '5'")
    con.execute("UPDATE store.page_numbers SET value = 2315 WHERE kind = 'percent'")
    con.execute("DELETE FROM store.page_numbers WHERE currency = 'INR'")
    con.close()

    assert main(["reextract", "--config", str(config)]) == 0
    con = connect(db, read_only=True)
    try:
        figures = con.execute(
            "SELECT kind, value, currency FROM quoted_numbers ORDER BY value"
        ).fetchall()
    finally:
        con.close()
    assert figures == [("percent", 2.315, None), ("money", 4000.0, "USD"), ("money", 1.8e6, "INR")]
    capsys.readouterr()
    assert main(["show", "r", "--config", str(config)]) == 0
    card = capsys.readouterr().out.split("Parsed numbers:")[1]
    assert "2.315" in card and "2315" not in card and "INR" in card
    out = tmp_path / "site"
    assert main(["site", "--config", str(config), "--out", str(out)]) == 0
    page = next(p for p in out.rglob("*.html") if "2.315" in p.read_text())
    assert "2315" not in page.read_text()
    capsys.readouterr()
    assert main(["suggest", web.url("/p"), "--config", str(config)]) == 0
    suggested = capsys.readouterr().out
    assert "yield of 2.315%" in suggested and "Rs 18 lakh" in suggested
