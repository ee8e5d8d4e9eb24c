"""The record card's read side is typed: each of its queries gives the rows of one frozen
dataclass, its columns that dataclass's fields, on a real database filled through the
store layer."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from typing import Any

import pytest
from store_support import T0, Warehouse

from evidence_base.words import Role
from extractors.conditions import Condition, Expect
from extractors.values import CheckOutcome, Freshness, Grade
from flows.checks import check_claims
from warehouse import card, queries, store
from warehouse.db import rows_as, sql_file
from warehouse.rows import ClaimRow, RecordRow, SourceRow

PAGES = [
    "Free tier: 500 GPU hours per month on A100 nodes. Applications are open.",
    "Free tier: 300 GPU hours per month on A100 nodes. Applications are closed.",
]

# Each query of the card, and the dataclass of its rows.
QUERIES: list[tuple[str, type[Any]]] = [
    (sql_file("card_record.sql"), card.CardRecord),
    (sql_file("card_claims.sql"), card.ClaimState),
    (sql_file("card_checks.sql"), card.SourceCheck),
    (sql_file("card_extracts.sql"), card.ParsedExtract),
    ("SELECT * FROM source_health WHERE record_id = $record_id", card.SourceHealthRow),
    (sql_file("card_origins.sql"), card.SourceOrigin),
    (sql_file("card_values.sql"), card.ShownValue),
]


def fetch(wh: Warehouse, source: str, day: int, text: str) -> None:
    """A page read as a refresh reads it, its claims checked and the record graded."""
    at = T0 + timedelta(days=day)
    wh.fetch(source, at, body=text, read=True)
    check_claims(wh.con)
    wh.grade(at)


@pytest.fixture
def carded(wh: Warehouse) -> Warehouse:
    """A record with a figure claim that expects something, a status claim, a primary
    and a third party never fetched; two days of pages."""
    store.sync_catalog(
        wh.con,
        [RecordRow("r", "A record", 15 * 86400, (("cost", "free"),), "r.yaml")],
        [
            SourceRow("r", "p", "https://example.org/p", "primary"),
            SourceRow("r", "t", "https://example.org/t", "third-party"),
        ],
        [
            ClaimRow(
                "r",
                "gpu-hours",
                "500 GPU hours per month on A100 nodes",
                None,
                None,
                expect=Expect(at_least=400, severity=Condition.FAIL).to_json(),
            ),
            ClaimRow("r", "apps", "Applications are open", "open", None),
        ],
    )
    for day, text in enumerate(PAGES):
        fetch(wh, "p", day, text)
    return wh


def test_each_card_query_gives_the_fields_of_its_dataclass(carded: Warehouse) -> None:
    for query, cls in QUERIES:
        cur = carded.con.execute(query, {"record_id": "r"})
        columns = [d[0] for d in cur.description]
        assert sorted(columns) == sorted(f.name for f in dataclasses.fields(cls)), cls.__name__
        assert len(set(columns)) == len(columns), cls.__name__
        assert rows_as(cls, cur), f"{cls.__name__}: no rows to build"


def test_a_column_renamed_in_the_sql_fails_where_it_is_read(carded: Warehouse) -> None:
    query = sql_file("card_claims.sql").rstrip().removesuffix(";")
    renamed = carded.con.execute(
        f"SELECT * RENAME (quote AS quoted) FROM ({query})",  # noqa: S608 (our own SQL)
        {"record_id": "r"},
    )
    with pytest.raises(TypeError, match=r"ClaimState: no column for field\(s\) \['quote'\]"):
        rows_as(card.ClaimState, renamed)


def test_the_card_is_typed_rows_with_the_words_as_enums(carded: Warehouse) -> None:
    got = queries.card(carded.con, "r")
    assert isinstance(got, card.Card)
    for part in dataclasses.fields(got):
        rows = getattr(got, part.name)
        for row in rows if isinstance(rows, list) else [rows]:
            assert dataclasses.is_dataclass(row), part.name
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(row, dataclasses.fields(row)[0].name, None)
    assert got.record.grade is Grade.CONTRADICTED
    assert got.record.freshness is Freshness.FRESH
    assert got.record.fields == [{"name": "cost", "value": "free"}]
    by_claim = {c.claim_id: c for c in got.claims}
    assert by_claim["gpu-hours"].condition is Condition.FAIL
    assert by_claim["apps"].condition is None
    assert by_claim["apps"].grade is Grade.CONTRADICTED
    outcomes = {(c.claim_id, c.source_id): c.outcome for c in got.checks}
    assert outcomes[("apps", "p")] is CheckOutcome.CHANGED
    assert outcomes[("apps", "t")] == card.NOT_FETCHED  # no page yet: not a CheckOutcome
    assert {c.role for c in got.checks} == {Role.PRIMARY, Role.THIRD_PARTY}
    assert all(type(s.role) is Role for s in [*got.sources, *got.origins])
    assert {e.what for e in got.extracts} == {"number", "status"}
    assert [(v.claim_id, v.status or v.text, v.current) for v in got.values] == [
        ("apps", "open", False),
        ("apps", "closed", True),
        ("gpu-hours", "500 GPU hours", False),
        ("gpu-hours", "300 GPU hours", True),
    ]
    assert queries.card(carded.con, "no-such-record") is None


def test_the_sites_queries_give_typed_rows_too(carded: Warehouse) -> None:
    con = carded.con
    (record,) = queries.site_records(con)
    assert (record.record_id, record.grade, record.freshness) == (
        "r",
        Grade.CONTRADICTED,
        Freshness.FRESH,
    )
    assert type(record.grade) is Grade and record.unreachable == 0
    history = queries.grade_history(con)
    assert [type(h.grade) for h in history] == [Grade] * len(history)
    assert history[-1].grade is Grade.CONTRADICTED and history[-1].changed_at == record.last_change
    moves = {(m.claim_id, m.was, m.now) for m in queries.value_moves(con)}
    assert moves == {("apps", "open", "closed"), ("gpu-hours", "500 GPU hours", "300 GPU hours")}
    changed = {c.claim_id: c for c in queries.changed_claims(con)}
    assert (changed["apps"].status, changed["apps"].found_status) == ("open", "closed")
