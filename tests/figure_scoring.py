"""Scoring extracted figures against hand labels (tests/fixtures/labels/): a tally per
kind, and the rules by which an extracted figure is the labelled one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

from extractors.values import QuotedNumber


@dataclass
class Score:
    hits: int = 0  # labels matched
    labelled: int = 0
    right: int = 0  # extracted figures matched
    found: int = 0

    @property
    def precision(self) -> float:
        return self.right / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.hits / self.labelled if self.labelled else 1.0

    def line(self, name: str) -> str:
        return (
            f"  {name:10} precision {self.precision:.2f} ({self.right}/{self.found})  "
            f"recall {self.recall:.2f} ({self.hits}/{self.labelled})"
        )


def total(by_kind: dict[str, Score]) -> Score:
    return Score(
        sum(s.hits for s in by_kind.values()),
        sum(s.labelled for s in by_kind.values()),
        sum(s.right for s in by_kind.values()),
        sum(s.found for s in by_kind.values()),
    )


def overlaps(found: QuotedNumber, want: dict) -> bool:
    """The extracted figure sits on the labelled one (shares digits with its words)."""
    digits = re.findall(r"\d+", found.raw)
    return bool(digits) and any(d in want["raw"] for d in digits)


# The domain batches (../shared/labels/figures_domain_dev*.json): each split by site, as
# the status labels are (status_scoring.part_of), into a part tuned on and a part scored
# last, so a rule written from one part is measured on sites it never saw.
DOMAIN_BATCHES = {
    "dev": "figures_domain_dev.json",
    "dev2": "figures_domain_dev2.json",
    "dev3": "figures_domain_dev3.json",
}


@dataclass
class DomainScore:
    by_kind: dict[str, Score]
    subjects: Score
    misses: list[str]

    @property
    def overall(self) -> Score:
        return total(self.by_kind)

    def report(self, name: str) -> str:
        o, s = self.overall, self.subjects
        lines = "\n".join(t.line(kind) for kind, t in sorted(self.by_kind.items()))
        return (
            f"{name}: precision {o.precision:.2f} ({o.right}/{o.found}), recall "
            f"{o.recall:.2f} ({o.hits}/{o.labelled})\n{lines}\n"
            f"  subjects accepted {s.hits}/{s.labelled} ({s.recall:.2f})"
        )


def domain_pages(path: Path, part: str = "all") -> list[dict]:
    """A batch's pages, or those of one part of it (split by site as the status labels)."""
    from status_scoring import load_pages

    return load_pages(path, part)


def score_domain(pages: list[dict], fetched_at: datetime) -> DomainScore:
    """Per kind, and for subjects, over labelled domain pages; each miss and each figure
    read where none is labelled, named by the rule that read it."""
    from test_figures_dev import accepted, same

    from extractors.numbers import extract_numbers

    by_kind: dict[str, Score] = {}
    subjects = Score()
    misses: list[str] = []
    for page in pages:
        published = date.fromisoformat(page["published"]) if page["published"] else None
        found = [
            n
            for n in extract_numbers(page["text"], fetched_at, published)
            if re.search(r"\d", n.raw)
        ]
        unmatched = list(found)
        doubtful = [f for f in page["figures"] if f["ambiguous"]]
        for want in (f for f in page["figures"] if not f["ambiguous"]):
            tally = by_kind.setdefault(want["kind"], Score())
            tally.labelled += 1
            match = next((n for n in unmatched if same(n, want)), None)
            if match is None:
                got = [
                    f"{n.kind.value}:{n.raw}:{n.unit}[{n.rule}]" for n in found if overlaps(n, want)
                ]
                misses.append(
                    f"missed  {want['kind']:8} {want['raw']!r} unit={want['unit']!r} "
                    f"got {got} ({page['id']})"
                )
                continue
            unmatched.remove(match)
            tally.hits += 1
            by_kind.setdefault(
                want["kind"] if match.kind.value in ("count", "number") else match.kind.value,
                Score(),
            ).right += 1
            head = want.get("subject_head")
            if want["kind"] in ("date", "date_range", "duration") or not head:
                continue
            subjects.labelled += 1
            subjects.found += match.subject is not None
            if accepted(match.subject, head):
                subjects.hits += 1
                subjects.right += 1
            else:
                misses.append(
                    f"subject {match.raw!r}: {match.subject!r}, wanted {head!r} ({page['id']})"
                )
        for n in unmatched:
            if any(overlaps(n, d) for d in doubtful):
                continue  # read over an ambiguous label: neither right nor wrong
            by_kind.setdefault(n.kind.value, Score()).found += 1
            misses.append(
                f"extra   {n.kind.value:8} {n.raw!r} unit={n.unit!r} {n.value} [{n.rule}] "
                f"({page['id']})"
            )
    for tally in by_kind.values():
        tally.found += tally.right  # right ones were counted apart
    return DomainScore(by_kind, subjects, misses)
