"""Scoring extracted figures against hand labels (tests/fixtures/labels/): a tally per
kind, and the rules by which an extracted figure is the labelled one."""

from __future__ import annotations

import re
from dataclasses import dataclass

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
