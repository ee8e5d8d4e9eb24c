"""Statuses on real pages, labelled by hand by readers who never saw the reader:
../shared/labels/statuses_dev.json (its "about" says how). The pages split by site into a
part rules were written from and a part scored last (tests/status_scoring.py); both are
development pages now, and the product is measured on others.

`bench/statuses.py --errors` prints the figures per status and every miss.
"""

from __future__ import annotations

import pytest
from status_scoring import load_pages, score
from support import need_shared_labels

from extractors.statuses import extract_statuses

# Floors a little under what was measured (the commit that set them says what it was):
# a guard against regressions, not a target.
FLOORS = {
    "tune": {"page_precision": 0.88, "page_recall": 0.90, "trap_rate": 0.03},
    "check": {"page_precision": 0.72, "page_recall": 0.75, "trap_rate": 0.08},
}


@pytest.mark.parametrize("part", sorted(FLOORS))
def test_statuses_on_the_development_pages(part: str) -> None:
    pages = load_pages(need_shared_labels("statuses_dev.json"), part)
    scores = score(pages, extract_statuses)
    print("\n" + scores.report(f"statuses_dev.json, part {part}"))
    floors = FLOORS[part]
    assert scores.page_total.precision >= floors["page_precision"]
    assert scores.page_total.recall >= floors["page_recall"]
    assert scores.trap_rate <= floors["trap_rate"]


def test_a_reader_that_reads_every_phrase_fails_the_floors() -> None:
    """The scorer can fail: a reader that takes every status word as a status does."""
    from extractors.status_lexicon import lexicon
    from extractors.values import StatusMention

    def everything(text: str) -> list[StatusMention]:
        lex = lexicon()
        return [
            StatusMention(p.status, m.group(), text)
            for m in lex.heads.finditer(text.lower())
            for p in lex.by_head.get(" ".join(m.group().split()), ())[:1]
        ]

    scores = score(load_pages(need_shared_labels("statuses_dev.json")), everything)
    assert scores.trap_rate > FLOORS["check"]["trap_rate"]
    assert scores.page_total.precision < FLOORS["check"]["page_precision"]
