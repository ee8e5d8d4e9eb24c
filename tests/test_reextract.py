"""`evidence reextract`: stored pages read again after an extractor change, nothing fetched."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from servers import Page, WebServer
from support import one_source_catalog, refresh_at

from warehouse.db import connect


def test_reextract_rereads_older_pages_without_fetching(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from cli.main import main

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
