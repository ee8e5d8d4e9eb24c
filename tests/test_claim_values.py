"""Statuses and figures over time: status claims that flip, every value each source has
shown for a claim, and the condition a claim's values must meet; real DuckDB files,
real pages stored through the warehouse, real claim checks and grading."""

from __future__ import annotations

from datetime import timedelta

import pytest
from store_support import T0, Warehouse

from extractors.conditions import Amount, Condition, Expect
from extractors.values import Status
from flows.checks import check_claims
from warehouse import store
from warehouse.rows import ClaimRow, RecordRow, SourceRow

DAY = timedelta(days=1)


def catalog(wh: Warehouse, *claims: ClaimRow, sources: tuple[str, ...] = ("p",)) -> None:
    roles = {"p": "primary", "p2": "primary", "t": "third-party"}
    store.sync_catalog(
        wh.con,
        [RecordRow("r", "A record", 15 * 86400, (), "r.yaml")],
        [SourceRow("r", s, f"https://example.org/{s}", roles[s]) for s in sources],
        list(claims),
    )


def refresh(wh: Warehouse, at_day: int, pages: dict[str, str]) -> None:
    at = T0 + at_day * DAY
    for source, text in pages.items():
        wh.fetch(source, at, body=text)
    check_claims(wh.con)
    wh.grade(at)


def rows(wh: Warehouse, sql: str) -> list[dict]:
    cur = wh.con.execute(sql)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


@pytest.fixture
def wh(tmp_path) -> Warehouse:  # type: ignore[no-untyped-def]
    return Warehouse(tmp_path / "e.duckdb")


def test_a_status_that_flips_is_changed_and_contradicts(wh: Warehouse) -> None:
    catalog(wh, ClaimRow("r", "applications", "Applications are open", "open", None))
    refresh(wh, 0, {"p": "News. Applications are open until May. Apply below."})
    assert wh.claim("applications")["grade"] == "documented"
    refresh(wh, 1, {"p": "News. Applications are closed until next year. Thanks."})
    (check,) = rows(wh, "SELECT * FROM claim_checks")
    assert check["outcome"] == "changed"
    assert check["found_status"] == "closed"
    assert "Applications are closed" in check["found_text"]
    assert wh.claim("applications")["grade"] == "contradicted"
    assert wh.record()["grade"] == "contradicted"


def test_a_page_that_merely_lacks_the_sentence_stays_absent(wh: Warehouse) -> None:
    catalog(wh, ClaimRow("r", "applications", "Applications are open", "open", None))
    refresh(wh, 0, {"p": "Our team wrote a long post about the weather. It is sunny."})
    (check,) = rows(wh, "SELECT * FROM claim_checks")
    assert check["outcome"] == "absent" and check["found_status"] is None


def test_every_distinct_value_is_kept_a_b_a_is_three_rows(wh: Warehouse) -> None:
    quote = "500 GPU hours per month on A100 nodes"
    catalog(wh, ClaimRow("r", "gpu-hours", quote, None, None))
    refresh(wh, 0, {"p": f"Free tier: {quote}."})
    refresh(wh, 1, {"p": f"Free tier: {quote}. Updated footer."})  # same value, new page
    refresh(wh, 2, {"p": "Free tier: 300 GPU hours per month on A100 nodes."})
    refresh(wh, 3, {"p": f"Free tier: {quote}!"})
    values = rows(wh, "SELECT * FROM claim_values")
    assert [(v["value"], v["text"], v["current"]) for v in values] == [
        (500, "500 GPU hours", False),
        (300, "300 GPU hours", False),
        (500, "500 GPU hours", True),
    ]
    assert values[0]["first_seen_at"] == T0 and values[0]["last_seen_at"] == T0 + DAY
    assert values[1]["first_seen_at"] == values[1]["last_seen_at"] == T0 + 2 * DAY
    assert values[0]["unit"] == "hour"


def test_statuses_are_values_too(wh: Warehouse) -> None:
    catalog(wh, ClaimRow("r", "apps", "Applications are open", "open", None))
    refresh(wh, 0, {"p": "Applications are open."})
    refresh(wh, 1, {"p": "Applications are now closed."})
    values = rows(wh, "SELECT status, current FROM claim_values")
    assert values == [{"status": "open", "current": False}, {"status": "closed", "current": True}]


def test_a_quote_edit_keeps_the_old_rows(wh: Warehouse) -> None:
    catalog(wh, ClaimRow("r", "price", "Pro costs $55 a month", None, None))
    refresh(wh, 0, {"p": "Pro costs $55 a month."})
    refresh(wh, 1, {"p": "Pro costs $58 a month."})
    catalog(wh, ClaimRow("r", "price", "Pro plan: $58 a month", None, None))  # reworded
    refresh(wh, 2, {"p": "Pro plan: $58 a month."})
    values = rows(wh, "SELECT value, current FROM claim_values")
    assert values[0] == {"value": 55, "current": False}
    assert values[-1] == {"value": 58, "current": True}
    assert len(rows(wh, "SELECT * FROM store.checks")) >= 3  # no check is dropped


def test_figure_names_the_watched_figure(wh: Warehouse) -> None:
    catalog(wh, ClaimRow("r", "yearly", "$5 a month or $50 a year", None, None, figure=2))
    refresh(wh, 0, {"p": "Plans: $5 a month or $45 a year."})
    (value,) = rows(wh, "SELECT value, text, currency FROM claim_values")
    assert value == {"value": 45, "text": "$45", "currency": "USD"}


def expecting(expect: Expect, quote: str = "500 GPU hours per month on A100 nodes") -> ClaimRow:
    return ClaimRow("r", "gpu-hours", quote, None, None, expect=expect.to_json())


def test_conditions_are_evaluated_on_the_first_check_and_each_after(wh: Warehouse) -> None:
    catalog(wh, expecting(Expect(at_least=400)), sources=("p", "t"))
    refresh(
        wh,
        0,
        {
            "p": "300 GPU hours per month on A100 nodes.",
            "t": "10 GPU hours per month on A100 nodes",
        },
    )
    claim = wh.claim("gpu-hours")
    assert claim["condition"] == "warn"
    assert claim["condition_detail"] == "300 is below at_least 400 on p"  # primaries only
    assert wh.record()["conditions"] == "warn"
    refresh(wh, 1, {"p": "500 GPU hours per month on A100 nodes."})
    assert wh.claim("gpu-hours")["condition"] == "pass"
    assert wh.record()["conditions"] == "pass"


def test_no_expect_no_condition(wh: Warehouse) -> None:
    catalog(wh, ClaimRow("r", "c", "500 GPU hours per month", None, None))
    refresh(wh, 0, {"p": "500 GPU hours per month."})
    assert wh.claim("c")["condition"] is None and wh.record()["conditions"] is None


def test_an_error_condition_fails_and_a_change_is_against_the_value_before(wh: Warehouse) -> None:
    expect = Expect(down_by_more_than=Amount(10, percent=True))
    catalog(wh, expecting(expect, "$4,000 in GPU credits for the best runs"))
    refresh(wh, 0, {"p": "$4,000 in GPU credits for the best runs."})
    assert wh.claim("gpu-hours")["condition"] == "pass"
    refresh(wh, 1, {"p": "$2,500 in GPU credits for the best runs."})
    claim = wh.claim("gpu-hours")
    assert claim["condition"] == "warn"
    assert claim["condition_detail"] == "$4,000 -> $2,500 is down by more than 10% on p"
    refresh(wh, 2, {"p": "€2,500 in GPU credits for the best runs."})
    detail = wh.claim("gpu-hours")["condition_detail"]
    assert "in EUR, not USD" in detail


def test_status_in(wh: Warehouse) -> None:
    expect = Expect(status_in=(Status.OPEN, Status.WAITLIST), severity=Condition.FAIL)
    catalog(
        wh, ClaimRow("r", "apps", "Applications are open", "open", None, expect=expect.to_json())
    )
    refresh(wh, 0, {"p": "Applications are open."})
    assert wh.claim("apps")["condition"] == "pass"
    refresh(wh, 1, {"p": "Applications are closed."})
    assert wh.claim("apps")["condition"] == "fail"
    assert wh.record()["conditions"] == "fail"


def test_the_card_lists_past_values_status_moves_and_broken_conditions_first(
    wh: Warehouse,
) -> None:
    from evidence_cli.card import render_card
    from warehouse import queries

    catalog(
        wh,
        expecting(Expect(at_least=400, severity=Condition.FAIL)),
        ClaimRow("r", "apps", "Applications are open", "open", None),
    )
    refresh(wh, 0, {"p": "500 GPU hours per month on A100 nodes. Applications are open."})
    refresh(wh, 28, {"p": "300 GPU hours per month on A100 nodes. Applications are closed."})
    data = queries.card(wh.con, "r")
    assert data is not None
    card = render_card(data)
    lines = card.splitlines()
    first_claim = lines.index("Claims:")
    broken = [i for i, line in enumerate(lines) if line.startswith("Condition fail: gpu-hours")]
    assert broken and broken[0] < first_claim, card
    assert "300 is below at_least 400 on p" in card
    assert (
        "values on p: 500 GPU hours 2026-11-04 to 2026-11-04; 300 GPU hours since 2026-12-02"
        in card
    )
    assert 'p (primary): changed, open -> closed: "Applications are closed' in card
    assert "values on p: open 2026-11-04 to 2026-11-04; closed since 2026-12-02" in card


def test_the_site_draws_each_figure_as_a_step_chart_and_the_feed_tells_each_move(
    wh: Warehouse, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    import xml.etree.ElementTree as ET

    from evidence_cli.site import write_site

    catalog(
        wh,
        ClaimRow("r", "apps", "Applications are open", "open", None),
        expecting(Expect(at_least=400, severity=Condition.FAIL)),
    )
    refresh(wh, 0, {"p": "500 GPU hours per month on A100 nodes. Applications are open."})
    refresh(wh, 10, {"p": "300 GPU hours per month on A100 nodes. Applications are open."})
    refresh(wh, 20, {"p": "250 GPU hours per month on A100 nodes. Applications are closed."})
    write_site(wh.con, tmp_path / "site", T0 + 25 * DAY)
    page = (tmp_path / "site" / "records" / "r.html").read_text()
    assert "<script" not in page
    (svg,) = [s for s in page.split("<svg")[1:] if 'class="steps"' in s]
    svg = "<svg" + svg.split("</svg>")[0] + "</svg>"
    chart = ET.fromstring(svg)
    texts = [t.text for t in chart.iter("{http://www.w3.org/2000/svg}text")]
    for label in ("500 GPU hours", "300 GPU hours", "250 GPU hours"):
        assert label in texts
    for date in ("2026-11-04", "2026-11-14", "2026-11-24"):
        assert date in texts
    assert int(chart.get("width", "0")) <= 1280
    # broken conditions first: gpu-hours before apps, though listed after it
    assert page.index("<h3>gpu-hours") < page.index("<h3>apps")
    assert "Condition: <strong>fail</strong>" in page
    assert "open -> closed: “Applications are closed" in page
    feed = ET.parse(tmp_path / "site" / "feed.xml").getroot()
    atom = "{http://www.w3.org/2005/Atom}"
    titles = [e.findtext(f"{atom}title") for e in feed.iter(f"{atom}entry")]
    assert "r gpu-hours on p: 300 GPU hours -> 250 GPU hours" in titles
    assert "r apps on p: open -> closed" in titles
    entry = next(
        e
        for e in feed.iter(f"{atom}entry")
        if e.findtext(f"{atom}title") == "r gpu-hours on p: 300 GPU hours -> 250 GPU hours"
    )
    summary = entry.findtext(f"{atom}summary") or entry.findtext(f"{atom}content") or ""
    assert "500 GPU hours 2026-11-04 to 2026-11-04; 300 GPU hours 2026-11-14 to" in summary
    assert entry.findtext(f"{atom}updated", "").startswith("2026-11-24")


def test_checks_made_before_values_count_until_made_again(wh: Warehouse) -> None:
    quote = "500 GPU hours per month on A100 nodes"
    catalog(wh, ClaimRow("r", "gpu-hours", quote, None, None))
    snapshot = wh.fetch("p", T0, body=f"Free tier: {quote}.")
    assert snapshot is not None
    # a check as an older release stored it: no rules, no value
    wh.con.execute(
        "INSERT INTO store.checks (record_id, claim_id, source_id, snapshot_id, quote, outcome,"
        " found_text, found_values) VALUES ('r', 'gpu-hours', 'p', ?, ?, 'confirmed', ?, [500])",
        [snapshot, quote, quote],
    )
    wh.grade(T0)
    assert wh.claim("gpu-hours")["grade"] == "documented"  # the upgrade keeps the grade
    assert rows(wh, "SELECT * FROM claim_values") == []
    check_claims(wh.con)  # the next refresh makes it again, with the claim's value
    wh.grade(T0)
    assert rows(wh, "SELECT count(*) AS n, max(rules) AS r FROM store.checks") == [{"n": 1, "r": 2}]
    assert [v["text"] for v in rows(wh, "SELECT * FROM claim_values")] == ["500 GPU hours"]
