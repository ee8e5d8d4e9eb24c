"""The subject of a figure: the noun phrase it measures, when the sentence names it next
to the figure ("$4,000 in GPU credits" -> "GPU credits", "2,226 papers" -> "papers",
"a diameter of 3,200 miles" -> "diameter"); None rather than a guess.

Word lists, not a part-of-speech tagger: a phrase is the run of words next to the figure
up to the first word that cannot be part of a noun phrase (a determiner after its
start, a preposition, a conjunction, a verb form, an adverb) or a punctuation mark.
tests/test_provenance.py measures precision and recall on hand-labelled sentences.
"""

from __future__ import annotations

import re

from extractors.lexicon import SCALES, WORD_NUMBERS
from extractors.values import NumberKind

# Words that end (or, at its start, rule out) a noun phrase.
_STOP = frozenset(
    """
    a an the this that these those each every any some all both either neither another
    its his her their our your my whose which who whom what it they we you he she them us
    in on at for from to by with of per over under into onto across about than as after
    before since during within between through among against toward towards via up down
    off out around near beyond plus minus like unlike despite until till upon amid
    and or but nor so yet if then because while though although whereas
    is are was were be been being am has have had having will would can could may might
    must shall should do does did done not no nor never only just also even still already
    more less most least very too quite nearly almost roughly approximately around some
    here there now today tomorrow yesterday ago later earlier each apiece alone total
    one two three four five six seven eight nine ten away ago back lieu short pretax
    lower higher year-to-date thousand million billion trillion
    found live lives lived remain remains remained said says say make makes made get gets
    got go goes went come comes came take takes took see saw know knew run runs ran show
    shows use uses include includes including work works need needs want wants seem seems
    become became begin began keep kept leave left put set told tell give gave think held
    hold holds sold sell buy bought pay paid cost costs lost lose win won face faces
    monday tuesday wednesday thursday friday saturday sunday january february march april
    may june july august september october november december north south east west
    northwest northeast southwest southeast
    """.split()
)
STOP_WORDS = _STOP
# Nouns that measure rather than name ("a maximum of 10 years", "a total of $2.6 billion"):
# the phrase before "of" is a qualifier then, not a subject.
_OPERATORS = frozenset(
    "maximum minimum total average sum high low peak excess upwards range lieu".split()
)
# Durations measure a span; a noun before "of" names it only if it names a span.
_SPANS = frozenset("period term span window duration delay stretch sentence career".split())
# Units of measure a count may close with ("215 miles", "30.8 GW"): they are the unit,
# the subject is named after them, if at all ("30.8 GW of solar").
_MEASURES = frozenset(
    """
    mile miles km kilometer kilometers kilometre kilometres meter meters metre metres m cm mm
    ton tons tonne tonnes kg kilogram kilograms g gram grams lb lbs pound pounds ounce ounces
    oz ml l liter liters litre litres gallon gallons gw mw kw kwh mwh gwh twh gb mb tb kb
    pb ghz mhz hz euro euros dollar dollars yen yuan rupees feet foot ft inch inches
    degree degrees acre acres hectare hectares mph metric square cubic percent
    """.split()
)
_DETERMINERS = frozenset(
    "a an the this that these those its his her their our your my each every".split()
)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'’-]*|\d[\w.-]*[A-Za-z][\w-]*")
_MAX_WORDS = 4
# what money is spent or raised on is where it goes, not what it is
_MONEY_VERBS = re.compile(
    r"\b(?:invest\w*|spend\w*|spent|pa(?:y|id|ying|ys)|rais\w*|cost\w*|charg\w*|"
    r"fin\w*|earn\w*|los[te]\w*|sav\w*|bought|buy\w*|sold|sell\w*|valu\w*)\s+$",
    re.I,
)


def subject_of(
    sentence: str, start: int, end: int, kind: NumberKind, unit: str | None
) -> str | None:
    """The noun phrase next to the figure at sentence[start:end], or None."""
    if kind in (NumberKind.DATE, NumberKind.DATE_RANGE):
        return None
    after = sentence[end:]
    raw = sentence[start:end]
    if re.search(r"\bper\b", raw, re.I):
        return None  # "$2.53 per diluted share", "162.1 frames per second": a rate
    measured = kind is NumberKind.COUNT and unit is not None and unit.lower() in _MEASURES
    if kind is NumberKind.COUNT and unit and not measured:
        # the counted phrase closes the figure ("263 daily news organizations")
        words = _counted_words(raw)
        head = words[0] if words else None
        if head is None or head.lower() in _STOP or head.lower().endswith("ed"):
            return None  # ("35,908 judged": a verb, not what was counted)
        rest = _phrase(after, first=False)
        return " ".join([*words, *rest])
    m = re.match(r"\s+(?:worth\s+)?of\s+", after)
    if m:
        words = _phrase(_skip_determiners(after[m.end() :]))
        return " ".join(words) if words else None
    before = sentence[:start]
    m = re.search(r"([A-Za-z][A-Za-z' -]*?)\s+of\s+(?:about\s+|over\s+|up to\s+)?$", before)
    if m:
        words = _phrase_before(m.group(1))
        head = words[-1].lower() if words else ""
        if head in _OPERATORS or (kind is NumberKind.DURATION and head not in _SPANS):
            return None
        if words:
            return " ".join(words)
    if kind is NumberKind.MONEY:
        m = re.match(r"\s+in\s+", after)
        if m and not _MONEY_VERBS.search(before) and not re.search(r"\bfor\s+$", before, re.I):
            words = _phrase(_skip_determiners(after[m.end() :]))
            return " ".join(words) if words else None
    if (kind in (NumberKind.MONEY, NumberKind.PERCENT, NumberKind.NUMBER) or measured) and re.match(
        r" [A-Za-z]", after
    ):
        words = _phrase(after)
        return " ".join(words) if words else None
    return None


_NUMBER_WORDS = "|".join(sorted(WORD_NUMBERS, key=len, reverse=True))
_SCALE_WORDS = "|".join(sorted(SCALES, key=len, reverse=True))
_COUNTED = re.compile(
    rf"(?:\d[\d,.]*|\b(?:{_NUMBER_WORDS}))(?:\s?(?:{_SCALE_WORDS})\b)?\+?\s(?P<words>.+)$", re.I
)


def _counted_words(raw: str) -> list[str]:
    """The counted phrase as written in the figure ("2,226 Papers" -> Papers, "40 remote
    teams" -> remote teams)."""
    m = _COUNTED.search(raw)
    return _WORD.findall(m.group("words")) if m else []


def _skip_determiners(text: str) -> str:
    """`text` past leading determiners, possessives and figures ("the region's", "the
    2,226")."""
    while True:
        m = re.match(r"\s*(?:[A-Za-z]+(?:'s|’s)|[\d.,]+|[A-Za-z]+)\s+", text)
        if m is None:
            return text
        word = m.group(0).strip()
        if word.lower() in _DETERMINERS or word[0].isdigit() or word.endswith(("'s", "’s")):
            text = text[m.end() :]
            continue
        return text


def _phrase(text: str, first: bool = True) -> list[str]:
    """The noun-phrase words at the start of `text` (`first`: the phrase starts here)."""
    words: list[str] = []
    at = 0
    while len(words) < _MAX_WORDS:
        m = re.match(r"(\s*)([^\s]+)", text[at:])
        if m is None:
            break
        if m.group(1) == "" and (words or not first):
            break
        token = m.group(2)
        word = token.rstrip(".,;:!?)\"”’'")
        if not _WORD.fullmatch(word) or not _nounish(word, position=len(words), first=first):
            break
        words.append(word)
        at += m.end()
        if word != token:  # punctuation ends it
            break
    return words


def _nounish(word: str, position: int, first: bool) -> bool:
    lower = word.lower()
    if lower in _STOP:
        return False
    if lower.endswith("ly") and len(lower) > 4 and not (first and position == 0):
        return False  # an adverb; first, an adjective ("monthly fee")
    if lower.endswith("ed") and len(lower) > 4 and (position > 0 or not first):
        return False  # "papers attempted", "claims judged"
    return True


def _phrase_before(text: str) -> list[str]:
    """The noun-phrase words at the end of `text` ("a prize pool" -> prize pool)."""
    words = text.split()
    out: list[str] = []
    for word in reversed(words):
        if not _WORD.fullmatch(word) or word.lower() in _STOP or len(out) == 3:
            break
        if word.lower().endswith(("ing", "ed")) and out:
            break
        out.insert(0, word)
    if out and out[-1].lower().endswith(("ing",)):
        return []
    return out
