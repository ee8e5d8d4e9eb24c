"""Scoring the status reader against the hand labels of ../shared/labels/statuses_dev.json,
as its `about` says: page level (the set of statuses a page states) and sentence level
(each status with the words that state it), with the traps it fell into by kind.

The pages split by site into a part to tune on and a part scored last (`part`): each
host is in one part only, chosen by a digest of its name, so a rule written from one
part is measured on sites it never saw.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from extractors.values import Status, StatusMention

PARTS = ("tune", "check", "all")


@dataclass
class Tally:
    right: int = 0  # predictions that are labelled
    found: int = 0
    hits: int = 0  # labels that were predicted
    labelled: int = 0

    @property
    def precision(self) -> float:
        return self.right / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.hits / self.labelled if self.labelled else 1.0

    def line(self, name: str) -> str:
        return (
            f"  {name:13} precision {self.precision:.2f} ({self.right}/{self.found})  "
            f"recall {self.recall:.2f} ({self.hits}/{self.labelled})"
        )


@dataclass
class Scores:
    pages: int = 0
    page_level: dict[str, Tally] = field(default_factory=dict)
    sentence_level: dict[str, Tally] = field(default_factory=dict)
    exact_pages: int = 0
    quiet_pages: int = 0  # pages stating no status
    quiet_pages_read: int = 0  # of those, pages the reader gave a status
    traps: int = 0
    trapped: Counter[str] = field(default_factory=Counter)  # by the label's `why`
    errors: list[str] = field(default_factory=list)

    @property
    def page_total(self) -> Tally:
        return _sum(self.page_level.values())

    @property
    def sentence_total(self) -> Tally:
        return _sum(self.sentence_level.values())

    @property
    def trap_rate(self) -> float:
        return sum(self.trapped.values()) / self.traps if self.traps else 0.0

    def report(self, title: str) -> str:
        lines = [f"{title}: {self.pages} pages"]
        lines.append("page level (a page's set of statuses):")
        lines += [self.page_level[s].line(s) for s in sorted(self.page_level)]
        lines.append(self.page_total.line("overall"))
        lines.append(
            f"  exact sets {self.exact_pages}/{self.pages}; pages stating none read as stating "
            f"one {self.quiet_pages_read}/{self.quiet_pages}"
        )
        lines.append("sentence level (a status and the words stating it):")
        lines += [self.sentence_level[s].line(s) for s in sorted(self.sentence_level)]
        lines.append(self.sentence_total.line("overall"))
        kinds = ", ".join(f"{why} {n}" for why, n in self.trapped.most_common())
        lines.append(
            f"  traps taken {sum(self.trapped.values())}/{self.traps} "
            f"({self.trap_rate:.3f}){': ' + kinds if kinds else ''}"
        )
        return "\n".join(lines)


def _sum(tallies: Iterable[Tally]) -> Tally:
    out = Tally()
    for t in tallies:
        out.right += t.right
        out.found += t.found
        out.hits += t.hits
        out.labelled += t.labelled
    return out


def part_of(url: str) -> str:
    host = (urlsplit(url).hostname or "").removeprefix("www.")
    return "tune" if int(hashlib.sha1(host.encode()).hexdigest(), 16) % 2 == 0 else "check"


def load_pages(path: Path, part: str = "all") -> list[dict]:
    pages = json.loads(path.read_text(encoding="utf-8"))["pages"]
    return [p for p in pages if part == "all" or part_of(p["url"]) == part]


def _spans(text: str, needle: str) -> list[tuple[int, int]]:
    out, at = [], text.find(needle)
    while at >= 0:
        out.append((at, at + len(needle)))
        at = text.find(needle, at + 1)
    return out


def _cue_spans(text: str, entry: dict) -> list[tuple[int, int]]:
    """Where an entry's cue stands in the page (inside its sentence, any occurrence)."""
    spans = []
    for start, _ in _spans(text, entry["sentence"]):
        at = entry["sentence"].find(entry["cue"])
        spans.append((start + at, start + at + len(entry["cue"])))
    return spans


def mention_spans(text: str, m: StatusMention) -> list[tuple[int, int]]:
    """Where a mention's phrase stands in the page: inside its sentence (every occurrence
    of the sentence), the whole sentence when the phrase is not found as written."""
    spans = []
    for start, end in _spans(text, m.sentence):
        at = m.sentence.lower().find(m.phrase.lower())
        spans.append((start + at, start + at + len(m.phrase)) if at >= 0 else (start, end))
    return spans


def _overlaps(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> bool:
    return any(s < e2 and s2 < e for s, e in a for s2, e2 in b)


def score(pages: list[dict], read: Callable[[str], list[StatusMention]]) -> Scores:
    out = Scores()
    for page in pages:
        text = page["text"]
        found = read(text)
        out.pages += 1
        want = {s["status"] for s in page["statuses"]}
        got = {m.status.value for m in found}
        for status in want | got:
            tally = out.page_level.setdefault(status, Tally())
            tally.labelled += status in want
            tally.hits += status in want and status in got
            tally.found += status in got
            tally.right += status in want and status in got
        out.exact_pages += want == got
        if not want:
            out.quiet_pages += 1
            out.quiet_pages_read += bool(got)
        gold = [(s, _cue_spans(text, s), _spans(text, s["sentence"])) for s in page["statuses"]]
        traps = [(t, _cue_spans(text, t)) for t in page["traps"]]
        out.traps += len(traps)
        hit: set[int] = set()
        trapped: set[int] = set()
        for m in found:
            spans = mention_spans(text, m)
            tally = out.sentence_level.setdefault(m.status.value, Tally())
            tally.found += 1
            right = [
                i
                for i, (s, cues, sentences) in enumerate(gold)
                if s["status"] == m.status.value
                and (_overlaps(spans, cues) or _within(spans, sentences))
            ]
            if right:
                tally.right += 1
                hit.update(right)
                continue
            caught = [i for i, (t, cues) in enumerate(traps) if _overlaps(spans, cues)]
            trapped.update(caught)
            why = traps[caught[0]][0]["why"] if caught else "unlabelled"
            out.errors.append(
                f"{page['id']} false {m.status.value:12} [{why}] {m.phrase!r}: {m.sentence[:140]!r}"
            )
        for i, (s, _, _) in enumerate(gold):
            tally = out.sentence_level.setdefault(s["status"], Tally())
            tally.labelled += 1
            tally.hits += i in hit
            if i not in hit:
                out.errors.append(
                    f"{page['id']} missed {s['status']:12} {s['cue']!r}: {s['sentence'][:140]!r}"
                )
        for i in trapped:
            out.trapped[traps[i][0]["why"]] += 1
    return out


def _within(spans: list[tuple[int, int]], sentences: list[tuple[int, int]]) -> bool:
    return any(s2 <= s and e <= e2 for s, e in spans for s2, e2 in sentences)


GRANT = "Nimbus research grant"
QUOTE = "Applications are open for the Nimbus research grant"
# A status claim's sentence, reworded a dozen ways and more, each as a person writing the
# page might say it now (written for the tests; none taken from a real page): the claim
# reads `changed`, with the status each states (tests/test_status_claims.py on a page
# of its own, tests/test_status_corpus.py inside real pages).
REWORDINGS = [
    ("The Nimbus research grant is no longer accepting applications.", Status.CLOSED),
    ("Applications for the Nimbus research grant are now closed.", Status.CLOSED),
    ("We have stopped accepting applications for the Nimbus research grant.", Status.CLOSED),
    ("Submissions for the Nimbus research grant have ended for this year.", Status.CLOSED),
    ("The deadline for the Nimbus research grant has passed.", Status.CLOSED),
    ("The Nimbus research grant will reopen for applications in the spring.", Status.CLOSED),
    ("Applications closed", Status.CLOSED),
    ("The Nimbus research grant is temporarily paused.", Status.PAUSED),
    ("Applications to the Nimbus research grant are on hold while we review it.", Status.PAUSED),
    ("We are not accepting Nimbus research grant applications at this time.", Status.PAUSED),
    ("The Nimbus research grant has been suspended until further notice.", Status.PAUSED),
    ("Join the waitlist for the Nimbus research grant.", Status.WAITLIST),
    ("The Nimbus research grant is now invite-only.", Status.WAITLIST),
    ("You can join the waiting list for the next Nimbus research grant round.", Status.WAITLIST),
    ("The Nimbus research grant has ended.", Status.ENDED),
    ("The Nimbus research grant programme has concluded.", Status.ENDED),
    ("The Nimbus research grant is over.", Status.ENDED),
    ("The Nimbus research grant is no longer offered.", Status.DISCONTINUED),
    ("The Nimbus research grant has been discontinued.", Status.DISCONTINUED),
    ("We have retired the Nimbus research grant.", Status.DISCONTINUED),
    ("All funds for the Nimbus research grant have been allocated.", Status.EXHAUSTED),
    ("The Nimbus research grant credits have run out.", Status.EXHAUSTED),
]
