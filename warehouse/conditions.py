"""Each claim's condition (`expect:`) after a grading, over its primary sources' values."""

from __future__ import annotations

from collections import defaultdict

import duckdb

from evidence_base.words import Role
from extractors.claim_values import quote_value
from extractors.conditions import Expect, SourceValue, evaluate_condition
from extractors.values import Status
from warehouse.db import insert_rows

# Each primary source's current value of every claim with a condition, with the value the
# source showed before it (the row before, by value_id).
_VALUES = """
WITH ordered AS (
    SELECT v.*, lag(v.value) OVER w AS before, lag(v.text) OVER w AS before_text
    FROM store.claim_values v
    WINDOW w AS (PARTITION BY record_id, claim_id, source_id ORDER BY value_id)
)
SELECT c.record_id, c.claim_id, c.quote, c.figure, c.expect, o.source_id, o.value, o.unit,
       o.currency, o.status, o.text, o.before, o.before_text
FROM store.claims c
LEFT JOIN (
    SELECT o.* FROM ordered o
    JOIN store.sources s USING (record_id, source_id)
    WHERE o.current AND s.role = $primary
) o USING (record_id, claim_id)
WHERE c.expect IS NOT NULL
ORDER BY c.record_id, c.position, o.source_id
"""


def grade_conditions(con: duckdb.DuckDBPyConnection) -> None:
    """Replace every claim's condition (inside the grading's transaction)."""
    row = con.execute("SELECT evidence_now()").fetchone()
    assert row is not None
    now = row[0]
    claims: dict[tuple[str, str], tuple[str, int | None, str]] = {}
    values: dict[tuple[str, str], list[SourceValue]] = defaultdict(list)
    for (
        record_id,
        claim_id,
        quote,
        figure,
        expect,
        source_id,
        value,
        unit,
        currency,
        status,
        text,
        before,
        before_text,
    ) in con.execute(_VALUES, {"primary": Role.PRIMARY}).fetchall():
        claims[(record_id, claim_id)] = (quote, figure, expect)
        if source_id is not None:
            values[(record_id, claim_id)].append(
                SourceValue(
                    source_id=source_id,
                    value=value,
                    unit=unit,
                    currency=currency,
                    status=Status(status) if status else None,
                    text=text,
                    before=before,
                    before_text=before_text,
                )
            )
    rows = []
    for key, (quote, figure, expect) in claims.items():
        own = quote_value(quote, figure, now)
        result = evaluate_condition(
            Expect.from_json(expect),
            values.get(key, []),
            unit=own.unit if own else None,
            currency=own.currency if own else None,
        )
        rows.append(
            {
                "record_id": key[0],
                "claim_id": key[1],
                "condition": result.condition.value,
                "detail": result.detail,
            }
        )
    con.execute("DELETE FROM store.claim_conditions")
    insert_rows(con, "store.claim_conditions", rows)
