"""Statuses: what a page states as the current status of a programme or offer, read as a
careful reader reads statements, not phrases (docs/grading.md, "Reading statuses"). The same
reader serves a page's statuses, a status claim's `found_status`, `update` and `suggest`.

Every sentence that holds a cue (extractors/status_cues.py: words that may state a
status, open-ended on purpose) is described by features (extractors/status_model.py:
each cue in its clause, what the rules of extractors/status_rules.py read there, the
sentence's words and shape), and the model learned from labelled pages says which
statuses it states now. The phrase kept is the rules' when they read the same status in
the sentence, else the words of the cue that weighed most, with the auxiliaries before
it. Without a model (none shipped yet), the rules are the reader.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from extractors.sentences import sentence_spans
from extractors.status_cues import Cue, cues
from extractors.status_model import (
    MAX_CUES,
    STATUSES,
    CueFeatures,
    StatusModel,
    bucket,
    cue_features,
    sentence_features,
    status_model,
)
from extractors.status_rules import (
    MAX_HEADS,
    REACH,
    StatusReading,
    _after_banner,
    _lower,
    read_rules,
    stated_about,
    subject_words,
)
from extractors.values import Status, StatusMention

__all__ = [
    "MAX_CUES_READ",
    "MAX_HEADS",
    "Candidate",
    "StatusReading",
    "candidates",
    "extract_statuses",
    "read_statuses",
    "stated_about",
    "subject_words",
]

MAX_CUES_READ = 3000  # cues read on one page: the rest of it is read in part


@dataclass(frozen=True, slots=True)
class Candidate:
    """A sentence that holds a cue, described for the model."""

    span: tuple[int, int]  # where it stands in the text
    cues: tuple[CueFeatures, ...]
    rules: tuple[StatusMention, ...]  # what the rules read in it
    features: tuple[str, ...]


def extract_statuses(text: str, folded: str | None = None) -> list[StatusMention]:
    """Every status the text states as current, each with the words that state it (as
    written) and its sentence; one per status and sentence, in reading order. `folded`
    is accepted for callers that have the folded text; the reader does not need it."""
    return list(read_statuses(text).mentions)


def read_statuses(text: str, model: StatusModel | None = None) -> StatusReading:
    """extract_statuses, saying whether the page was read in part (its work is bounded by
    what it holds); `model`: another than the one shipped (the trainer's)."""
    model = model or status_model()
    if model is None:
        return read_rules(text)
    found, partly, rules = candidates(text)
    read = {c.span for c in found}
    mentions: list[tuple[int, StatusMention]] = []
    for c in found:
        scores = model.scores(c.features)
        said = {m.status: m for m in c.rules}
        for i, status in enumerate(STATUSES):
            if status in said:
                if scores[i] >= model.keep:
                    mentions.append((c.span[0], said[status]))
            elif scores[i] >= model.add[i]:
                added = _mention(text, c, status, model)
                if added is not None:
                    mentions.append((c.span[0], added))
    # what the rules read in a sentence holding no cue stands as they read it
    seen = {text[a:b] for a, b in read}
    for m in rules.mentions:
        if m.sentence not in seen:
            mentions.append((text.find(m.sentence), m))
    ordered = [m for _, m in sorted(mentions, key=lambda x: x[0])]
    return StatusReading(tuple(_after_banner(ordered)), partly)


def candidates(text: str) -> tuple[list[Candidate], bool, StatusReading]:
    """Every sentence of the text that holds a cue, described; whether the page held more
    cues (or status words) than a page is read for; and what the rules read of it."""
    low = _lower(text)
    found = cues().find(low)
    if not found:
        rules = read_rules(text)
        return [], rules.partly, rules
    spans = sentence_spans(text)
    rules = read_rules(text, spans)
    partly = rules.partly or len(found) > MAX_CUES_READ
    starts = [s for s, _ in spans]
    by_sentence: dict[int, list[Cue]] = {}
    for cue in found[:MAX_CUES_READ]:
        at = bisect.bisect_right(starts, cue.start) - 1
        if at >= 0 and cue.start < spans[at][1]:
            by_sentence.setdefault(at, []).append(cue)
    ruled: dict[str, list[StatusMention]] = {}
    for m in rules.mentions:
        ruled.setdefault(m.sentence, []).append(m)
    out = []
    for at, held in sorted(by_sentence.items()):
        s0, s1 = spans[at]
        sentence = text[s0:s1]
        described = []
        for cue in held[:MAX_CUES]:
            around = (max(s0, cue.start - REACH), min(s1, cue.end + REACH))
            described.append(cue_features(low, around, cue))
        said = tuple(ruled.get(sentence, ()))
        features = sentence_features(sentence, described, (m.status for m in said))
        out.append(Candidate((s0, s1), tuple(described), said, tuple(features)))
    return out, partly, rules


def _mention(text: str, c: Candidate, status: Status, model: StatusModel) -> StatusMention | None:
    """The status with the words of the cue that weighed most for it; none when that cue
    stands in a question, a condition, an example, quoted words or a timeline, which
    state nothing whatever the model weighs."""
    i = STATUSES.index(status)

    def weight(cf: CueFeatures) -> float:
        return sum(model.weights.get(bucket(f), (0.0,) * len(STATUSES))[i] for f in cf.features)

    best = max(c.cues, key=weight)
    clause = best.clause
    if clause.question or clause.conditional or clause.example or clause.quoted or clause.timeline:
        return None
    start = min(best.clause.chain_start, best.cue.start)
    return StatusMention(status, text[start : best.cue.end], text[c.span[0] : c.span[1]])
