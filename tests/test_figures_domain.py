"""Figures on pages of the catalog's own domain (providers' docs and pricing pages,
programme pages, write-ups and forums about them), labelled by hand by readers who never
saw the grammar: ../shared/labels/figures_domain_dev.json (its "about" says how).

Scored as tests/test_figures_dev.py scores the corpus set. Pages v01 to v30 are the
development pages; v31 to v40 are held out: no rule is written from them, and their
test prints only the totals.

pytest -s prints the figures, per kind (and every miss of the development pages).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from figure_scoring import DomainScore, domain_pages, score_domain
from support import need_shared_labels

FETCHED_AT = datetime(2026, 12, 1, tzinfo=UTC)
HELD_OUT = frozenset(f"v{k}" for k in range(31, 41))
# Floors a little under what was measured (pytest -s prints it; the commit that set
# them says what it was): a guard against regressions, not a target.
DEV_FLOORS = {"precision": 0.98, "recall": 0.98, "subjects": 0.71}
HELD_OUT_FLOORS = {"precision": 0.94, "recall": 0.89, "subjects": 0.63}


def score(held_out: bool) -> DomainScore:
    """Per kind, and for subjects, over the development or the held-out pages."""
    pages = domain_pages(need_shared_labels("figures_domain_dev.json"))
    return score_domain([p for p in pages if (p["id"] in HELD_OUT) == held_out], FETCHED_AT)


def test_figures_on_the_domain_development_pages() -> None:
    scored = score(held_out=False)
    overall = scored.overall
    report = scored.report("domain development pages")
    print(report + "\n" + "\n".join(f"    {m}" for m in scored.misses))
    assert overall.labelled >= 300
    assert overall.precision >= DEV_FLOORS["precision"], report
    assert overall.recall >= DEV_FLOORS["recall"], report
    assert scored.subjects.recall >= DEV_FLOORS["subjects"], report


def test_figures_on_the_domain_held_out_pages() -> None:
    scored = score(held_out=True)
    overall = scored.overall
    report = scored.report("domain held-out pages")
    print(report)  # totals only: the misses are not for reading
    assert overall.labelled >= 100
    assert overall.precision >= HELD_OUT_FLOORS["precision"], report
    assert overall.recall >= HELD_OUT_FLOORS["recall"], report
    assert scored.subjects.recall >= HELD_OUT_FLOORS["subjects"], report


# The second batch (figures_domain_dev2.json), split by site (tests/figure_scoring.py):
# floors a little under what was measured on each part; the `check` part was scored once
# before any rule was written from it (the commit that set these says what it read).
DEV2_FLOORS = {
    "tune": {"precision": 0.97, "recall": 0.95, "count": 0.93},
    "check": {"precision": 0.95, "recall": 0.82, "count": 0.58},
}


@pytest.mark.parametrize("part", ["tune", "check"])
def test_figures_on_the_second_domain_batch(part: str) -> None:
    pages = domain_pages(need_shared_labels("figures_domain_dev2.json"), part)
    scored = score_domain(pages, FETCHED_AT)
    report = scored.report(f"figures_domain_dev2.json, part {part}")
    print(report)
    floors = DEV2_FLOORS[part]
    assert scored.overall.labelled >= 130
    assert scored.overall.precision >= floors["precision"], report
    assert scored.overall.recall >= floors["recall"], report
    assert scored.by_kind["count"].recall >= floors["count"], report
