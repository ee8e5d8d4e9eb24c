"""The status reader's lexicon, from extractors/data/statuses.yaml: each predicate compiled
once into what finds it on a page.

A predicate is found by its head word (the word its tense attaches to: "accepting" in
"accepting proposals", "reached" in "the limit has been reached"), in any inflection; the
words after the head must follow it, and the words before it must stand before it in
its clause.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources

import yaml

from extractors.rule_files import check_rule_file
from extractors.values import Status

# Every pattern runs in linear time on any text: no two adjacent parts match the same
# character. A word is letters joined by single hyphens; words are apart by white space
# or one hyphen (with white space about it), never by a run a word could also take.
WORD = r"[\w'’]+(?:-[\w'’]+)*"
SEP = r"(?:\s*-\s*|\s+)"
GAP = rf"(?:{WORD}\s+){{0,6}}?"  # `*`: up to six other words
LONG_GAP = rf"(?:{WORD}\s+){{0,10}}?"  # `**`: up to ten
KINDS = ("state", "verb", "intake", "invite", "provide", "noun")


@dataclass(frozen=True, slots=True)
class Predicate:
    """One predicate of the lexicon: the status it states and how it is read."""

    status: Status
    kind: str  # one of KINDS
    words: str  # as the lexicon writes it
    negated: Status | None  # what it states when negated ("not open": closed)
    rest: re.Pattern[str]  # the head and the words after it, matched at the head
    before: re.Pattern[str] | None  # the words before the head, searched before it
    literal: frozenset[str]  # its own words (not tense, negation or subject when read)
    tail: bool  # words follow its head ("accept * {intake}", "available to {everyone}")


@dataclass(frozen=True, slots=True)
class Lexicon:
    by_head: dict[str, tuple[Predicate, ...]]  # every form of a head word -> predicates
    heads: re.Pattern[str]  # finds any head word
    words: dict[str, frozenset[str]]  # the lists under `words`, one word or phrase each
    needs_programme: frozenset[str]  # head words said of a named programme only
    needs_copula: frozenset[str]  # predicates that state nothing without a verb before
    unnegated: frozenset[str]  # predicates whose negation states nothing
    past_forms: frozenset[str]  # forms of a verb read as its past ("ran", "shut")


def inflect(verb: str, irregular: dict[str, list[str]]) -> set[str]:
    """Every form of a verb: base, -s, -ed, -ing (regular English spelling), or those the
    lexicon lists for it."""
    if verb in irregular:
        return {verb, *irregular[verb]}
    if verb.endswith("e"):
        stem = verb[:-1]
        return {verb, verb + "s", verb + "d", stem + "ing"}
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return {verb, verb[:-1] + "ies", verb[:-1] + "ied", verb + "ing"}
    s = verb + ("es" if verb.endswith(("s", "sh", "ch", "x", "z")) else "s")
    return {verb, s, verb + "ed", verb + "ing"}


def _alternatives(words: list[str]) -> str:
    """A regex matching any of these words or phrases (longest first), spaces as any run
    of white space or hyphens."""
    ordered = sorted(set(words), key=len, reverse=True)
    return "(?:" + "|".join(SEP.join(map(re.escape, w.split())) for w in ordered) + ")"


def _token(token: str, lists: dict[str, list[str]]) -> str:
    if token == "*":
        return GAP
    if token == "**":
        return LONG_GAP
    if token.startswith("{") and token.endswith("}"):
        return _alternatives(lists[token[1:-1]])
    return _alternatives(token.split("|"))


def _compile(
    status: Status, kind: str, words: str, negated: Status | None, raw: dict
) -> tuple[set[str], Predicate]:
    lists: dict[str, list[str]] = raw["words"]
    tokens = words.split()
    marked = [i for i, t in enumerate(tokens) if t.startswith("^")]
    if marked:
        head = marked[0]
        tokens[head] = tokens[head][1:]
    else:
        head = next(i for i, t in enumerate(tokens) if "*" not in t and not t.startswith("{"))
    word = tokens[head]
    forms = set(lists[word[1:-1]] if word.startswith("{") else word.split("|"))
    if kind in ("verb", "intake", "invite", "provide") and not word.startswith("{"):
        forms = {f for w in forms for f in inflect(w, raw["irregular"])}
    parts = [_alternatives(sorted(forms))] + [_token(t, lists) for t in tokens[head + 1 :]]
    literal = frozenset(
        w for t in tokens if "*" not in t and not t.startswith("{") for w in t.split("|")
    )
    joined = SEP.join(parts)
    for gap in (GAP, LONG_GAP):
        joined = joined.replace(gap + SEP, gap)
    rest = re.compile(joined + r"(?![\w-])")
    before = None
    if head:
        behind = SEP.join(_token(t, lists) for t in tokens[:head])
        for gap in (GAP, LONG_GAP):
            behind = behind.replace(gap + SEP, gap)
        ending = "$" if behind.endswith((GAP, LONG_GAP)) else SEP + "$"
        before = re.compile(r"(?<![\w-])" + behind + ending)
    tail = head < len(tokens) - 1
    return forms, Predicate(status, kind, words, negated, rest, before, literal, tail)


def _trie(words: Iterable[str]) -> str:
    """One regex for many words, shared prefixes written once (a plain alternation of
    hundreds of words is tried word by word at every position of a page)."""
    root: dict = {}
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict) -> str:
        alts = [
            (SEP if ch == " " else re.escape(ch)) + emit(sub)
            for ch, sub in sorted(node.items())
            if ch
        ]
        if not alts:
            return ""
        group = "(?:" + "|".join(alts) + ")" if len(alts) > 1 or "" in node else alts[0]
        return group + "?" if "" in node else group

    return emit(root)


def head_key(words: str) -> str:
    """A head word as the index keys it (a phrase's spaces and hyphens as one space)."""
    return " ".join(re.split(r"[\s-]+", words.lower()))


_TEXTS = {"type": "list", "of": "text"}
_STATUS = {
    "type": "mapping",
    "keys": {"negated": "text", **{kind: _TEXTS for kind in KINDS}},
}
SCHEMA = {
    "type": "mapping",
    "required": ["irregular", "statuses", "words", "past_forms"],
    "keys": {
        "irregular": {"type": "mapping", "values": _TEXTS},
        "past_forms": _TEXTS,
        "statuses": {"type": "mapping", "keys": {s.value: _STATUS for s in Status}},
        "needs_programme": _TEXTS,
        "needs_copula": _TEXTS,
        "negation_says_nothing": _TEXTS,
        "words": {"type": "mapping", "values": _TEXTS},
    },
}


@cache
def lexicon() -> Lexicon:
    text = resources.files("extractors.data").joinpath("statuses.yaml").read_text("utf-8")
    raw = check_rule_file("statuses.yaml", yaml.safe_load(text), SCHEMA)
    by_head: dict[str, list[Predicate]] = {}
    for name, entry in raw["statuses"].items():
        negated = Status(entry["negated"]) if "negated" in entry else None
        for kind in KINDS:
            for words in entry.get(kind, ()):
                forms, predicate = _compile(Status(name), kind, words, negated, raw)
                for form in forms:
                    by_head.setdefault(head_key(form), []).append(predicate)
    heads = re.compile(r"(?<![\w-])" + _trie(by_head) + r"(?![\w])")
    words = {name: frozenset(items) for name, items in raw["words"].items()}
    needs = frozenset(f for w in raw["needs_programme"] for f in inflect(w, raw["irregular"]))
    copula = frozenset(raw["needs_copula"])
    unnegated = frozenset(raw["negation_says_nothing"])
    # past forms: each irregular verb's that end neither in -s nor -ing, and those the
    # file lists that are the same as their verb ("shut", "put")
    past = {
        f
        for verb, forms in raw["irregular"].items()
        for f in forms
        if f != verb and not f.endswith(("s", "ing"))
    } | set(raw["past_forms"])
    return Lexicon(
        {k: tuple(v) for k, v in by_head.items()},
        heads,
        words,
        needs,
        copula,
        unnegated,
        frozenset(past),
    )
