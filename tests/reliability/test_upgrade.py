"""A database made by the previous release migrates in place and keeps everything."""

from __future__ import annotations

import secrets
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from warehouse.db import connect
from warehouse.release import migrations

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "db" / "schema1.duckdb"


def test_schema1_database_migrates_in_place(tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    shutil.copy(FIXTURE, db)
    con = connect(db, now=datetime(2026, 11, 2, tzinfo=UTC))  # a writer applies what is missing
    try:
        applied = [
            v
            for (v,) in con.execute(
                "SELECT version FROM store.migrations ORDER BY version"
            ).fetchall()
        ]
        assert applied == [v for v, _, _ in migrations()]
        assert con.execute("SELECT record_id, grade, freshness FROM record_status").fetchall() == [
            ("legacy", "documented", "fresh")
        ]
        assert con.execute("SELECT count(*) FROM fetches").fetchone() == (1,)
        assert con.execute("SELECT needs_review, reachable FROM source_health").fetchone() == (
            None,
            True,
        )
        assert con.execute("SELECT count(*) FROM alerts").fetchone() == (0,)
        from warehouse.store import grade_all

        grade_all(con)
        assert con.execute("SELECT grade FROM claim_status").fetchone() == ("documented",)
    finally:
        con.close()
    again = connect(db)  # applying migrations twice changes nothing
    try:
        assert again.execute("SELECT count(*) FROM store.migrations").fetchone()[0] == len(
            migrations()
        )
    finally:
        again.close()


SCHEMA6 = FIXTURE.with_name("schema6.duckdb")


@pytest.mark.slow
def test_schema6_database_keeps_its_pages_and_stops_growing_on_volatile_pages(
    prefect_harness: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Made by the release before #17 (tests/fixtures/db/make_schema6_db.py): three
    snapshots of a page that changes bytes on every request, the first two with the same
    main text."""
    from servers import WebServer, send

    from extractors.values import reading_hash
    from flows.refresh import refresh_flow

    db = tmp_path / "old.duckdb"
    shutil.copy(SCHEMA6, db)
    con = connect(db, now=datetime(2026, 11, 4, 6, tzinfo=UTC))
    try:
        pages = con.execute("SELECT title, text, text_hash FROM store.pages").fetchall()
        assert len(pages) == 3
        # the hashes SQL gave the stored pages are the ones the extraction gives new ones
        assert all(h == reading_hash(title, text) for title, text, h in pages)
        assert con.execute(
            "SELECT count(*), count(*) FILTER (WHERE html_kept) FROM snapshots"
        ).fetchone() == (3, 3)
        grades = con.execute("SELECT grade, checked_at FROM record_status").fetchall()
        assert grades[0][0] == "contradicted"
        text_now = con.execute(
            "SELECT text FROM snapshots ORDER BY snapshot_id DESC LIMIT 1"
        ).fetchone()
    finally:
        con.close()

    # The site (on another port now) serves the newest main text in new bytes.
    web = WebServer().start()
    body = (
        "<html><head><title>Credits</title><meta name='csrf-token' content='{n}'></head>"
        "<body><nav><a href='/'>Home</a></nav><main><article><h1>Credits</h1>"
        "<p>Teams get $2,500 in credits for the best runs of the challenge.</p><p>"
        + "The committee reads every report and runs the code from a clean checkout. " * 4
        + "</p></article></main><footer>Rendered for request {n}</footer></body></html>"
    )
    web.routes["/p"] = lambda h: send(h, 200, body.format(n=secrets.token_hex(16)).encode())
    try:
        con = connect(db)
        con.execute("UPDATE store.fetches SET url = ?", [web.url("/p")])
        con.execute("UPDATE store.snapshots SET url = ?", [web.url("/p")])
        con.close()
        config = tmp_path / "config"
        (config / "records").mkdir(parents=True)
        (config / "settings.yaml").write_text(f"database: {db}\nfetch: {{retries: 0}}\n")
        (config / "records" / "r.yaml").write_text(
            f"id: r\ntitle: R\nsources: [{{id: p, url: '{web.url('/p')}', role: primary}}]\n"
            "claims: [{id: c, quote: 'Teams get $2,000 in credits'}]\n"
        )
        now = datetime(2026, 11, 4, 6, tzinfo=UTC)
        monkeypatch.setenv("EVIDENCE_NOW", now.isoformat())
        refresh_flow(str(config), str(db), None)
    finally:
        web.stop()
    con = connect(db, read_only=True)
    try:
        snapshots = con.execute(
            "SELECT html_kept, text FROM snapshots ORDER BY snapshot_id"
        ).fetchall()
        assert len(snapshots) == 3  # the same main text: no new snapshot
        assert snapshots[-1][1] == text_now[0]
        # keep_pages 2: the oldest raw page goes, its text stays
        assert [kept for kept, _ in snapshots] == [False, True, True]
        assert snapshots[0][1]
        assert con.execute("SELECT grade, checked_at FROM record_status").fetchone() == (
            "contradicted",
            now,
        )
    finally:
        con.close()


SCHEMA2 = FIXTURE.with_name("schema2.duckdb")
CLAIMS = "SELECT record_id, claim_id, grade, confirming_sources FROM claim_status ORDER BY 1, 2"


@pytest.mark.slow
def test_schema2_database_made_by_that_release_migrates_and_reads_the_same() -> None:
    """Written by release c63f24a's own demo (tests/fixtures/db/make_schema2_db.sh): three
    records graded reported, contradicted and documented, before alerts existed."""
    import subprocess
    import sys
    import tempfile

    at = datetime(2026, 11, 2, 6, tzinfo=UTC)
    grades = [
        ("icml-2026-repro-credits", "reported"),
        ("nimbus-free-tier", "contradicted"),
        ("nimbus-research-credits", "documented"),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "old.duckdb"
        shutil.copy(SCHEMA2, db)
        con = connect(db, now=at)  # a writer applies 003 onwards
        try:
            applied = [v for (v,) in con.execute("SELECT version FROM store.migrations").fetchall()]
            assert sorted(applied) == [v for v, _, _ in migrations()]
            assert con.execute(
                "SELECT record_id, grade FROM record_status ORDER BY 1"
            ).fetchall() == (grades)
            before = con.execute(CLAIMS).fetchall()
            counts = con.execute(
                "SELECT (SELECT count(*) FROM snapshots), (SELECT count(*) FROM fetches),"
                " (SELECT count(*) FROM quoted_numbers), (SELECT count(*) FROM alerts)"
            ).fetchone()
            assert counts == (6, 7, 34, 0)
            assert con.execute("SELECT count(*) FROM snapshots WHERE html_kept").fetchone() == (6,)
            from warehouse.store import grade_all

            grade_all(con)  # today's grading of that release's checks agrees with it
            assert con.execute(CLAIMS).fetchall() == before
        finally:
            con.close()
        shown = subprocess.run(
            [
                sys.executable,
                "-m",
                "evidence_cli",
                "show",
                "nimbus-research-credits",
                "--db",
                str(db),
            ],
            capture_output=True,
            text=True,
            timeout=120,
            env={"EVIDENCE_NOW": at.isoformat(), "PATH": "/usr/bin:/bin"},
            cwd=Path(__file__).resolve().parents[2],
        )
        assert shown.returncode == 0, shown.stderr
        assert "Evidence: documented — 2 sources" in shown.stdout


def test_messages_queued_before_every_one_was_kept_become_kept_messages(
    tmp_path: Path,
) -> None:
    """Migration 010 on a schema-9 database with an outbox: each message once (it was
    queued per channel), its deliveries mapped, the source of an unreachable one read from
    its title, the runs noted from the fetches; `evidence alerts` on such a file, before
    it is upgraded, says so in one line."""
    import duckdb

    from evidence_cli.main import main

    db = tmp_path / "nine.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE SCHEMA store")
    con.execute(
        "CREATE TABLE store.migrations (version INTEGER PRIMARY KEY, name VARCHAR, "
        "applied_at TIMESTAMPTZ DEFAULT now())"
    )
    for version, name, sql in migrations():
        if version < 10:
            con.execute(sql)
            con.execute(
                "INSERT INTO store.migrations (version, name) VALUES (?, ?)", [version, name]
            )
    when = datetime(2026, 11, 2, 6, tzinfo=UTC)
    rows = [
        (
            "c1",
            "json://a/***",
            "unreachable",
            "r",
            "unreachable: r p failed 3 refreshes in a row",
            when,
            when,
        ),
        (
            "c2",
            "json://b/***",
            "unreachable",
            "r",
            "unreachable: r p failed 3 refreshes in a row",
            when,
            None,
        ),
        (
            "c1",
            "json://a/***",
            "grade",
            "r",
            "grade: r fell from documented to unverified",
            when,
            when,
        ),
    ]
    for channel, masked, kind, record, title, created, sent in rows:
        con.execute(
            "INSERT INTO store.notifications (notification_id, channel, channel_masked, kind, "
            "record_id, title, body, created_at, sent_at) "
            "VALUES (nextval('store.notification_ids'), ?, ?, ?, ?, ?, 'body', ?, ?)",
            [channel, masked, kind, record, title, created, sent],
        )
    con.execute(
        "INSERT INTO store.fetches (fetch_id, run_id, record_id, source_id, url, started_at, "
        "outcome, via) VALUES (1, 'old-run', 'r', 'p', 'https://x.example/p', ?, 'ok', 'live')",
        [when],
    )
    con.close()
    assert main(["alerts", "--db", str(db)]) == 2  # one line, no traceback (stderr)

    con = connect(db, now=when)  # a writer upgrades it
    try:
        kept = con.execute(
            "SELECT kind, source_id, delivered_at IS NOT NULL FROM notifications ORDER BY kind"
        ).fetchall()
        assert kept == [("grade", None, True), ("unreachable", "p", False)]  # b never had it
        assert con.execute("SELECT count(*) FROM store.deliveries").fetchone() == (3,)
        assert con.execute("SELECT run_id, run_number FROM store.runs").fetchall() == [
            ("old-run", 1)
        ]
    finally:
        con.close()
    assert main(["alerts", "--all", "--db", str(db)]) == 0
