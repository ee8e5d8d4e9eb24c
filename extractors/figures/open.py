"""Every number written with digits is a figure unless it is one of the closed classes
that are not: a careful reader's default, and the labels'. The grammar reads the units
it knows; this pass reads the rest, each with the noun after it as its unit whatever
that noun is ("3 FTE", "2 s", "a 3.2 GPA"). A number that nothing beside it gives a unit
stays out: a careful reader takes that unit from the context, and a guess is wrong.

The closed classes: bare years, names of models, products, versions, plans and tiers
("A100", "GPT-4", "Tier 1", "Claude 3.5"), list and section numbers, times of day,
ordinals, citations, URLs, paths and code, HTTP and error codes, region and server
names, ports, ages, phone numbers and titles. Each test in `_closed` names its class.
"""

from __future__ import annotations

import re

from extractors.figures.counts import plural_level, unit_noun
from extractors.figures.grammar import NUM
from extractors.figures.words import http_status, in_name, is_year, per_qualifier, value_of
from extractors.lexicon import DURATION_UNITS, NOT_NOUNS, PER_WORDS, RANK_WORDS, VERSION_WORDS
from extractors.subjects import STOP_WORDS, subject_of
from extractors.values import NumberKind, QuotedNumber

OPEN = "open"  # the rule name of what this pass reads

_NUMBER = re.compile(
    rf"(?<![\w.,\-/:#@$€£¥+^_\\=&%~'’§])(?P<num>{NUM})"
    r"(?P<scale>\s?(?:[kKMB]|million|billion|thousand)(?![\w]))?"
)
# What may not follow a figure's digits: a decimal or path going on, an ordinal, a time
# of day, a glued word that is a name ("4o", "2x"), a sign or symbol.
_CLOSED_AFTER = re.compile(
    r"(?:[.,:/]\d|[/\\@_=#'’-]?\w|\s?(?:st|nd|rd|th)\b|\s?[ap]\.?m\b\.?"
    r"|\s?(?:%|‰|°|\$|€|£|¥)|\]|\s?[x×]\b)",
    re.I,
)
_TIME_OF_DAY = re.compile(r"\s?(?:[ap]\.?m\.?|o'clock|h\d\d|utc|gmt)\b", re.I)
_LIST_NUMBER = re.compile(r"\s*(?:[-*•·]\s*)?(?:\(?\d{1,3}[.)])(?:\s|$)")
_WORD = re.compile(r"[\s\-]?(?P<word>[A-Za-z][A-Za-z'’-]*(?:/[A-Za-z]+)?)")
_PER = re.compile(r"\s*(?:/\s*|\bper\s+|\ba\s+)(?P<per>[A-Za-z]+)\b", re.I)
_BEFORE_WORD = re.compile(r"(?P<word>[A-Za-z][\w'’.-]*):?\s+$")
# "**7-30 days** 1.": the next item's number, at the end of the line before it
_NEXT_ITEM = re.compile(r"\d{1,2}\.?\s*$")
_MARK_BEFORE = re.compile(r"[^\w\s,;:(]\s+$")
_AGE_OR_PLACE = re.compile(r"[A-Za-z][\w’']*\.?,\s+$")
_SET_OFF = re.compile(r"\s*(?:,|–|—|-\s)")
_PHONE_RUN = re.compile(r"[\d()+-]+(?:[ \u00a0][\d()+-]+)+")
_MODEL_AFTER = re.compile(r"-[A-Za-z]*\d")  # "30B-A3B": a model's name
_DIGIT = re.compile(r"\d")
_SPACE = re.compile(r"\s")
_IN_NUMBER = frozenset("0123456789.,")
_ROW_NUMBER = re.compile(r"\s*\|?\s*\d{1,3}\s*\|")  # "| 1 | Firebase |": the row's number
# Words before a number that make it a place in an order, an identifier or a code
_CODE_WORDS = frozenset(
    """nr num number id ref code error errno http status port pin zip postcode room
    suite unit box route flight bus line exit gate platform rule law act bill isbn doi
    issue pr ticket vol volume edition ch pp p fig table eq equation footnote note
    question q level age aged ages rated rank ranked ranking ranks""".split()
)
_TIMES = {**DURATION_UNITS, "s": "second", "d": "day"}
MAX_UNIT_WORDS = 3  # modifiers and head: "GPU compute hours"


def open_figures(sentence: str, numbers: list[QuotedNumber]) -> list[QuotedNumber]:
    """The sentence's figures with those its grammar left out, in reading order."""
    read = _spans(sentence, numbers)
    added: list[tuple[int, QuotedNumber]] = []
    for m in _NUMBER.finditer(sentence):
        start, end = m.start(), m.end()
        if any(s < end and start < e for s, e in read):
            continue
        if _closed(sentence, m):
            continue
        figure = _figure(sentence, m)
        if figure is not None:
            added.append((start, figure))
    kept = [
        (span, n)
        for span, n in zip(read, numbers, strict=True)
        if n.kind is not NumberKind.COUNT or span[0] < 0 or not _coded(sentence, _digits(n, span))
    ]
    if not added and len(kept) == len(numbers):
        return numbers
    placed = [(s, n) for (s, _), n in kept] + added
    return [n for _, n in sorted(placed, key=lambda p: p[0])]


def _spans(sentence: str, numbers: list[QuotedNumber]) -> list[tuple[int, int]]:
    """Where each figure stands, searched in reading order."""
    spans: list[tuple[int, int]] = []
    for n in numbers:
        found = sentence.find(n.raw)
        # a raw written twice takes its next place; one inside a longer number is not it
        while found >= 0 and (
            (found, found + len(n.raw)) in spans or sentence[found - 1 : found] in _IN_NUMBER
        ):
            found = sentence.find(n.raw, found + 1)
        spans.append((found, found + len(n.raw)) if found >= 0 else (-1, -1))
    return spans


def _closed(sentence: str, m: re.Match[str]) -> bool:
    """Whether the number is one of the closed classes, no figure."""
    num, start, end = m["num"], m.start(), m.end()
    scale = m["scale"]
    if not scale and is_year(num, None):
        return True  # a bare year
    if not scale and _CLOSED_AFTER.match(sentence, end):
        return True  # a version, an ordinal, a path, a name's digits
    if _TIME_OF_DAY.match(sentence, end) or sentence[end : end + 1] == ":":
        return True  # "8 pm", "9:30"
    if in_name(sentence, start):
        return True  # "A100", "Windows 11", "version 3"
    token_start = sentence.rfind(" ", 0, start) + 1
    space = _SPACE.search(sentence, start)
    token = sentence[token_start : space.start() if space is not None else len(sentence)]
    if "/" in token or "://" in token or "`" in token or "@" in token or "=" in token:
        return True  # a URL, a path, code
    if not sentence[:start].strip() and _LIST_NUMBER.match(sentence):
        return True  # a list's or a section's number
    if sentence[start - 1 : start] == "[" or (
        sentence[start - 1 : start] == "(" and sentence[end : end + 1] == ")"
    ):
        return True  # a citation, "[3]", "(2)"
    if http_status(num, sentence, start, end):
        return True
    if _NEXT_ITEM.fullmatch(sentence, start) and _MARK_BEFORE.search(sentence, 0, start):
        return True  # a list's next number, split into the line before
    if _MODEL_AFTER.match(sentence, end):
        return True
    if scale:
        return True  # "4K", "1M" alone: the grammar's to read, or a resolution
    if _AGE_OR_PLACE.search(sentence, max(0, start - 40), start) and _SET_OFF.match(sentence, end):
        return True  # "Braun, 38, who", "corso Monforte, 15, Milan": an age, an address
    if _coded(sentence, start):
        return True  # a code, a law's paragraph, a phone number, code
    after = _WORD.match(sentence, end)
    if after is not None and after["word"][:1].isupper() and not after["word"].isupper():
        title = after["word"].lower() in STOP_WORDS or after["word"].lower() in NOT_NOUNS
        if title or _capital_before(sentence, start):
            return True  # "40 Under 40", "LC 500 Convertible": a title, a name
    if not sentence[:start].strip(" |") and _ROW_NUMBER.match(sentence):
        return True  # a table row's own number
    before = _BEFORE_WORD.search(sentence, max(0, start - 40), start)
    if before is not None:
        word = before["word"].rstrip(".").lower()
        if word in RANK_WORDS or word in VERSION_WORDS:
            return True  # "Step 2", "Table 3"
        if before["word"][:1].isupper() and word not in STOP_WORDS:
            after = _WORD.match(sentence, end)
            if after is None or not _counted(after["word"]):
                return True  # "Tier 1", "Pro 2", "Standard 2": a name, no count
    return False


def _digits(n: QuotedNumber, span: tuple[int, int]) -> int:
    """Where a figure's first digit stands ("more than 3 seats": at the 3)."""
    first = _DIGIT.search(n.raw)
    return span[0] + (first.start() if first is not None else 0)


def _coded(sentence: str, start: int) -> bool:
    """A number that is a code, a place in an order, an age, a law's paragraph or a phone
    number by the words around it, or sits in code ("error 1015 occurs", "port 8080
    users"): no figure, whichever rule read it."""
    if _phone(sentence, start) or "§" in sentence[max(0, start - 24) : start]:
        return True
    if sentence.count("`", 0, start) % 2:
        return True  # inside code
    before = _BEFORE_WORD.search(sentence, max(0, start - 40), start)
    return before is not None and before["word"].rstrip(".").lower() in _CODE_WORDS


def _phone(sentence: str, start: int) -> bool:
    """In a run of digit groups of eight digits at least: "+49 (0)40 890 85-433"."""
    for run in _PHONE_RUN.finditer(sentence, max(0, start - 16), start + 24):
        if run.start() <= start < run.end():
            return sum(c.isdigit() for c in run.group()) >= 8
    return False


def _capital_before(sentence: str, start: int) -> bool:
    before = _BEFORE_WORD.search(sentence, max(0, start - 40), start)
    return before is not None and before["word"][:1].isupper()


def _counted(word: str) -> bool:
    """A word that may be what a number counts or measures."""
    w = word.lower()
    if w in NOT_NOUNS or w in STOP_WORDS or w.endswith(("'s", "’s")):
        return False
    return plural_level(word) > 0 or unit_noun(w)


def _figure(sentence: str, m: re.Match[str]) -> QuotedNumber | None:
    """The number with the word after it as its unit, or None when no word says what
    it counts (a table's header or a label gives such a number its unit, elsewhere)."""
    scale = (m["scale"] or "").strip()
    value = value_of(m["num"], scale or None)
    if value is None:
        return None
    end = m.end()
    words: list[str] = []
    at = end
    while len(words) < MAX_UNIT_WORDS:
        w = _WORD.match(sentence, at)
        if w is None:
            break
        word = w["word"]
        low = word.lower()
        if low in NOT_NOUNS or low in STOP_WORDS or low.endswith(("'s", "’s")):
            break
        if not words and low.endswith(("ing", "ed")) and len(low) > 4:
            break  # a verb or a gerund: "4K streaming", "20 booked"
        if words and word[:1].isupper() and not words[-1][:1].isupper():
            break  # a name after the counted noun
        if words and low.endswith("ly"):
            break
        words.append(word)
        at = w.end()
        if plural_level(word) > 1 and not word.isupper():
            break  # the plural heads the phrase: "60 waypoints"
    if not words:
        return None  # nothing says what it counts: a table's header or a label may
    unit = words[-1].lower()
    if len(words) == 1 and (time := _TIMES.get(unit)) is not None:
        raw = sentence[m.start() : at]  # "2 s", "30 mins": a time, its unit as written
        return QuotedNumber(NumberKind.DURATION, value, raw, sentence, None, time, rule=OPEN)
    head = words[-1]
    if value != 1 and head.islower() and not plural_level(head) and not unit_noun(head):
        return None  # more than one is written as a plural: "the 3 sun" counts no suns
    if len(words) > 1 and words[-1].endswith(("ed", "ing")):
        unit = words[-2].lower()  # "5 seats included"
    qualifier = None
    rate = _PER.match(sentence, at if words else end)
    if rate is not None and rate["per"].lower() in PER_WORDS:
        qualifier = per_qualifier(rate["per"])
    kind = NumberKind.COUNT if value.is_integer() else NumberKind.NUMBER
    subject = subject_of(sentence, m.start(), at, kind, unit)
    raw = sentence[m.start() : at]  # the number and what it counts, as a count's
    return QuotedNumber(
        kind, value, raw, sentence, None, unit, None, qualifier, subject=subject, rule=OPEN
    )
