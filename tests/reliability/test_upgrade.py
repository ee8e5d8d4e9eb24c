"""A database made by the previous release migrates in place and keeps everything."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

from warehouse.db import connect, migrations

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
