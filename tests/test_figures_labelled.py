"""Figures on real pages, against labels written by reading them.

tests/fixtures/labels/figures.json: every figure written with digits in the reference
text of 35 corpus pages, labelled by a person who neither ran nor read the extractor
(its "about" says how). The extractor reads the same reference texts (its grammar, not
trafilatura, is under test here); each labelled figure is matched with an extracted one
of the same kind and value (dates: the same day; a date whose year the page does not
write: the same month and day). Reports precision and recall per kind (pytest -s shows
them) and holds floors a little under what was measured.

Left out on both sides: labels marked ambiguous and the figures extracted over them, and
figures the extractor reads from words ("two officers"), which the labels do not cover.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from datetime import UTC, date, datetime
from pathlib import Path

from figure_scoring import Score, overlaps, total
from support import CORPUS, need_corpus

from extractors.numbers import extract_numbers
from extractors.values import QuotedNumber

LABELS = Path(__file__).parent / "fixtures" / "labels" / "figures.json"
READ_AT = datetime(2020, 1, 15, tzinfo=UTC)  # about when the corpus pages were written
# Measured 2026-12-01 (pytest -s prints the figures). Before the grammar saw these labels:
# precision 0.61, recall 0.54 (no unit of measure read as a number, "Oct. 26" cut at its
# stop, no month-year dates). After the fixes they led to: 0.89 and 0.84, in-sample now.
FLOORS = {
    # kind: (precision, recall)
    "money": (0.95, 0.83),
    "count": (0.64, 0.80),
    "number": (0.95, 0.93),
    "duration": (0.90, 0.58),
    "date": (0.95, 0.70),
    "date_range": (0.90, 0.60),
    "percent": (0.90, 0.90),
}
OVERALL_FLOOR = (0.85, 0.80)


def same(found: QuotedNumber, want: dict) -> bool:
    if found.kind.value != want["kind"]:
        return False
    if want["kind"] in ("date", "date_range"):
        start, end = date.fromisoformat(want["date_from"]), date.fromisoformat(want["date_to"])
        if found.date_from is None or found.date_to is None:
            return False
        if re.search(r"\b(?:1[89]|20)\d\d\b", want["raw"]):  # the year is written
            return (found.date_from, found.date_to) == (start, end)
        return (found.date_from.month, found.date_from.day, found.date_to.month,
                found.date_to.day) == (start.month, start.day, end.month, end.day)  # fmt: skip
    for key in ("value", "value_end"):
        got, exp = getattr(found, key), want[key]
        if (got is None) != (exp is None):
            return False
        if got is not None and not math.isclose(got, exp, rel_tol=1e-6):
            return False
    return True


def score_pages() -> tuple[dict[str, Score], Score, Counter[str]]:
    truth = json.loads((CORPUS / "ground-truth.json").read_text(encoding="utf-8"))
    labels = json.loads(LABELS.read_text(encoding="utf-8"))["pages"]
    by_kind: dict[str, Score] = {}
    attributes: Counter[str] = Counter()
    for page in labels:
        text = truth[page["id"]]["articleBody"]
        found = [n for n in extract_numbers(text, READ_AT) if re.search(r"\d", n.raw)]
        wanted = [f for f in page["figures"] if not f["ambiguous"]]
        doubtful = [f for f in page["figures"] if f["ambiguous"]]
        unmatched = list(found)
        for want in wanted:
            score = by_kind.setdefault(want["kind"], Score())
            score.labelled += 1
            match = next((n for n in unmatched if same(n, want)), None)
            if match is not None:
                unmatched.remove(match)
                score.hits += 1
                by_kind.setdefault(match.kind.value, Score()).right += 1
                for key in ("unit", "currency", "qualifier"):
                    if want[key] is not None:
                        attributes[f"{key} labelled"] += 1
                        got = getattr(match, key)
                        attributes[f"{key} right"] += (got or "").lower() == want[key].lower()
        for n in found:
            if n in unmatched and any(overlaps(n, d) for d in doubtful):
                continue  # read over an ambiguous label: neither right nor wrong
            by_kind.setdefault(n.kind.value, Score()).found += 1
    return by_kind, total(by_kind), attributes


def test_figures_on_labelled_pages_hold_their_floors() -> None:
    need_corpus()
    by_kind, overall, attributes = score_pages()
    report = "\n".join(s.line(kind) for kind, s in sorted(by_kind.items()))
    attrs = ", ".join(
        f"{k} {attributes[f'{k} right']}/{attributes[f'{k} labelled']}"
        for k in ("unit", "currency", "qualifier")
    )
    print(
        f"\nlabelled figures: precision {overall.precision:.2f} ({overall.right}/{overall.found}), "
        f"recall {overall.recall:.2f} ({overall.hits}/{overall.labelled})\n{report}\n"
        f"  attributes of matched figures: {attrs}"
    )
    assert overall.labelled >= 150 and len(json.loads(LABELS.read_text())["pages"]) >= 30
    assert overall.precision >= OVERALL_FLOOR[0] and overall.recall >= OVERALL_FLOOR[1], report
    for kind, (precision, recall) in FLOORS.items():
        s = by_kind.get(kind, Score())
        assert s.precision >= precision and s.recall >= recall, (kind, report)
