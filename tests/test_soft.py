"""Soft failures: a page that is not the page never moves the evidence."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from servers import Page, WebServer
from support import write_config

from extractors.soft import (
    _marker,
    classify_response,
    marker_gates,
    review_reason,
    signals,
)
from extractors.values import Outcome
from flows.catalog import FetchSettings
from flows.fetching import FetchRequest, fetch_batch

FIXTURES = Path(__file__).parent / "fixtures" / "soft"
URL = "https://nimbus.example/research/credits"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "status", "outcome"),
    [
        ("cloudflare-challenge.html", 503, Outcome.BLOCKED),
        ("cloudflare-challenge.html", 403, Outcome.BLOCKED),
        ("cloudflare-challenge.html", 200, Outcome.BLOCKED),
        ("captcha-200.html", 200, Outcome.BLOCKED),
        ("datadome-403.html", 403, Outcome.BLOCKED),
        ("nginx-404-as-200.html", 200, Outcome.SOFT_404),
        ("wordpress-not-found.html", 200, Outcome.SOFT_404),
        ("german-not-found.html", 200, Outcome.SOFT_404),
        ("article-mentioning-not-found.html", 200, None),
        ("article-with-captcha-form.html", 200, None),
    ],
)
@pytest.mark.parametrize("as_bytes", [False, True], ids=["text", "utf8-bytes"])
def test_classify_saved_pages(name: str, status: int, outcome: str | None, as_bytes: bool) -> None:
    html = fixture(name)
    verdict = classify_response(URL, URL, status, html, utf8=html.encode() if as_bytes else None)
    assert (verdict.outcome if verdict else None) == outcome, verdict


# Text whose non-ASCII characters never lower to ASCII (the Kelvin sign does), with the
# markers in any case among it.
_PIECES = st.one_of(
    st.sampled_from(signals().blocked_markers).map(str.upper),
    st.sampled_from(signals().blocked_markers),
    st.text(
        st.characters(
            codec="utf-8",
            exclude_categories=("Cs",),
        ).filter(lambda c: c.isascii() or not any(x.isascii() for x in c.lower())),
        max_size=30,
    ),
)


def test_markers_sharing_a_piece_are_searched_behind_it() -> None:
    markers = (b"g-recaptcha", b"awswaf", b"h-captcha", b"px-captcha")
    assert marker_gates(markers) == (b"captcha", None, b"captcha", b"captcha")
    assert marker_gates(markers, shared_by=4) == (None,) * 4
    assert b"captcha" in signals().marker_gates


@given(st.lists(_PIECES, max_size=12).map("".join))
def test_markers_found_in_utf8_bytes_as_in_the_text(html: str) -> None:
    s = signals()
    assert _marker(html, html.encode(), s) == _marker(html, None, s)


@pytest.mark.parametrize(
    ("final", "expect_redirect", "outcome"),
    [
        ("https://nimbus.example/", False, Outcome.SOFT_404),
        ("https://nimbus.example", False, Outcome.SOFT_404),
        ("https://nimbus.example/404", False, Outcome.SOFT_404),
        ("https://nimbus.example/not-found/", False, Outcome.SOFT_404),
        ("https://nimbus.example/search?error=404", False, Outcome.SOFT_404),
        ("https://nimbus.example/", True, None),  # the user said it redirects home
        ("https://nimbus.example/research/credits-2027", False, None),  # a real move
    ],
)
def test_redirects_that_retire_a_page(
    final: str, expect_redirect: bool, outcome: str | None
) -> None:
    page = "<html><title>Nimbus Cloud</title><p>Welcome to Nimbus</p></html>"
    verdict = classify_response(URL, final, 200, page, expect_redirect)
    assert (verdict.outcome if verdict else None) == outcome


def test_a_plain_error_status_stays_an_http_error() -> None:
    assert classify_response(URL, URL, 404, fixture("nginx-404-as-200.html")) is None


@pytest.mark.parametrize(
    ("before", "after", "confirmed_before", "confirmed_after", "flagged"),
    [
        (5000, 900, 2, 2, True),  # lost most of its text
        (5000, 4000, 3, 0, True),  # every claim gone at once
        (5000, 4000, 3, 1, False),
        (300, 10, 1, 0, True),  # a small page's only claim gone with its text: a stub
        (300, 200, 1, 0, False),  # the claim reworded on a page that kept its text
        (5000, 2000, 0, 0, False),
    ],
)
def test_review_reason(
    before: int, after: int, confirmed_before: int, confirmed_after: int, flagged: bool
) -> None:
    assert (review_reason(before, after, confirmed_before, confirmed_after) is not None) == flagged


LIMITS = FetchSettings(timeout_s=2, retries=1, user_agent="t")


@pytest.mark.parametrize(
    ("page", "outcome"),
    [
        (Page(fixture("cloudflare-challenge.html"), status=503), Outcome.BLOCKED),
        (Page(fixture("datadome-403.html"), status=403), Outcome.BLOCKED),
        (Page(fixture("captcha-200.html")), Outcome.BLOCKED),
        (Page(fixture("nginx-404-as-200.html")), Outcome.SOFT_404),
        (Page(fixture("article-mentioning-not-found.html")), Outcome.OK),
    ],
)
def test_fetcher_records_soft_outcomes(web: WebServer, page: Page, outcome: Outcome) -> None:
    web.routes["/p"] = page
    url = web.url("/p")
    attempts = fetch_batch([FetchRequest(url)], LIMITS, lambda: datetime.now(UTC))[url]
    assert [a.outcome for a in attempts] == [outcome]  # a bot wall is not retried
    assert attempts[0].http_status == page.status


def test_fetcher_sees_a_redirect_home(web: WebServer) -> None:
    web.routes["/old-programme"] = Page(b"", status=301, headers={"Location": "/"}, etag=False)
    web.routes["/"] = Page("<html><title>Home</title><p>Welcome</p></html>")
    url = web.url("/old-programme")
    (a,) = fetch_batch([FetchRequest(url)], LIMITS, lambda: datetime.now(UTC))[url]
    assert a.outcome is Outcome.SOFT_404 and "site root" in (a.error or "")
    (b,) = fetch_batch(
        [FetchRequest(url, expect_redirect=True)], LIMITS, lambda: datetime.now(UTC)
    )[url]
    assert b.outcome is Outcome.OK


@pytest.mark.slow
def test_soft_failures_never_move_the_grade_or_checked_at(
    prefect_harness: None, web: WebServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows.refresh import refresh_flow
    from warehouse.db import connect

    config = write_config(
        tmp_path,
        f"""\
        id: nimbus
        title: Nimbus research credits
        sources: [{{id: official, url: "{web.url("/credits")}", role: primary}}]
        claims: [{{id: cap, quote: "up to $5,000 in cloud credits for 12 months"}}]
                """,
        "fetch:\n  retries: 0\n",
    )
    web.routes["/credits"] = Page(fixture("article-mentioning-not-found.html"))
    db = tmp_path / "w.duckdb"
    t0 = datetime(2026, 11, 4, 6, 0, tzinfo=UTC)
    monkeypatch.setenv("EVIDENCE_NOW", t0.isoformat())
    refresh_flow(str(config), str(db), None)
    bad_pages = [
        ("cloudflare-challenge.html", 503, "blocked"),
        ("captcha-200.html", 200, "blocked"),
        ("nginx-404-as-200.html", 200, "soft_404"),
        ("wordpress-not-found.html", 200, "soft_404"),
    ]
    for day, (name, status, outcome) in enumerate(bad_pages, start=1):
        web.routes["/credits"] = Page(fixture(name), status=status)
        monkeypatch.setenv("EVIDENCE_NOW", (t0 + timedelta(days=day)).isoformat())
        refresh_flow(str(config), str(db), None)
        con = connect(db, read_only=True)
        try:
            assert con.execute("SELECT grade, checked_at FROM record_status").fetchone() == (
                "documented",
                t0,
            ), name
            assert con.execute(
                "SELECT last_outcome, consecutive_failures FROM source_health"
            ).fetchone() == (outcome, day), name
            assert con.execute("SELECT count(*) FROM snapshots").fetchone() == (1,)
        finally:
            con.close()


@pytest.mark.slow
def test_a_gutted_primary_page_is_held_for_review_until_accepted(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from evidence_cli.main import main
    from flows.refresh import refresh_flow
    from warehouse.db import connect

    config = write_config(
        tmp_path,
        f"""\
        id: nimbus
        title: Nimbus research credits
        sources: [{{id: official, url: "{web.url("/credits")}", role: primary}}]
        claims:
          - {{id: cap, quote: "up to $5,000 in cloud credits for 12 months"}}
          - {{id: open, quote: "Applications are open to faculty"}}
                """,
        f"database: {tmp_path / 'w.duckdb'}\nfetch:\n  retries: 0\n",
    )
    filler = "<p>" + "The programme supports research in many fields of science. " * 12 + "</p>"
    web.routes["/credits"] = Page(
        f"<html><title>Credits</title><main><p>Researchers get up to $5,000 in cloud credits "
        f"for 12 months.</p><p>Applications are open to faculty.</p>{filler}</main></html>"
    )
    db = tmp_path / "w.duckdb"
    t0 = datetime(2026, 11, 4, 6, 0, tzinfo=UTC)
    monkeypatch.setenv("EVIDENCE_NOW", t0.isoformat())
    refresh_flow(str(config), str(db), None)

    web.routes["/credits"] = Page(
        "<html><title>Credits</title><main><p>We are updating this "
        "page. Check back soon.</p></main></html>"
    )
    t1 = t0 + timedelta(days=1)
    monkeypatch.setenv("EVIDENCE_NOW", t1.isoformat())
    refresh_flow(str(config), str(db), None)
    con = connect(db, read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM snapshots").fetchone() == (2,)  # kept
        assert con.execute("SELECT grade, checked_at FROM record_status").fetchone() == (
            "documented",
            t0,
        )  # but not counted
        (review,) = con.execute("SELECT needs_review FROM source_health").fetchone()
        assert review and "main text fell" in review
    finally:
        con.close()
    capsys.readouterr()
    assert main(["show", "nimbus", "--config", str(config)]) == 0
    assert "official: newest page held for review" in capsys.readouterr().out

    assert main(["accept", "nimbus", "official", "--config", str(config)]) == 0
    # what it did: the claims the accepted page no longer carries, and the grade's move
    said = capsys.readouterr().out.strip()
    assert said.startswith("accepted 1 page(s) of nimbus/official; absent from it now: "), said
    assert said.endswith(
        "absent from it now: cap, open; nimbus: documented, fresh -> unverified, unchecked"
    ), said
    con = connect(db, read_only=True)
    try:
        assert con.execute("SELECT grade FROM record_status").fetchone() == ("unverified",)
        assert con.execute("SELECT needs_review FROM source_health").fetchone() == (None,)
    finally:
        con.close()
    assert main(["show", "nimbus", "--config", str(config)]) == 0
    # a record that was fresh for a day is not one no source has backed "yet"
    assert "Freshness: unchecked — no page checked now backs every claim" in (
        capsys.readouterr().out
    )
    assert main(["accept", "nimbus", "official", "--config", str(config)]) == 2  # nothing held
