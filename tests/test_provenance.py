"""Page dates and figure subjects against references labelled by hand
(tests/fixtures/labels/): real corpus pages and sentences, and the seed article."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from support import need_corpus

from extractors.dates import page_dates
from extractors.numbers import extract_numbers
from extractors.page import extract_page

LABELS = Path(__file__).resolve().parent / "fixtures" / "labels"
NOW = datetime(2026, 11, 30, tzinfo=UTC)


def _corpus_page(key: str) -> str:
    path = need_corpus() / "html" / f"{key}.html.gz"
    return gzip.decompress(path.read_bytes()).decode("utf-8", "replace")


@pytest.mark.slow
def test_page_dates_match_the_hand_labels() -> None:
    """50 corpus pages, dated by hand from what they show. A page's metadata in UTC may
    fall on the day after its byline's local date: a day off is counted apart."""
    pages = json.loads((LABELS / "page_dates.json").read_text())["pages"]
    assert len(pages) >= 40
    tally = {"published_on": [0, 0, 0, 0], "modified_on": [0, 0, 0, 0]}  # right, a day off,
    for key, label in pages.items():  # wrong, missed
        page = extract_page(_corpus_page(key), None, NOW)
        for field, counts in tally.items():
            got = getattr(page, field)
            want = date.fromisoformat(label[field]) if label[field] else None
            if got == want:
                counts[0] += 1
            elif got is None:
                counts[3] += 1
            elif want is not None and abs((got - want).days) == 1:
                counts[1] += 1
            else:
                counts[2] += 1
    n = len(pages)
    published, modified = tally["published_on"], tally["modified_on"]
    # measured 2026-12-01: published 41 right, 9 a day off; modified 44 right, 3 a day
    # off, 3 missed; no wrong date in either
    assert published[0] >= 0.8 * n and published[2] == 0 and published[3] <= 1
    assert modified[0] >= 0.85 * n and modified[2] == 0


def test_visible_lines_and_metadata_give_dates_none_from_the_future() -> None:
    html = """<html><head>
<meta property="article:published_time" content="2026-03-02T09:00:00Z">
<meta property="article:modified_time" content="2027-01-01T00:00:00Z">
<script type="application/ld+json">{"@graph": [{"@type": "NewsArticle",
 "datePublished": "2026-03-01", "dateModified": "2026-08-14"}]}</script></head></html>"""
    # JSON-LD before meta; a modified date after the fetch is not believed
    assert page_dates(html, "", NOW) == (date(2026, 3, 1), date(2026, 8, 14))
    text = "Credits for teams\nLast updated: August 20, 2026\nTeams get $4,000."
    assert page_dates(html, text, NOW)[1] == date(2026, 8, 20)
    assert page_dates("<html><p>No dates here.</p></html>", "No dates here.", NOW) == (
        None,
        None,
    )


def _figures_and_labels() -> list[tuple[str | None, str | None]]:
    """(subject found, subject labelled) for each labelled figure the extractor finds."""
    data = json.loads((LABELS / "subjects.json").read_text())
    pairs = []
    for item in data["sentences"]:
        found = extract_numbers(item["sentence"], NOW)
        used: set[int] = set()
        for figure in item["figures"]:
            i = next(
                (
                    i
                    for i, n in enumerate(found)
                    if i not in used and (figure["raw"] in n.raw or n.raw in figure["raw"])
                ),
                None,
            )
            if i is None:
                pairs.append((None, figure["subject"]))
                continue
            used.add(i)
            pairs.append((found[i].subject, figure["subject"]))
    return pairs


def test_figure_subjects_match_the_hand_labels() -> None:
    """155 sentences (the seed article and card, 85 corpus articles), 245 figures.

    These labels name a subject only where it stands right next to the figure (the
    first rules' reach); a subject said where they name none ("revenue rose 3.5 percent")
    is reported, not counted against precision, which is taken where they name one."""
    pairs = _figures_and_labels()
    assert len(pairs) >= 200
    right = sum(1 for got, want in pairs if got and want and got.lower() == want.lower())
    said = sum(1 for got, want in pairs if got and want)
    labelled = sum(1 for _, want in pairs if want)
    beyond = sum(1 for got, want in pairs if got and not want)
    precision, recall = right / said, right / labelled
    print(f"\nsubjects.json: precision {precision:.2f} ({right}/{said}), recall {recall:.2f} "
          f"({right}/{labelled}), said where the labels name none: {beyond}")  # fmt: skip
    # measured 2026-12-01: precision 0.98, recall 0.84, 29 said beyond the labels (before
    # issue 32's rules: 0.95 and 0.75, 5 beyond; rules written against this set: a floor
    # against regressions, not an estimate for unseen pages)
    assert precision >= 0.92 and recall >= 0.72, (precision, recall)


@pytest.mark.parametrize(
    ("sentence", "raw", "subject", "qualifier"),
    [
        ("Teams get $4,000 in GPU credits for the best runs.", "$4,000", "GPU credits", None),
        ("The headline: 2,226 papers in 19 days, 35,908 claims judged", "35,908", "claims", None),
        ("Each team gets USD 20 per participant.", "USD 20", None, "per participant"),
        ("Titan, with a diameter of 3,200 miles, is large.", "3,200", "diameter", None),
        ("Carlineo faces a maximum of 10 years in prison.", "10 years", None, None),
    ],
)
def test_subject_rules_on_the_issue_examples(
    sentence: str, raw: str, subject: str | None, qualifier: str | None
) -> None:
    n = next(n for n in extract_numbers(sentence, NOW) if raw in n.raw)
    assert n.subject == subject
    if qualifier:
        assert n.qualifier == qualifier
