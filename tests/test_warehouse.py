"""The warehouse's door: write sessions never merge row groups at checkpoint."""

from __future__ import annotations

from pathlib import Path

from warehouse.db import connect


def test_appended_batches_stay_apart_without_vacuum(tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    con = connect(db)
    con.execute("CREATE TABLE t (k VARCHAR, b BLOB)")
    con.close()
    for batch in range(4):
        con = connect(db)
        con.execute(
            "INSERT INTO t SELECT 'k' || i, repeat('x', 5000)::BLOB FROM range(?, ?) r(i)",
            [batch * 300, batch * 300 + 300],
        )
        con.close()
    con = connect(db, read_only=True)
    groups = con.execute(
        "SELECT count(DISTINCT row_group_id) FROM pragma_storage_info('t')"
    ).fetchone()[0]
    rows = con.execute("SELECT count(*) FROM t").fetchone()[0]
    con.close()
    assert rows == 1200
    assert groups == 4  # each session's append is its own row group, none rewritten
