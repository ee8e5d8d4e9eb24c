"""Tables read as tables (docs/grading.md, "Tables"): a <table> of plans, the same
plans built of <div>s and <span>s, and a table whose cells ran together in its text. A
price column is money in its header's currency and per its header's period, whatever
the header's words; a row is quoted as the page shows it, with or without its cells'
separators; `suggest` proposes rows; a claim on a cell keeps its column's unit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from extractors.candidates import candidates
from extractors.claim_values import claim_value
from extractors.claims import match_claim, normalize_text
from extractors.figures.tables import money_column
from extractors.page import extract_page
from extractors.values import CheckOutcome, NumberKind

NOW = datetime(2026, 12, 1, tzinfo=UTC)
HEADER = ("Plan", "Price (USD/month)", "GPU hours per month", "Storage (GB)")
ROWS = (("Free", "0", "10", "5"), ("Pro", "29", "40", "100"), ("Team", "99", "200", "1000"))


def table_page(price: str = "Price (USD/month)", pro: str = "29") -> str:
    head = "".join(f"<th>{h}</th>" for h in (HEADER[0], price, *HEADER[2:]))
    body = "".join(
        "<tr>"
        + "".join(f"<td>{c}</td>" for c in (r[0], pro if r[0] == "Pro" else r[1], *r[2:]))
        + "</tr>"
        for r in ROWS
    )
    return (
        "<html><head><title>Nimbus pricing</title></head><body><main><h1>Nimbus plans</h1>"
        "<p>Pick the plan that fits your lab. Every plan includes email support.</p>"
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        "<p>Prices exclude VAT.</p></main></body></html>"
    )


def div_page() -> str:
    rows = "".join(
        '<div class="row">' + "".join(f"<span>{c}</span>" for c in r) + "</div>"
        for r in (HEADER, *ROWS)
    )
    return (
        "<html><body><main><h1>Plans for every lab</h1><p>Every plan includes email support "
        f"and a shared notebook workspace.</p>{rows}<p>Prices exclude VAT.</p></main></body></html>"
    )


def prices(html: str) -> list[tuple[float, str | None, str | None]]:
    page = extract_page(html, "https://nimbus.example/pricing", NOW)
    return [(n.value, n.currency, n.qualifier) for n in page.numbers if n.kind is NumberKind.MONEY]


@pytest.mark.parametrize(
    ("header", "currency", "per"),
    [
        ("Price (USD/month)", "USD", "per month"),
        ("Price ($/month)", "USD", "per month"),
        ("Monthly price ($)", "USD", "per month"),
        ("Price (€ per year)", "EUR", "per year"),
        ("Price", None, None),
    ],
)
def test_a_price_column_is_money_whatever_its_header_says(
    header: str, currency: str | None, per: str | None
) -> None:
    assert prices(table_page(header)) == [(v, currency, per) for v in (0.0, 29.0, 99.0)]


def test_a_header_that_names_no_price_is_no_money_column() -> None:
    for header in ("GPU hours per month", "Storage (GB)", "Plan", "Rate limit (requests/min)"):
        assert money_column(header) is None, header


@pytest.mark.parametrize("html", [table_page(), div_page()], ids=["table", "divs"])
def test_tables_of_cells_read_their_columns_units(html: str) -> None:
    page = extract_page(html, "https://nimbus.example/pricing", NOW)
    assert "Pro | 29 | 40 | 100" in page.text
    read = {(n.raw, n.kind, n.unit, n.currency) for n in page.numbers if "Pro" in n.sentence}
    assert read == {
        ("29", NumberKind.MONEY, None, "USD"),
        ("40", NumberKind.COUNT, "gpu hours", None),
        ("100", NumberKind.NUMBER, "GB", None),
    }


def test_cells_that_ran_together_are_not_read_as_one_number() -> None:
    """Without the page's structure ("Pro2940100"), no reader can tell the numbers
    apart: none is read, rather than a wrong one."""
    from extractors.numbers import extract_numbers

    text = "Plans\n" + "".join(HEADER) + "\n" + "\n".join("".join(r) for r in ROWS)
    assert extract_numbers(text, NOW) == []


@pytest.mark.parametrize(
    "quote", ["Team 99 200 1000", "Team | 99 | 200 | 1000", "Team | 99", "Team 99"]
)
def test_a_row_is_quoted_as_the_page_shows_it(quote: str) -> None:
    page = extract_page(table_page(), None, NOW)
    check = match_claim(quote, normalize_text(page.text))
    assert check.outcome is CheckOutcome.CONFIRMED and check.found_values[0] == 99.0


def test_a_cell_s_value_keeps_its_column_s_unit() -> None:
    page = extract_page(table_page(pro="35"), None, NOW)
    check = match_claim("Pro | 29", normalize_text(page.text))
    assert check.outcome is CheckOutcome.CHANGED
    value = claim_value("Pro | 29", check, NOW, page=page.text)
    assert value is not None and (value.value, value.currency, value.text) == (
        35.0,
        "USD",
        "$35 per month",
    )
    hours = claim_value(
        "Pro | 35 | 40",
        match_claim("Pro | 35 | 40", normalize_text(page.text)),
        NOW,
        2,
        None,
        page.text,
    )
    assert hours is not None and hours.text == "40 gpu hours per month"


@pytest.mark.parametrize("html", [table_page(), div_page()], ids=["table", "divs"])
def test_suggest_proposes_the_rows(html: str) -> None:
    page = extract_page(html, None, NOW)
    found = {(c.quote, c.figure, c.what) for c in candidates(page)}
    assert ("Pro | 29", None, "money 29 USD (per month)") in found
    assert ("Team | 99 | 200", 2, "count 200 gpu hours (per month)") in found
    text = normalize_text(page.text)
    assert all(match_claim(q, text).outcome is CheckOutcome.CONFIRMED for q, _, _ in found)


@pytest.mark.slow
def test_a_changed_cell_is_a_changed_claim_with_its_unit_in_the_alert(
    prefect_harness: None, web: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from servers import Page, WebServer
    from support import refresh_at, write_config

    from warehouse.db import connect

    assert isinstance(web, WebServer)
    web.routes["/pricing"] = Page(table_page())
    db = tmp_path / "w.duckdb"
    config = write_config(
        tmp_path,
        f"""
        - id: nimbus-plans
          title: Nimbus plans
          sources: [{{id: pricing, url: "{web.url("/pricing")}", role: primary}}]
          claims:
            - {{id: pro-price, quote: "Pro 29"}}
        """,
        f"database: {db}\nfetch: {{retries: 0}}\n",
    )
    t0 = datetime(2026, 12, 1, 6, tzinfo=UTC)
    refresh_at(config, db, t0, monkeypatch)
    web.routes["/pricing"] = Page(table_page(pro="35"))
    refresh_at(config, db, t0 + timedelta(days=1), monkeypatch)
    con = connect(db, read_only=True)
    try:
        check = con.execute("SELECT outcome, found_text FROM claim_checks").fetchone()
        values = con.execute(
            "SELECT value, currency, text FROM claim_values ORDER BY first_seen_at"
        ).fetchall()
        titles = [t for (t,) in con.execute("SELECT title FROM notifications").fetchall()]
        bodies = "\n".join(b for (b,) in con.execute("SELECT body FROM notifications").fetchall())
    finally:
        con.close()
    assert check == ("changed", "Pro | 35")
    assert values == [(29.0, "USD", "$29 per month"), (35.0, "USD", "$35 per month")]
    assert any(t.startswith("changed: nimbus-plans") for t in titles), titles
    assert "$29 per month -> $35 per month" in bodies, bodies
