"""History and storage: a snapshot per distinct main text of a source, raw pages kept
only where they may be read again, and `evidence gc`."""

from __future__ import annotations

import secrets
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from servers import WebServer, send
from support import one_source_catalog, refresh_at, write_config

from extractors import fingerprint
from extractors.text import extract_main_text
from flows.reading import ExtractJob, run_job
from warehouse.db import connect

DAY1 = datetime(2026, 11, 2, 6, 0, tzinfo=UTC)
FILLER = (
    "Runs are judged on how closely they reproduce the paper's main table, on the clarity "
    "of the write-up and on whether the code runs from a clean checkout. "
)


def article(figure: str, nonce: str) -> str:
    """A page with a fresh token in its head and footer on every request."""
    return f"""<!doctype html><html><head><title>ICML reproduction credits</title>
<meta name="csrf-token" content="{nonce}">
<meta property="article:modified_time" content="2026-08-14T10:00:00Z"></head>
<body><nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>
<main><article><h1>Reproduction challenge credits</h1>
<p>Teams get {figure} in credits for the best runs of the challenge.</p>
<p>{FILLER * 3}</p><p>{FILLER * 2}</p></article></main>
<footer>Rendered for request {nonce}</footer></body></html>"""


class VolatileSite:
    """Serves `article` with a new nonce per request, no ETag, no Last-Modified."""

    def __init__(self, web: WebServer, path: str) -> None:
        self.figure = "$2,000"
        web.routes[path] = self.answer

    def answer(self, h: BaseHTTPRequestHandler) -> None:
        send(h, 200, article(self.figure, secrets.token_hex(16)).encode(), "text/html")


def _one(db: Path, sql: str) -> tuple:
    con = connect(db, read_only=True)
    try:
        row = con.execute(sql).fetchone()
        assert row is not None
        return row
    finally:
        con.close()


@pytest.mark.slow
def test_a_snapshot_is_a_distinct_main_text(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    site = VolatileSite(web, "/p")
    config, db = one_source_catalog(
        tmp_path,
        web.url("/p"),
        "Teams get $2,000 in credits",
        settings="history: {keep_pages: 1}\n",
    )
    refresh_at(config, db, DAY1, monkeypatch)
    day2 = DAY1 + timedelta(days=1)
    refresh_at(config, db, day2, monkeypatch)
    # Bytes changed, main text did not: no new snapshot, no new page, and the evidence is
    # vouched for as of the second fetch, as a 304 would be.
    assert web.hits["/p"] == 2
    assert _one(db, "SELECT count(*), count(DISTINCT content_hash) FROM snapshots") == (1, 1)
    assert _one(db, "SELECT count(*) FROM store.pages") == (1,)
    assert _one(db, "SELECT count(*), count(DISTINCT snapshot_id) FROM fetches") == (2, 1)
    assert _one(db, "SELECT outcome, checked_at FROM claim_checks") == ("confirmed", day2)
    assert _one(db, "SELECT grade, checked_at FROM record_status") == ("documented", day2)

    # The main text changes: a new snapshot, and the claim turns `changed` that same run.
    site.figure = "$2,500"
    day3 = DAY1 + timedelta(days=2)
    refresh_at(config, db, day3, monkeypatch)
    assert _one(db, "SELECT count(*) FROM snapshots") == (2,)
    assert _one(db, "SELECT outcome, found_values, checked_at FROM claim_checks") == (
        "changed",
        [2500.0],
        day3,
    )
    assert _one(db, "SELECT grade FROM record_status") == ("contradicted",)
    # keep_pages 1: the older snapshot keeps its text and figures, not its raw page.
    con = connect(db, read_only=True)
    try:
        kept = con.execute(
            "SELECT html_kept, text LIKE '%$2,000%' FROM snapshots ORDER BY snapshot_id"
        ).fetchall()
        figures = con.execute(
            "SELECT DISTINCT value FROM quoted_numbers WHERE kind = 'money' ORDER BY value"
        ).fetchall()
    finally:
        con.close()
    assert kept == [(False, True), (True, False)]
    assert figures == [(2000.0,), (2500.0,)]

    # the card: the page's own date beside the check; the figure's subject
    from evidence_cli.main import main

    capsys.readouterr()
    assert main(["show", "r", "--config", str(config)]) == 0
    card = capsys.readouterr().out
    assert "p (primary): changed, found 2500" in card and "(page updated 2026-08-14)" in card
    assert "credits" in card.split("Parsed numbers:")[1]

    # evidence diff: the word that changed, then the figures that appeared and went

    capsys.readouterr()
    assert main(["diff", "r", "p", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "Teams get [-$2,000-]{+$2,500+} in credits" in out
    assert "figures: +$2,500 (money USD)  -$2,000 (money USD)" in out
    assert main(["diff", "r", "--config", str(config), "--from", "2026-11-03"]) == 0
    assert "no change" not in capsys.readouterr().out
    assert main(["diff", "r", "p", "--config", str(config), "--from", "2026-11-05"]) == 0
    assert capsys.readouterr().out.strip().endswith(": no change")
    assert main(["diff", "r", "p", "--config", str(config), "--to", "2026-11-03"]) == 0
    assert "fewer than two snapshots" in capsys.readouterr().out
    assert main(["diff", "r", "nope", "--config", str(config)]) == 2
    assert "has no source 'nope'" in capsys.readouterr().err

    # reextract reads what is kept and says what it could not read
    con = connect(db)
    con.execute("UPDATE store.pages SET extractor_version = '0'")
    con.close()
    from evidence_cli.main import main

    capsys.readouterr()
    assert main(["reextract", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "re-extracted 1 stored page(s)" in out
    assert "could not read 1 page(s) again" in out

    # keep_pages 0 still keeps the page that the current claim check rests on
    from warehouse.pages import drop_old_bodies

    con = connect(db)
    try:
        assert drop_old_bodies(con, 0) == 0
        assert con.execute("SELECT html_kept FROM snapshots ORDER BY snapshot_id").fetchall() == [
            (False,),
            (True,),
        ]
    finally:
        con.close()


def test_a_body_whose_main_text_cannot_have_changed_is_not_read_again() -> None:
    old = article("$2,000", "a" * 32)
    first = run_job(_job(old, None))
    assert first.page is not None and first.page.fingerprint is not None
    previous = ("stored-page", first.page.fingerprint)

    again = run_job(_job(article("$2,000", "b" * 32), previous))
    assert again.page is None and again.same_as == "stored-page"

    changed = run_job(_job(article("$2,500", "c" * 32), previous))
    assert changed.page is not None and changed.same_as is None
    assert "$2,500" in changed.page.text
    assert changed.page.text_hash != first.page.text_hash


def _job(html: str, previous: tuple[str, bytes] | None) -> ExtractJob:
    return ExtractJob(
        digest=html[-40:],
        body=html.encode(),
        url="http://example.org/p",
        fetched_at=DAY1,
        content_type="text/html",
        encoding="utf-8",
        previous=previous,
    )


def test_fingerprints_of_short_or_fallback_readings_are_not_made() -> None:
    """A reading the segments cannot account for never takes the fast way."""
    html = "<html><body><p>Seats are sold out.</p></body></html>"
    page = extract_main_text(html)
    assert page.method == "fallback"
    job = run_job(_job(html, None))
    assert job.page is not None and job.page.fingerprint is None
    # text that is not on the page at all cannot be traced back to it
    assert fingerprint.make(html, "Something the page never said, at length.") is None


@pytest.mark.slow
def test_gc_drops_fetch_rows_nothing_rests_on_and_compacts(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from servers import Page

    from evidence_cli.main import main

    VolatileSite(web, "/p")
    web.routes["/q"] = Page(article("$2,000", "fixed"), etag=False)
    db = tmp_path / "w.duckdb"
    config = write_config(
        tmp_path,
        f"""\
        id: r
        title: R
        sources:
          - {{id: p, url: "{web.url("/p")}", role: primary}}
          - {{id: q, url: "{web.url("/q")}", role: third-party}}
        claims:
          - {{id: c, quote: "Teams get $2,000 in credits"}}
          - {{id: d, quote: "Runs are judged on how closely they copy the paper's main table"}}
        """,
        f"database: {db}\nfetch: {{retries: 0}}\n",
    )
    for day in range(3):
        if day == 1:
            web.routes["/q"] = Page("down", status=503, etag=False)
        refresh_at(config, db, DAY1 + timedelta(days=day), monkeypatch)
    views = (
        "SELECT * FROM record_status",
        "SELECT * FROM claim_checks ORDER BY source_id",
        # (its change rate, and while it is learned when it is due, come from the fetches
        # kept: dropping them forgets them)
        "SELECT * EXCLUDE (change_rate, next_due) FROM source_health ORDER BY source_id",
        "SELECT snapshot_id, text FROM snapshots ORDER BY snapshot_id",
    )

    def read_views() -> list[list[tuple]]:
        con = connect(db, read_only=True, now=DAY1 + timedelta(days=3))
        try:
            return [con.execute(q).fetchall() for q in views]
        finally:
            con.close()

    # the reworded claim: absent, with the passage nearest to it on the card
    capsys.readouterr()
    assert main(["show", "r", "--config", str(config)]) == 0
    card = capsys.readouterr().out
    assert "d: unverified" in card and "closest on the page (" in card
    assert "they reproduce the paper's main table" in card.split("closest on the page")[1]
    seen = read_views()
    assert _one(db, "SELECT count(*) FROM fetches") == (6,)
    capsys.readouterr()
    assert main(["gc", "--config", str(config), "--fetches-before", "2026-11-05"]) == 0
    out = capsys.readouterr().out
    # p: its two older fetches go (the newest backs checked_at); q: its last success and
    # its run of failures stay, or its alert and failure count would change.
    assert "dropped 2 fetch row(s)" in out and " -> " in out
    assert _one(db, "SELECT count(*) FROM fetches") == (4,)
    assert read_views() == seen
    assert not db.with_name(db.name + ".compacting").exists()
    assert _one(db, "SELECT count(*) FROM fetches WHERE source_id = 'q'") == (3,)

    # the compacted file carries on: ids continue, the next refresh works
    last = _one(db, "SELECT max(fetch_id), max(snapshot_id) FROM store.fetches")
    refresh_at(config, db, DAY1 + timedelta(days=3), monkeypatch)
    con = connect(db, read_only=True)
    try:
        newest = con.execute(
            "SELECT min(fetch_id), min(snapshot_id) FROM fetches WHERE started_at >= ?",
            [DAY1 + timedelta(days=3)],
        ).fetchone()
    finally:
        con.close()
    assert newest is not None and newest[0] > last[0]


@pytest.mark.slow
def test_gc_refuses_while_a_refresh_holds_the_lock(tmp_path: Path) -> None:
    from evidence_cli.main import main

    db = tmp_path / "w.duckdb"
    connect(db).close()
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys, time\n"
            "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX)\n"
            "print('held', flush=True)\n"
            "time.sleep(30)\n",
            str(db) + ".lock",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        size = db.stat().st_size
        assert main(["gc", "--db", str(db)]) == 2
        assert db.stat().st_size == size
    finally:
        holder.kill()
        holder.wait()
    assert main(["gc", "--db", str(db)]) == 0


def test_gc_of_a_missing_database_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from evidence_cli.main import main

    assert main(["gc", "--db", str(tmp_path / "none.duckdb")]) == 2
    assert "no database at" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["gc", "--db", str(tmp_path / "x.duckdb"), "--fetches-before", "last week"])
