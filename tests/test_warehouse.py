"""The warehouse's door: write sessions never merge row groups at checkpoint; rows read
back are built by column name, and a column renamed on one side only is an error."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb
import pytest

from evidence_base.words import DueReason
from extractors.values import CheckOutcome, Grade
from warehouse.db import connect, field_values, insert_rows, rows_as, rows_from


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


@dataclass(frozen=True, slots=True)
class Pair:
    name: str
    count: int


def test_rows_are_built_by_column_name_not_position() -> None:
    con = duckdb.connect()
    rows = rows_as(Pair, con.execute("SELECT 2 AS count, 'a' AS name UNION ALL SELECT 3, 'b'"))
    assert rows == [Pair(name="a", count=2), Pair(name="b", count=3)]
    assert rows_as(Pair, con.execute("SELECT 'a' AS name, 1 AS count WHERE false")) == []


@pytest.mark.parametrize(
    ("columns", "said"),
    [
        (["name", "total"], "no column for field(s) ['count']; column(s) ['total'] match no field"),
        (["name"], "no column for field(s) ['count']"),
        (["name", "count", "extra"], "column(s) ['extra'] match no field"),
        (["name", "count", "count"], "a column named twice"),
    ],
)
def test_a_column_that_is_not_a_field_is_named(columns: list[str], said: str) -> None:
    with pytest.raises(TypeError, match=r"^Pair: ") as raised:
        rows_from(Pair, columns, [("a", 1, 2)[: len(columns)]])
    assert said in str(raised.value)


@dataclass(frozen=True, slots=True)
class Worded:
    grade: Grade
    why: DueReason | None
    outcome: CheckOutcome | str  # a member, or a word of its own
    note: str


def test_words_the_warehouse_stores_come_back_as_their_enums() -> None:
    con = duckdb.connect()
    rows = rows_as(
        Worded,
        con.execute(
            "SELECT * FROM (VALUES ('documented', 'failing', 'changed', 'documented'),"
            " ('reported', NULL, 'not fetched', 'x')) t(grade, why, outcome, note)"
        ),
    )
    assert [type(r.grade) for r in rows] == [Grade, Grade]
    first = Worded(Grade.DOCUMENTED, DueReason.FAILING, CheckOutcome.CHANGED, "documented")
    assert rows[0] == first
    assert type(rows[0].note) is str  # a str field keeps its word, even one an enum has
    assert rows[1].why is None
    assert rows[1].outcome == "not fetched" and not isinstance(rows[1].outcome, CheckOutcome)


def test_a_word_no_member_has_is_an_error_where_the_field_takes_members_only() -> None:
    with pytest.raises(ValueError, match="'proven' is not a valid Grade"):
        rows_from(Worded, ["grade", "why", "outcome", "note"], [("proven", None, "same", "")])


def test_a_renamed_column_fails_from_a_cursor() -> None:
    with pytest.raises(TypeError, match=r"\['count'\].*\['n'\]"):
        rows_as(Pair, duckdb.connect().execute("SELECT 'a' AS name, 1 AS n"))


def test_a_rows_fields_are_its_columns_and_read_back_alike() -> None:
    con = duckdb.connect()
    con.execute("CREATE TABLE pairs (name VARCHAR, count INTEGER, position INTEGER)")
    rows = [Pair(name="a", count=2), Pair(name="b", count=3)]
    insert_rows(con, "pairs", [{**field_values(p), "position": i} for i, p in enumerate(rows)])
    assert rows_as(Pair, con.execute("SELECT name, count FROM pairs ORDER BY position")) == rows
    assert field_values(rows[0], leave=("count",)) == {"name": "a"}
