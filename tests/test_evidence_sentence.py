"""Every sentence about evidence comes from the rows the grade comes from: who confirms,
with which role, and which claims make the grade. The card and the site say the same."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from store_support import T0, Warehouse

from evidence_base.words import Role
from evidence_cli.card import render_card
from evidence_cli.render import evidence_said
from evidence_cli.site import write_site
from extractors.values import CheckOutcome, Grade
from warehouse import queries
from warehouse.card import ClaimState, SourceCheck


def claim(claim_id: str, grade: str) -> ClaimState:
    return ClaimState(
        claim_id=claim_id,
        quote=f"quote {claim_id}",
        status=None,
        grade=Grade(grade),
        checked_at=None,
        confirming_sources=None,
        found_values=None,
        condition=None,
        condition_detail=None,
    )


def check(claim_id: str, source_id: str, role: str, outcome: str) -> SourceCheck:
    return SourceCheck(
        claim_id=claim_id,
        source_id=source_id,
        role=Role(role),
        outcome=CheckOutcome(outcome),
        found_text=None,
        found_values=None,
        checked_at=None,
        published_on=None,
        modified_on=None,
        closest_text=None,
        closest_score=None,
        found_status=None,
    )


@pytest.mark.parametrize(
    ("grade", "claims", "checks", "said"),
    [
        (
            "documented",
            [claim("a", "documented")],
            [check("a", "p", "primary", "confirmed"), check("a", "t", "third-party", "absent")],
            "1 source; confirmed by p (primary); a primary source confirms every claim",
        ),
        (  # the site once said "third parties only" here, of a primary that confirms
            "reported",
            [claim("a", "documented"), claim("b", "reported")],
            [
                check("a", "p", "primary", "confirmed"),
                check("b", "p", "primary", "absent"),
                check("b", "t", "third-party", "confirmed"),
            ],
            "2 sources; confirmed by p (primary) and t (third-party); only third parties confirm b",
        ),
        (  # the card once said "no source confirms it" of this one
            "unverified",
            [claim("a", "documented"), claim("b", "unverified")],
            [check("a", "p", "primary", "confirmed"), check("b", "p", "primary", "absent")],
            "1 source; confirmed by p (primary); nothing confirms b",
        ),
        (
            "contradicted",
            [claim("a", "contradicted"), claim("b", "contradicted"), claim("c", "reported")],
            [
                check("a", "p", "primary", "changed"),
                check("b", "p", "primary", "changed"),
                check("c", "t", "third-party", "confirmed"),
                check("c", "t2", "third-party", "confirmed"),
            ],
            "2 sources; confirmed by t (third-party) and t2 (third-party); "
            "a primary source says otherwise on a and b",
        ),
        (
            "unverified",
            [claim(c, "unverified") for c in "abcde"],
            [],
            "0 sources; no source confirms a claim; nothing confirms a, b, c and 2 more",
        ),
        ("unverified", [], [], "0 sources; no claims to check"),
    ],
)
def test_the_sentence_says_who_confirms_and_why_the_grade(
    grade: str, claims: list[ClaimState], checks: list[SourceCheck], said: str
) -> None:
    assert evidence_said(grade, claims, checks) == said


def test_card_and_site_say_what_the_rows_say(wh: Warehouse, tmp_path: Path) -> None:
    """A primary confirms one claim, only a third party the other: `reported`, and both
    sources are named with their roles, as many as record_status counts."""
    wh.catalog({"a": None, "b": None}, ["p", "t"])
    p = wh.fetch("p", T0)
    t = wh.fetch("t", T0)
    assert p is not None and t is not None
    wh.check("a", "p", p, "confirmed")
    wh.check("b", "p", p, "absent")
    wh.check("a", "t", t, "absent")
    wh.check("b", "t", t, "confirmed")
    wh.grade(T0)
    record = wh.record()
    assert (record["grade"], record["sources_confirming"]) == ("reported", 2)
    sentence = (
        "2 sources; confirmed by p (primary) and t (third-party); only third parties confirm b"
    )

    data = queries.card(wh.con, "r")
    assert data is not None
    assert f"Evidence: reported — {sentence}\n" in render_card(data)
    write_site(wh.con, tmp_path / "site", T0)
    page = (tmp_path / "site" / "records" / "r.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", "", page)
    assert f"Evidence: reported — {sentence}." in text
    assert "third parties only" not in text
