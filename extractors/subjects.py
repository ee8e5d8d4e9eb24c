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

from extractors.lexicon import CHANGE_VERBS, SCALES, WORD_NUMBERS
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
    when where why how whether compared according nowadays anywhere somewhere
    one two three four five six seven eight nine ten away ago back lieu short pretax
    lower higher year-to-date thousand million billion trillion last next
    start starts started begin begins began
    found live lives lived remain remains remained said says say make makes made get gets
    got go goes went come comes came take takes took see saw know knew run runs ran show
    shows use uses include includes including work works need needs want wants seem seems
    become became begin began keep kept leave left put set told tell give gave think held
    hold holds sold sell buy bought pay paid cost costs lost lose win won face faces
    applies apply expires expire renews renew resets lasts lapses lapse accrues accrue
    refreshes
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
_SPANS = frozenset("period term span window duration delay stretch sentence career course".split())
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
_WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ][A-Za-zÀ-ÖØ-öø-ÿ0-9'’-]*|\d[\w.-]*[A-Za-z][\w-]*")
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
    """The noun phrase next to the figure at sentence[start:end], or None; failing that,
    the label a line gives its figures ("- GPT-4o: $2.50 per 1M input tokens", "Free
    Credits ($5)")."""
    if kind in (NumberKind.DATE, NumberKind.DATE_RANGE):
        return None
    subject = _subject(sentence, start, end, kind, unit)
    if subject is not None and _NOT_A_NOUN.fullmatch(subject):
        subject = None  # "billed annually", "disbursed", "applicable": no noun
    if subject is None and kind is not NumberKind.DURATION:
        subject = _labelled(sentence[:start])
    if subject is None and kind is NumberKind.MONEY and _PER_SCALE.search(sentence, 0, end):
        subject = " ".join(_phrase(sentence[end:])) or None  # "$0.20 per million requests"
    return subject


# A price per so many of something, the something after it: "$0.20 per million requests"
_PER_SCALE = re.compile(
    r"(?:\bper|/)\s*(?:1\s?|one\s)?(?:million|thousand|hundred|billion|[\d,]+[kmb]?)$", re.I
)
# One word that is no noun: an adverb, a participle, an adjective, a linking word.
_NOT_A_NOUN = re.compile(
    r"[A-Za-z-]+(?:ly|ed|able|ible)|thus|hence|therefore|however|instead|each|respectively",
    re.I,
)
# A line's label before its figures: "- NVIDIA A100 (40GB): ", "Free Credits (", "Storage:"
_LABEL = re.compile(
    r"^\s*(?:[-*•·|]\s*)?(?P<label>[A-Za-z][^:;.!?()|]{0,50}?)\s*(?:\([^)]*\)\s*)?"
    r"(?::\s*|\(\s*|\|\s*)"
)
# The figures before this one in a label's list: "$2.50 per 1M input tokens, "
_FIGURE_LIST = re.compile(r"(?:[^,;:!?()]*\d[^,;:!?()]*[,;]\s*)+")
# A number in a label that is no name's ("paid over 2 yrs"): the label is a clause
_COUNT_IN_LABEL = re.compile(r"(?:^|\s)[a-z][\w-]*\s+\d")


def _labelled(before: str) -> str | None:
    """The label the sentence opens with, when the figure follows its colon (or its
    parenthesis) with no other figure between."""
    m = _LABEL.match(before)
    if m is None or len(before) - m.end() > 80:
        return None
    between = before[m.end() :]
    if re.search(r"\d", between) and not _FIGURE_LIST.fullmatch(between):
        return None  # a figure of its own sentence, not of the label's list
    if len(between) > 40 and not re.search(r"\d", between):
        return None
    if _COUNT_IN_LABEL.search(m.group("label")):
        return None
    words = _phrase_before(m.group("label"))
    return " ".join(words) if words else None


def _subject(sentence: str, start: int, end: int, kind: NumberKind, unit: str | None) -> str | None:
    """The noun phrase next to the figure at sentence[start:end], or None."""
    after = sentence[end:]
    raw = sentence[start:end]
    before = sentence[:start]
    measured = kind is NumberKind.COUNT and unit is not None and unit.lower() in _MEASURES
    if kind is NumberKind.COUNT and unit and not measured:
        # the counted phrase closes the figure ("263 daily news organizations")
        raw = _COUNT_RATE.sub("", raw)  # "100K requests a day", "60 calls/hr"
        words = _counted_words(raw)
        if words[:1] and words[0].lower() == "more" and len(words) > 1:
            words = words[1:]  # "20 more ZTF fields"
        if not words or words[0].lower() in _STOP or words[-1].lower().endswith("ed"):
            return None  # ("35,908 judged": a verb, not what was counted)
        if [w.lower() for w in words] == ["times"]:  # "18 times the number of tuft cells"
            rest = _skip_determiners(after)
            head = _first_phrase(rest)
            if len(head) == 1 and head[0].lower() in _OF_HEADS:
                head = _of_what(rest, head[0])
            return " ".join(head) or None
        if (rate := _RATE.search(raw)) is not None:  # "60 frames per second"
            np = _words_before(_AT, before)
            runs = _phrase_before(_VERBS_AT_END.sub("", np)) if np else []
            return " ".join(runs or _counted_words(raw[: rate.start()])) or None
        more = _phrase(after, first=False)
        return " ".join([*words, *more])
    if kind is NumberKind.COUNT and not measured:
        return None
    if kind is NumberKind.MONEY and (priced := _PRICED.search(before)):
        m = re.search(r"(?:\bper|\ba|/)\s*(?P<what>[A-Za-z][\w-]*)$", raw)
        if m and m.group("what").lower() not in _MEASURES_PER:
            return m.group("what")  # a price by the piece: "bid $16.50 per share"
        if m:  # a rate by time or size: what is priced is named before ("an H100 at")
            named = _VERBS_AT_END.sub("", before[: priced.start()].rstrip())
            words = _phrase_before(named)
            if words and words[-1].lower() in _MEASURES_PER:
                return None  # "Storage beyond 5 GB is billed at": a bound, not the thing
            return " ".join(words) or None
    if kind is NumberKind.MONEY and (
        (per := re.search(r"(?:\bper\s+|/)(?P<what>[A-Za-z]+)$", raw))
        and per["what"].lower() in _MEASURES_PER
        and (thing := re.match(r"\s+for\s+(?:the\s+|your\s+|its\s+)?", after))
    ):
        words = _phrase(after[thing.end() :])  # "$10/month for the Pro plan"
        if words:
            return " ".join(words)
    if _RATE.search(raw) is None:  # a rate has no subject after it ("$2.53 per share")
        said = _next_to(raw, after, before, kind, measured)
        if said is not _NOTHING:
            return said if isinstance(said, str) else None
    return _said_before(before, kind, after)


# Words that make the money after them a price ("for $13 a share", "bid $16.50 per share")
_PRICED = re.compile(
    r"\b(?:for|at|bid|bids|offered|paid|pays|priced at|sold for|sells for|buys?)\s+$", re.I
)
# "a diameter of 3,200 miles": the phrase before the "of" the figure follows
_OF_BEFORE = re.compile(
    r"([A-Za-z][A-Za-z' -]*?)\s+of\s+(?:about\s+|over\s+|up to\s+|more than\s+)?$"
)
_RATE = re.compile(r"\bper\b(?!\s+cent)", re.I)
_COUNT_RATE = re.compile(r"\s*/\s*[A-Za-z]+$|\s+(?:a|an)\s+[A-Za-z]+$")
# What a rate is per when it is a time or a size, not the thing priced ("$2.31/hour").
_MEASURES_PER = frozenset(
    """second seconds sec s minute minutes min mins hour hours hr hrs h day days week weeks
    month months mo year years yr gb mb tb kb pb gib mib tib gigabyte terabyte
    megabyte""".split()
)
_NOTHING = object()  # no rule spoke (None: a rule says there is no subject)


def _next_to(
    raw: str, after: str, before: str, kind: NumberKind, measured: bool
) -> str | object | None:
    """The subject the words right after the figure or right before it give."""
    m = re.match(r"\s+(?:worth\s+)?of\s+", after)
    if m:
        words = _phrase(_skip_determiners(after[m.end() :]))
        return " ".join(words) if words else _NOTHING
    m = _OF_BEFORE.search(before, max(0, len(before) - 120))
    if m:
        words = _phrase_before(m.group(1))
        head = words[-1].lower() if words else ""
        if head in _OPERATORS or (kind is NumberKind.DURATION and head not in _SPANS):
            return None
        if words:
            return " ".join(words)
    if kind in (NumberKind.MONEY, NumberKind.NUMBER) and (np := _words_before(_BEYOND, before)):
        words = _phrase_before(np)
        if words:
            return " ".join(words)  # "Egress beyond 1 GB", "usage above $50"
    if kind is NumberKind.MONEY:
        m = re.match(r"\s+(?:in|towards?|from(?=\s+(?:the|a|an|its|their|our|your)\s))\s+", after)
        if m and not _MONEY_VERBS.search(before) and not re.search(r"\bfor\s+$", before, re.I):
            words = _phrase(_skip_determiners(after[m.end() :]))
            if words or not re.match(r"\s+in\s+\d", after):
                return " ".join(words) if words else None  # ("in 2023": a date, go on)
    if kind is NumberKind.DURATION:
        # a length that describes what follows: "a 24-hour trip", "the 180-day cruise"
        if re.search(r"\d-[a-z]+$", raw) or re.search(r"\b(?:a|an|the)\s+$", before, re.I):
            words = _phrase(after)
            return " ".join(words) if words else None
        if re.match(r"\s+away\b", after):  # "the first votes less than 100 days away"
            return " ".join(_phrase_before(before)) or None
        return _NOTHING
    if re.match(r" [A-Za-z“\"]", after):
        words = _phrase(after)
        if words and words[-1].lower() in _PRICES:
            # what a price is for: "a $9.99 monthly rate for its Stadia Pro subscription"
            m = re.match(rf"\s+(?:\S+\s+){{{len(words)}}}(?:for|of)\s+", after)
            more = _phrase(_skip_determiners(after[m.end() :])) if m else []
            return " ".join([*words, "for", *more]) if more else " ".join(words)
        if words:
            return " ".join(words)
    np = _words_before(_AT, before)
    if np and kind is not NumberKind.PERCENT:
        words = _phrase_before(_VERBS_AT_END.sub("", np))
        if words:
            return " ".join(words)
    return _NOTHING


# a verb closing the words before: "its valuation slashed", "production operations
# ranging" (not a noun in -ing: "4k streaming")
_VERBS_AT_END = re.compile(
    r"(?:\s+(?:is|are|was|were|be|been|being|has|have|had|got|gets))*"
    r"(?:\s+\w+ed|(?<=s)\s+\w+ing|\s+(?:range|ranges|vary|varies|start|starts|stands?|stood|"
    r"sits?|sat|comes?|came|rents?|sells?|lists?|retails?|goes))+$"
)
_PRICES = frozenset("rate fee price cost charge".split())
_BEYOND = re.compile(r"\s+(?:beyond|above|exceeding)\s+(?:the\s+)?(?:first\s+)?$", re.I)
# "at speeds at up to 50 km/h", "puts the figure at about $44 million"
_AT = re.compile(r"\s+at\s+$", re.I)


# Verbs of change (the lexicon's, as "rose by") and of being or amounting to
_CHANGE_VERBS = sorted(
    (CHANGE_VERBS - {"cut", "cuts", "lower", "double", "raise", "reduce", "boost", "improve"})
    | set(
        "reached reaches reaching totalled totaled totals stood stands is was are were hit "
        "runs range be started "
        "starts cost costs amounted averaged averages topped exceeded ranged ranges sits "
        "comes came amounts "
        "sat".split()
    )
)
_LEADING = (
    r"(?:\s+(?:by|at|to|from|around|about|nearly|almost|over|under|up|just|only|roughly|"
    r"some|approximately|more|less|than|least|[“\"]?\w+ly[”\"]?))*\s*$"
)
# "Problematic cannabis use rose by 37 percent", "the value is about $44.2 million"
_AFTER_SUBJECT = re.compile(rf"\b(?:{'|'.join(_CHANGE_VERBS)})\b{_LEADING}", re.I)
# "reduce coal-fired fine dusts by 90%", "increase the average efficiency of ... from 23%"
_AFTER_OBJECT = re.compile(
    r"\b(?:(?:increas|reduc|rais|improv|doubl|halv)(?:e|es|ed|ing)|cut|cuts|cutting|"
    r"lower(?:s|ed|ing)?|boost(?:s|ed|ing)?|slash(?:es|ed|ing)?)\s+(?P<np>[^,;:()]+?)"
    r"\s+(?:by|from|to)(?:\s+(?:about|around|roughly|nearly|some|over|under))?\s*$",
    re.I,
)
# "a reduction in solar module costs from around $0.23/W", "its valuation slashed from"
_FROM = re.compile(r"\s+from\s+(?:about\s+|around\s+|roughly\s+|nearly\s+)?$", re.I)
# "Credits worth $100,000", "Each grant is worth up to $50,000"
_WORTH = re.compile(r"(?:\s+(?:is|are|was|were|be))?\s+worth\s+(?:up\s+to\s+|about\s+)?$", re.I)
_CLAUSE_MARK = re.compile(r"[,;:()\"“”]")


def _words_before(tail: re.Pattern[str], before: str) -> str | None:
    """The clause's words before the word `tail` closes `before` with ("... costs from"),
    or None."""
    m = tail.search(before, max(0, len(before) - 40))
    if m is None:
        return None
    text = before[: m.start()]
    cuts = [c.end() for c in _CLAUSE_MARK.finditer(text)]
    return text[cuts[-1] if cuts else 0 :]


_CLAUSE = re.compile(
    r"[,;:()\"“”]|\b(?:that|which|who|whom|whose|where|when|while|because|although|though|"
    r"if|and|but|as)\b",
    re.I,
)


def _said_before(before: str, kind: NumberKind, after: str = "") -> str | None:
    """The subject the sentence names before the figure: the object of a verb of change,
    the phrase a change runs from or a figure is at, or the subject of a verb of being or
    change (of lasting, for a duration)."""
    if kind is NumberKind.DURATION:
        m = _LASTED.search(before)
        return " ".join(_clause_subject(before[: m.start()])) or None if m else None
    m = _AFTER_OBJECT.search(before, max(0, len(before) - 160))
    if m:
        words = _first_phrase(m.group("np"))
        if words:
            return " ".join(words)
    np = _words_before(_FROM, before) or _words_before(_WORTH, before)
    if np:
        words = _phrase_before(_VERBS_AT_END.sub("", np))
        if words:
            return " ".join(words)
    m = _AFTER_SUBJECT.search(before, max(0, len(before) - 80))
    if m is None and kind in (NumberKind.MONEY, NumberKind.NUMBER):
        m = _GIVES.search(before, max(0, len(before) - 60))
        if m is not None and re.match(r"\s+for\s", after):
            return None  # "includes $40,500 for the fellow's salary": what for, unread
    if m:
        words = _clause_subject(before[: m.start()])
        if words:
            return " ".join(words)
    return None


# What holds a figure, when nothing closer names what it measures: "The Hobby plan
# includes 100 GB" (not who gets it: "Each team gets $20")
_GIVES = re.compile(
    r"\b(?:includes?|offers?|provides?|comes?\s+with|allows?)"
    r"(?:\s+(?:you|users|each|every|new|all|an?|accounts?|customers?|members?)){0,2}"
    r"(?:\s+(?:up\s+to|about|around|roughly|over|at\s+least))?\s*$",
    re.I,
)


# "the course of steroids continued ultimately for 12 months"
_LASTED = re.compile(
    r"\b(?:lasted|lasts|continued|continues|ran)(?:\s+\w+ly)?\s+for\s+(?:about\s+|nearly\s+)?$",
    re.I,
)
_RELATIVES = frozenset({"who", "which", "that"})
# Nouns that count what follows them: "the number of respondents ... rose by 25 percent"
_OF_HEADS = frozenset("number share proportion percentage amount count".split())


def _of_what(text: str, head: str) -> list[str]:
    """What "the number of ..." counts ([] when no "of" follows: "the number who")."""
    m = re.search(r"\b" + re.escape(head) + r"\s+of\s+(?P<rest>.*)", text, re.I)
    return _first_phrase(m.group("rest")) if m else []


def _clause_subject(clause: str) -> list[str]:
    """The phrase the clause before a verb opens with; past a relative clause with none
    ("the respondents who had ... rose": the respondents)."""
    cuts = list(_CLAUSE.finditer(clause))
    end = len(clause)
    for k in range(len(cuts) - 1, -2, -1):
        text = clause[cuts[k].end() if k >= 0 else 0 : end]
        words = _first_phrase(text)
        if len(words) == 1 and words[0].lower() in _OF_HEADS:
            words = _of_what(text, words[0])
        if words:
            return words
        if _LEADING_PREPOSITION.match(text):
            # "With the global market valuation reaching": the phrase before the verb
            return [w for w in _phrase_before(text) if w.lower() not in _DETERMINERS]
        if k < 0 or cuts[k].group().lower() not in _RELATIVES:
            return []
        end = cuts[k].start()
    return []


# Words that open a clause without naming anything: "So the fee is", "Currently, the cap"
_CONNECTIVE = re.compile(
    r"^\s*(?:(?:so|thus|hence|therefore|then|now|also|currently|today|typically|overall|"
    r"however|meanwhile|still|plus|and|but|note|again|instead|otherwise|finally)\b,?\s*)+",
    re.I,
)
_LEADING_PREPOSITION = re.compile(r"\s*(?:with|for|in|on|at|by|after|before|since)\s", re.I)


def _first_phrase(text: str) -> list[str]:
    """The noun phrase a clause opens with, its modifiers kept ("newly installed
    capacity for the first months" -> newly installed capacity); [] if it opens with
    none (a pronoun, a preposition)."""
    words: list[str] = []
    text = _CONNECTIVE.sub("", text)
    for token in _skip_determiners(" " + text.strip() + " ").split():
        word = token.strip("“”\"‘’'")
        noun = bool(words) and word.lower() in _NOUNS_TOO
        if not _WORD.fullmatch(word) or (word.lower() in _STOP and not noun):
            break
        if len(words) == _MAX_WORDS:
            break
        words.append(word)
        if token.endswith((",", ";", ":")):
            break
    while words and words[-1].lower().endswith(("ly", "ing")) and len(words[-1]) > 4:
        words.pop()  # a verb form, not the head
    return words


_NUMBER_WORDS = "|".join(sorted(WORD_NUMBERS, key=len, reverse=True))
_SCALE_WORDS = "|".join(sorted(SCALES, key=len, reverse=True))
_COUNTED = re.compile(
    rf"(?:\d[\d,.]*|\b(?:{_NUMBER_WORDS}))(?:\s?(?:{_SCALE_WORDS})\b)?\+?(?:\s?[x×](?=\s))?"
    r"\s(?P<words>.+)$",
    re.I,
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
        m = re.match(r"(\s*)([^\s—–]+[—–]?)", text[at:])  # a dash ends a word
        if m is None:
            break
        if m.group(1) == "" and (words or not first):
            break
        token = m.group(2)
        word = token.lstrip('“"‘').rstrip(".,;:!?)\"”’'—–")
        also_noun = (
            bool(words)
            and word.lower() in _NOUNS_TOO
            and not _FIGURE_NEXT.match(text, at + m.end())
        )  # "in compute costs", not "storage costs $5"
        if not _WORD.fullmatch(word) or not (
            also_noun or _nounish(word, position=len(words), first=first)
        ):
            break
        words.append(word)
        at += m.end()
        if word != token:  # punctuation ends it
            break
    return words


# what follows a verb, not a noun: a figure, or the bound before one
_FIGURE_NEXT = re.compile(
    r"\s*(?:[$€£\d]|(?:a|an|about|around|up|over|under|at|only|just|nearly|less|more)\b)",
    re.I,
)


def _nounish(word: str, position: int, first: bool) -> bool:
    lower = word.lower()
    if lower in _STOP:
        return False
    if lower.endswith("ly") and len(lower) > 4 and not (first and position == 0):
        return False  # an adverb; first, an adjective ("monthly fee")
    if lower.endswith("ed") and len(lower) > 4 and (position > 0 or not first):
        return False  # "papers attempted", "claims judged"
    return True


# Words of the stop list that are nouns too ("solar module costs", "cannabis use"): a
# noun after a word that is no pronoun.
_NOUNS_TOO = frozenset(
    "cost costs use uses work works need needs run runs show shows win wins pay lives".split()
)
_PRONOUNS = frozenset("it they we he she i you who which that this what".split())


def _phrase_before(text: str) -> list[str]:
    """The noun-phrase words at the end of `text` ("a prize pool" -> prize pool)."""
    words = text.split()
    out: list[str] = []
    for i in range(len(words) - 1, -1, -1):
        word = words[i]
        if re.search(r"['’](?!s$)", word):
            break  # "you’re", "we’ve": a pronoun and its verb
        noun = (
            not out
            and word.lower() in _NOUNS_TOO
            and i > 0
            and words[i - 1].lower() not in _PRONOUNS
        )
        model = re.fullmatch(r"\d+(?:\.\d+)?", word) and i > 0 and words[i - 1][:1].isupper()
        if model and len(out) < 3:
            out.insert(0, word)  # a model's number in its name: "RTX 4090"
            continue
        if not _WORD.fullmatch(word) or (word.lower() in _STOP and not noun) or len(out) == 3:
            break
        if word.lower().endswith(("ing", "ed")) and out:
            break
        out.insert(0, word)
    if len(out) == 1 and out[-1].lower().endswith("ing") and not out[-1].istitle():
        return []  # a verb ("after using"), not a noun in -ing ("4k streaming", "Funding")
    return out
