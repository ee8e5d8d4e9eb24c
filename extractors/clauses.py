"""The clause around a status predicate, as a careful reader takes it in: the auxiliaries
before the predicate (tense, aspect, negation, modality), its subject, the words after it,
and whether the sentence is a question, a condition, an example or a timeline entry.

Every word list here is closed-class English (auxiliaries, conjunctions, determiners,
time words), not the status vocabulary, which is data (extractors/data/statuses.yaml).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A word of a clause, with "n't" and "'re" / "'s" / "'ll" split off as English writes them.
WORD = re.compile(r"[a-z0-9]+(?=n't)|n't|'(?:s|re|ll|ve|d|m)\b|[a-z0-9]+(?:[-.][a-z0-9]+)*")
# Where a clause ends: punctuation, a dash between words, or a conjunction that starts one.
CLAUSE_BREAK = re.compile(
    r"[,;:()\[\]{}|=•·–—!?]|\s-\s|(?<![\w-])(?:but|while|whereas|although|though|because|"
    r"and|or|so|however|which means|as well as)(?![\w-])"
)

PRESENT = frozenset({"is", "are", "am", "'s", "'re", "'m", "remain", "remains", "stay", "stays"})
PAST = frozenset({"was", "were", "remained", "stayed"})
BE = frozenset({"is", "are", "am", "'s", "'re", "was", "were", "be", "been", "being"})
CONTINUE = frozenset({"continue", "continues", "continued", "keep", "keeps", "kept"})
PERFECT = frozenset({"has", "have", "'ve"})
PLUPERFECT = frozenset({"had", "'d"})
FUTURE = frozenset({"will", "'ll", "shall", "wo"})
MODAL = frozenset({"would", "could", "might", "may", "should", "must", "ought", "need"})
ABILITY = frozenset({"can", "cannot", "ca"})
NEGATION = frozenset({"not", "n't", "never", "cannot", "nor"})
# A verb that, before "accepting" or "offering", says it no longer happens.
STOPPING = frozenset(
    f"{v}{e}"
    for v, ends in (
        ("stop", ("", "s", "ped", "ping")),
        ("cease", ("", "s", "d")),
        ("ceas", ("ing",)),
        ("quit", ("", "s", "ting")),
        ("halt", ("", "s", "ed", "ing")),
        ("suspend", ("", "s", "ed", "ing")),
        ("pause", ("", "s", "d")),
        ("paus", ("ing",)),
        ("end", ("", "s", "ed")),
        ("discontinue", ("", "s", "d")),
    )
    for e in ends
)
TEMPORARY_STOP = frozenset(w for w in STOPPING if w.startswith(("halt", "suspend", "paus")))
# A verb before "to" that makes what follows announced, not done: "is set to close".
ANNOUNCING = frozenset(
    {
        "going",
        "set",
        "due",
        "scheduled",
        "expected",
        "planned",
        "plans",
        "plan",
        "planning",
        "about",
        "slated",
        "poised",
        "decided",
        "announced",
        "intends",
        "aims",
        "is",
        "are",
        "was",
        "were",
    }
)
# Words of the chain only before "to": "is set to close", "is unable to accept".
BEFORE_TO = (ANNOUNCING - {"is", "are", "was", "were"}) | {"unable", "able"}
STARTING = frozenset({"began", "begun", "started", "start", "starts", "begin", "begins"})
HABITUAL = frozenset(
    {"usually", "typically", "generally", "normally", "often", "sometimes", "always"}
    | {"rarely", "frequently", "automatically", "regularly", "traditionally", "eventually"}
)
ADVERBS = frozenset(
    {"now", "currently", "already", "still", "officially", "temporarily", "permanently"}
    | {"fully", "all", "also", "just", "indeed", "quietly", "finally", "recently", "yet"}
    | {"soon", "again", "effectively", "formally", "completely", "totally", "entirely"}
    | {"unfortunately", "sadly", "regrettably", "quickly", "suddenly", "immediately"}
    | {"then", "actually", "really", "definitely", "longer", "more", "being", "been", "be"}
    | {"get", "gets", "got", "gotten", "getting", "very", "even", "only", "almost"}
    | {"nearly", "virtually", "practically", "essentially", "basically", "reportedly"}
    | {"apparently", "likely", "probably", "certainly", "hereby", "kindly", "please"}
    | {"presently", "today", "henceforth", "largely", "mostly", "partly", "once", "again"}
    | {"happily", "excitedly", "proudly", "both", "to", "no", "simply", "abruptly", "silently"}
    | {"gradually", "slowly", "rapidly", "soon", "newly", "finally", "ultimately", "thus"}
)
CHAIN = (PRESENT | PAST | CONTINUE | PERFECT | PLUPERFECT | FUTURE | MODAL | ABILITY | NEGATION) | (
    STOPPING | HABITUAL | ADVERBS | ANNOUNCING | STARTING | {"unable", "able"}
)
COPULAS = frozenset({"is", "are", "'re", "was", "were"})
DETERMINERS = frozenset(
    {"the", "a", "an", "our", "your", "its", "their", "this", "that", "these", "those", "my"}
    | {"his", "her", "any", "some", "every", "each", "all"}
)
PREPOSITIONS = frozenset(
    {"for", "of", "in", "on", "at", "from", "with", "to", "by", "under", "during", "through"}
    | {"after", "before", "since", "about", "across", "like", "within", "without", "amid"}
)
PRONOUNS = frozenset({"it", "they", "we", "this", "these", "those", "that", "which", "who"})
PEOPLE = frozenset({"i", "you", "he", "she", "we", "they", "one", "anyone", "someone"})
RELATIVES = frozenset({"that", "which", "who", "whose"})
# Words that open a condition or hypothesis: what follows them in their clause is not
# stated as so ("if the credits run out", "once slots are exhausted").
CONDITIONS = frozenset(
    {"if", "unless", "once", "whenever", "when", "whether", "provided", "providing"}
    | {"assuming", "suppose", "supposing", "until", "till", "before", "lest", "should"}
)
CONDITION_PHRASES = re.compile(r"\b(?:in case|in the event|as soon as|as long as|if and when)\b")
EXAMPLE = re.compile(
    r"\b(?:(?:for example|for instance|such as|sample|means|refers to|is defined as|"
    r"stands for)\b|e\.g\.|examples?:)|\{\{|"
    r"[\[<](?:your|the|program|programme|name|date|company|organi[sz]ation|insert|x)\b[^\]>]*[\]>]|"
    r"\bx{3,}\b|_{3,}|\bdd/mm\b|\bmm/dd\b"
)
QUOTES = "\"'“”‘’«»`"

# Time words: a date or time in a clause makes a bare present a schedule ("applications
# close on 1 March"), and a bare past a past event ("closed in May").
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_DAY = r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?"
DATE = re.compile(
    rf"(?<![\w-])(?:{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?"
    rf"{_MONTH}|(?:in|on|by|from|since|until|till|through|of)\s+{_MONTH}|{_DAY}|"
    r"\d{1,2}[/.]\d{1,2}(?:[/.]\d{2,4})?|\d{4}-\d{2}-\d{2}|(?:19|20)\d\d|"
    r"\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.|utc|gmt|[ecmp][sd]t|cet|bst)|"
    r"tomorrow|yesterday|tonight|midnight|noon|(?:next|last|this|coming|previous)\s+"
    r"(?:week|month|year|spring|summer|fall|autumn|winter|round|cycle|term|semester|"
    r"quarter|season|weekend)|ago|earlier this|later this|in (?:the )?(?:spring|summer|fall|"
    r"autumn|winter))(?![\w-])"
)
NOW = re.compile(r"\b(?:for now|effective immediately|as of today|starting today|from today)\b")
TODAY = re.compile(r"(?<![\w-])(?:today|tonight|now|right now|as of today)(?![\w-])")
TIMELINE = re.compile(
    rf"^\W*(?:{_MONTH}\s+\d{{1,2}}|\d{{1,2}}\s+{_MONTH}|\d{{4}}-\d\d-\d\d|"
    rf"{_DAY}|q[1-4]\s+\d{{4}})[^:\n]{{0,20}}[:–—-]"
)
# Hours and days: "closed on Sundays", "open from 9am", "open 24/7": a place's opening
# hours, not a programme's status.
# "closed annually for two weeks", "open every summer": a habit, not a status.
HABIT_AFTER = re.compile(
    r"^\W*(?:annually|yearly|weekly|daily|seasonally|each (?:year|summer|winter|week)|"
    r"every (?:year|summer|winter|spring|fall|autumn|week|month|day))\b"
)
HOURS = re.compile(
    rf"^\W*(?:(?:on|every|over|during)\s+(?:the\s+)?(?:{_DAY}|weekends?|(?:public |bank )?"
    r"holidays?|christmas|new year|easter)|(?:at|from|until|till|between|after|before)\s+"
    r"\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)|(?:for|over)\s+(?:the\s+)?(?:holidays?|"
    r"christmas|lunch|the day|the night|the weekend)|24/7|24 hours|daily|late|weekdays|"
    r"around the clock|seven days|7 days)"
)


@dataclass(frozen=True, slots=True)
class Word:
    text: str  # lower case, quotes folded
    start: int
    end: int


def words(text: str, start: int, end: int) -> list[Word]:
    return [Word(m.group(), m.start(), m.end()) for m in WORD.finditer(text, start, end)]


@dataclass(frozen=True, slots=True)
class Clause:
    """What a reader needs of the clause around a predicate."""

    chain: tuple[str, ...]  # auxiliaries, adverbs and negations before it, in order
    chain_start: int  # where they start (the predicate's start when there are none)
    subject: tuple[Word, ...]  # the words before them in the clause (at most six)
    after: str  # the rest of the clause after the predicate
    after_at: int  # where it starts in the text
    sentence: str
    question: bool
    conditional: bool
    example: bool
    quoted: bool
    timeline: bool
    opens_sentence: bool  # the clause is the sentence's first
    determined: bool  # a determiner stands right before it: "its cancelled IPO"
    context: tuple[Word, ...]  # the words before "and", "or" or a table's "|" before it
    ends_with: str  # the character that ends the clause ("" at the end of the text)

    @property
    def tense(self) -> str:
        """present, perfect, past, future, modal, generic, ability or bare."""
        chain = self.chain
        if MODAL.intersection(chain):
            return "modal"
        future = FUTURE.intersection(chain) or any(
            w == "to" and i and chain[i - 1] in ANNOUNCING for i, w in enumerate(chain)
        )
        if future:
            if CONTINUE.intersection(chain) or (
                FUTURE.intersection(chain) | {"going"} & set(chain)
                and ("now" in chain or NOW.search(self.sentence))
                and not self.dated
            ):
                return "present"  # "we'll now be accepting", "for now, we're going to pause"
            if {"remain", "stay"} & set(chain):
                return "present"  # "will remain open until Friday"
            return "future"
        if any(
            w == "to" and not (i and chain[i - 1] in ("able", "unable"))
            for i, w in enumerate(chain)
        ):
            return "generic"
        if ABILITY.intersection(chain):
            return "ability"
        if HABITUAL.intersection(chain):
            return "generic"
        if PLUPERFECT.intersection(chain):
            return "past"
        if PERFECT.intersection(chain):
            return "perfect"
        if PAST.intersection(chain) or {"continued", "began", "started"} & set(chain):
            return "past"
        if PRESENT.intersection(chain) or CONTINUE.intersection(chain):
            return "present"
        if "now" in chain or "currently" in chain:
            return "present"
        return "bare"

    @property
    def negated(self) -> bool:
        chain = self.chain
        negations = NEGATION | STOPPING | {"no", "unable"}
        return bool(negations.intersection(chain))

    @property
    def passive(self) -> bool:
        """A form of "be" right before the predicate: "was cancelled", "has been retired"."""
        return bool(self.chain) and self.chain[-1] in BE

    @property
    def obliged(self) -> bool:
        """ "you have to", "you need to", "you must": what is asked of a reader now."""
        chain = self.chain
        return "must" in chain or any(
            w == "to" and i and chain[i - 1] in ("have", "has", "need", "needs")
            for i, w in enumerate(chain)
        )

    @property
    def dated(self) -> bool:
        """A date or time stands in the clause after the predicate, or just before it."""
        return DATE.search(self.after) is not None

    @property
    def today(self) -> bool:
        return TODAY.search(self.after) is not None


def clause_at(
    low: str, sentence: tuple[int, int], start: int, head: int, end: int, literal: frozenset[str]
) -> Clause:
    """The clause of the predicate at low[start:end] (its head word at `head`), in the
    sentence at low[sentence[0]:sentence[1]]."""
    s0, s1 = sentence
    breaks = [m.end() for m in CLAUSE_BREAK.finditer(low, s0, start)]
    c0 = breaks[-1] if breaks else s0
    later = CLAUSE_BREAK.search(low, end, s1)
    c1 = later.start() if later else s1
    before = words(low, c0, head)
    chain: list[str] = []
    chain_start = start
    i = len(before) - 1
    while i >= 0:
        w = before[i]
        if w.start >= start and (w.text in literal or w.text in DETERMINERS):
            i -= 1  # the predicate's own words ("no longer" of "no longer available")
            continue
        if w.text not in CHAIN:
            break
        if w.text in BEFORE_TO and (not chain or chain[-1] != "to"):
            break  # "plans" is a noun unless "plans to"
        chain.append(w.text)
        chain_start = min(chain_start, w.start)
        i -= 1
    subject = tuple(before[max(0, i - 5) : i + 1])
    # a determiner or a possessive right before it: "its cancelled IPO", "an applicant's
    # withdrawn form"
    determined = bool(before) and i == len(before) - 1 and before[i].text in DETERMINERS | {"'s"}
    if not subject and breaks and _coordinated(low, c0):
        # "closed for 2026 and open for 2027": the verb before "and" serves both
        previous = [w.text for w in words(low, breaks[-2] if len(breaks) > 1 else s0, c0)]
        inherited = [w for w in previous[-7:] if w in CHAIN]
        if (COPULAS | MODAL | PERFECT | FUTURE).intersection(inherited):
            chain.extend(reversed(inherited))
    text = low[s0:s1]
    prefix = low[c0:head]
    conditional = _conditional(low, s0, prefix, breaks)
    quoted = (start > 0 and low[start - 1] in QUOTES) or (end < len(low) and low[end] in QUOTES)
    return Clause(
        chain=tuple(reversed(chain)),
        chain_start=chain_start,
        subject=subject,
        after=low[end:c1],
        after_at=end,
        sentence=text,
        question=text.rstrip(" \"'”’)]*").endswith("?"),
        conditional=conditional,
        example=EXAMPLE.search(low, s0, end) is not None,
        quoted=quoted,
        timeline=TIMELINE.search(text) is not None,
        opens_sentence=c0 == s0,
        determined=determined,
        context=_context(low, s0, c0, breaks),
        ends_with=low[c1] if c1 < len(low) else "",
    )


def _context(low: str, s0: int, c0: int, breaks: list[int]) -> tuple[Word, ...]:
    """What a clause after "and", "or" or a table cell's "|" shares with the one before
    ("packages and lockdown have ended", "Loan Scheme | Ended on 31 March")."""
    if not breaks or not (_coordinated(low, c0) or low[c0 - 1] == "|"):
        return ()
    return tuple(words(low, s0, c0)[-8:])


def _coordinated(low: str, c0: int) -> bool:
    """The clause starts after "and", "but" or "or"."""
    return low[max(0, c0 - 4) : c0].lstrip().endswith(("and", "but", "or"))


def _conditional(low: str, s0: int, prefix: str, breaks: list[int]) -> bool:
    """A condition opens the clause before the predicate, or the sentence opens with one
    and the predicate is in the clause that follows it ("If the round fills up, you can
    join the waiting list")."""
    said = words(prefix, 0, len(prefix))
    if CONDITION_PHRASES.search(prefix) or any(
        w.text in CONDITIONS and not (w.text == "if" and i and said[i - 1].text == "as")
        for i, w in enumerate(said)
    ):
        return True
    if not breaks:
        return False
    opening = words(low, s0, breaks[0])
    if not opening:
        return False
    if opening[0].text not in CONDITIONS and not CONDITION_PHRASES.match(low, opening[0].start):
        return False
    return len(breaks) <= 1  # the condition's own clause, or the one right after it


def hours(after: str) -> bool:
    """Opening hours or a habit: "closed on Sundays", "open 24/7", "closed annually"."""
    return HOURS.match(after) is not None or HABIT_AFTER.match(after) is not None
