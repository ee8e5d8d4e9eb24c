"""The learned status reader: a sentence that holds a cue (extractors/status_cues.py) is
described by features, and a small model learned from hundreds of labelled pages says
which statuses it states now.

The features are what a careful reader weighs, as words: each cue's word and group with
its clause (tense, negation, condition, question, example, quotation, a date after it,
its subject's last word, the words beside it), what the rule reader (extractors/
statuses.py) makes of the sentence, the sentence's words and shape. Each feature is a
string hashed into BUCKETS; the model is one logistic regression per status over the
buckets (extractors/data/status_model.bin, made by `make statuses-model` from the labels
beside the repository: bench/train_statuses.py), with a threshold per status. It holds
weights only, never a word of the pages it was learned from.
"""

from __future__ import annotations

import math
import re
import struct
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from extractors import clauses
from extractors.status_cues import Cue
from extractors.values import Status
from extractors.version import EXTRACTOR_VERSION

BUCKETS = 1 << 17
STATUSES = tuple(Status)
MAX_CUES = 4  # cues of one sentence described (the first ones)
MAX_WORDS = 60  # words of one sentence in its bag
MODEL_FILE = "status_model.bin"
_MAGIC = b"EVSM2"
_WORD = re.compile(r"[a-z][a-z0-9'’]*")


@dataclass(frozen=True, slots=True)
class CueFeatures:
    cue: Cue
    clause: clauses.Clause
    features: tuple[str, ...]


def cue_features(low: str, sentence: tuple[int, int], cue: Cue) -> CueFeatures:
    """The features of one cue in its clause."""
    literal = frozenset(cue.word.split())
    c = clauses.clause_at(low, sentence, cue.start, cue.start, cue.end, literal)
    g, k, w = f"g:{cue.group}", f"k:{cue.key}", f"w:{cue.word}"
    tense = c.tense
    flags = [
        name
        for name, on in (
            ("neg", c.negated),
            ("cond", c.conditional),
            ("q", c.question),
            ("ex", c.example),
            ("quo", c.quoted),
            ("tl", c.timeline),
            ("dated", c.dated),
            ("today", c.today),
            ("pass", c.passive),
            ("det", c.determined),
            ("first", c.opens_sentence),
        )
        if on
    ]
    before = low[max(sentence[0], cue.start - 40) : cue.start].split()
    after = low[cue.end : min(sentence[1], cue.end + 40)].split()
    prev = _plain(before[-1]) if before else "^"
    nxt = _plain(after[0]) if after else "$"
    subject = _plain(c.subject[-1].text) if c.subject else "-"
    out = [g, k, w, f"{g}|t:{tense}", f"{k}|t:{tense}", f"t:{tense}"]
    out += [f"{g}|{f}" for f in flags] + [f"{k}|{f}" for f in flags if f in ("neg", "cond")]
    out += [f"{g}|{tense}|{f}" for f in flags if f in ("neg", "dated", "pass")]
    out += [f"{g}|p:{prev}", f"{k}|p:{prev}", f"{g}|n:{nxt}", f"{k}|n:{nxt}"]
    out += [f"{g}|s:{subject}", f"s:{subject}"]
    out += [f"{g}|c:{w}" for w in c.chain]
    return CueFeatures(cue, c, tuple(out))


def sentence_features(
    sentence_text: str, cue_features: Iterable[CueFeatures], rules: Iterable[Status]
) -> list[str]:
    """The features of a sentence: its cues', the rule reader's readings, its words and
    its shape."""
    out: list[str] = []
    groups = set()
    for cf in cue_features:
        out.extend(cf.features)
        groups.add(cf.cue.group)
    for status in rules:
        out.append(f"r:{status.value}")
        out += [f"r:{status.value}|g:{g}" for g in groups]
    low = sentence_text.lower()
    words = [_plain(w) for w in _WORD.findall(low)[:MAX_WORDS]]
    out += [f"b:{w}" for w in words]
    n = len(words)
    out.append(f"len:{min(n // 4, 8)}")
    stripped = sentence_text.strip()
    if stripped and stripped[-1] not in ".!?:;":
        out.append("heading")
    if "|" in sentence_text:
        out.append("table")
    if stripped.startswith("#"):
        out.append("md-heading")
    if re.search(r"\b(?:19|20)\d\d\b", low):
        out.append("year")
    if len(groups) > 1:
        out += [f"gg:{a}+{b}" for a in sorted(groups) for b in sorted(groups) if a < b]
    return out


@lru_cache(maxsize=1 << 16)
def _plain(word: str) -> str:
    """A word as the features name it: lower case, quotes and a plural's or past's end
    away (a crude stem: "applications" and "application" are one feature)."""
    w = word.strip("'’\".,;:!?()[]{}*#|").replace("’", "'")
    for end in ("'s", "ing", "ed", "es", "s"):
        if len(w) > len(end) + 3 and w.endswith(end):
            return w[: -len(end)]
    return w


@lru_cache(maxsize=1 << 17)
def bucket(feature: str) -> int:
    return zlib.crc32(feature.encode("utf-8")) % BUCKETS


@dataclass(frozen=True, slots=True)
class StatusModel:
    """One logistic regression per status over hashed features, and how its readings
    meet the rules': a status the rules read in a sentence is kept unless the model gives
    it less than `keep`; one they do not read is added when the model gives it at least
    its `add` threshold. `version`: the extractor version it was learned for."""

    weights: dict[int, tuple[float, ...]]  # bucket -> a weight per status
    bias: tuple[float, ...]
    add: tuple[float, ...]
    keep: float
    version: str

    def scores(self, features: Iterable[str]) -> list[float]:
        """The probability, per status (in STATUSES' order), that the sentence states it."""
        total = list(self.bias)
        for b in {bucket(f) for f in features}:
            w = self.weights.get(b)
            if w is not None:
                for i, x in enumerate(w):
                    total[i] += x
        return [1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, t)))) for t in total]

    def to_bytes(self) -> bytes:
        n = len(STATUSES)
        version = self.version.encode("utf-8")
        head = struct.pack("<5sIIfH", _MAGIC, n, len(self.weights), self.keep, len(version))
        head += version
        head += struct.pack(f"<{n}f", *self.bias) + struct.pack(f"<{n}f", *self.add)
        keys = sorted(self.weights)
        body = struct.pack(f"<{len(keys)}I", *keys)
        values = [x for k in keys for x in self.weights[k]]
        body += struct.pack(f"<{len(values)}e", *values)
        return head + body

    @classmethod
    def from_bytes(cls, data: bytes) -> StatusModel:
        magic, n, count, keep, size = struct.unpack_from("<5sIIfH", data)
        if magic != _MAGIC or n != len(STATUSES):
            raise ValueError(f"{MODEL_FILE} is not a status model of this release")
        at = struct.calcsize("<5sIIfH")
        version = data[at : at + size].decode("utf-8")
        at += size
        bias = struct.unpack_from(f"<{n}f", data, at)
        at += 4 * n
        add = struct.unpack_from(f"<{n}f", data, at)
        at += 4 * n
        keys = struct.unpack_from(f"<{count}I", data, at)
        at += 4 * count
        values = struct.unpack_from(f"<{count * n}e", data, at)
        weights = {k: tuple(values[i * n : (i + 1) * n]) for i, k in enumerate(keys)}
        return cls(weights, tuple(bias), tuple(add), keep, version)


@cache
def status_model() -> StatusModel | None:
    """The model shipped in extractors/data/, loaded once per process (None: none yet).
    One learned for another extractor version is not this reader's: a ValueError."""
    path = resources.files("extractors.data").joinpath(MODEL_FILE)
    if not path.is_file():
        return None
    return checked(StatusModel.from_bytes(path.read_bytes()))


def checked(model: StatusModel) -> StatusModel:
    """The model, when it was learned for this extractor version (its features are this
    reader's); else a ValueError saying how to make it again."""
    if model.version != EXTRACTOR_VERSION:
        raise ValueError(
            f"extractors/data/{MODEL_FILE} was learned for extractor {model.version}, not "
            f"{EXTRACTOR_VERSION}: run `make statuses-model`"
        )
    return model
