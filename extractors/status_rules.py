"""The rules of the status reader: what a page states as the current status of a
programme or offer, read from the lexicon's predicates in their clauses. What they read is
one of the things the learned reader weighs (extractors/statuses.py); without a model
they are the reader.

Each predicate of the lexicon (extractors/data/statuses.yaml) found on a page is read in
its clause (extractors/clauses.py): a question, a condition, an example, a quoted word or
a timeline entry states nothing; negation turns an open call closed and takes the others
back; the tense says whether it holds now (a past round does not, a programme's end
does); the subject says whether it is about a programme at all ("comments are closed",
"open source").
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace
from itertools import pairwise

from extractors import clauses
from extractors.clauses import Clause
from extractors.sentences import sentence_spans
from extractors.status_lexicon import Lexicon, Predicate, head_key, lexicon
from extractors.values import Status, StatusMention

# A past tense still states these now ("the programme ended", "funding ran out").
LASTING = frozenset({Status.ENDED, Status.DISCONTINUED, Status.EXHAUSTED})
# Statuses whose words have other senses: their subject must be a programme or a name
# (every status; kept as a set so that a status of one sense only could leave it).
STRICT = frozenset(Status)
# Words after an adjective or participle that leave it a predicate ("closed for 2026",
# "open until May"); any other word is the noun it qualifies ("open source", "closed beta").
FOLLOWERS = (
    frozenset({"for", "to", "until", "till", "through", "thru", "from", "on", "in", "at", "by"})
    | {"after", "before", "since", "as", "with", "without", "due", "because", "pending"}
    | {"following", "between", "during", "within", "across", "into", "over", "via", "per"}
    | {"and", "or", "but", "so", "while", "whereas", "although", "though", "if", "unless"}
    | {"when", "once", "than", "now", "again", "today", "tonight", "yesterday", "tomorrow"}
    | {"soon", "already", "yet", "still", "early", "late", "temporarily", "permanently"}
    | {"indefinitely", "immediately", "officially", "effective", "forever", "quietly", "here"}
    | {"there", "below", "above", "online", "too", "also", "only", "just", "then", "last"}
    | {"this", "next", "earlier", "later", "recently", "globally", "worldwide", "the", "a"}
    | {"an", "our", "its", "their", "all", "any", "it", "them", "is", "are", "was", "were"}
    | {"will", "has", "have", "had", "can", "could", "may", "might", "should", "would"}
    | {"do", "does", "did", "not", "n't", "within", "around", "about", "up", "out"}
    | {"without", "altogether", "completely", "entirely", "fully", "everywhere", "again"}
)
NOW_WORDS = re.compile(r"^\W*(?:now|today|here|online|below|early|via|at|through|on our)\b")
LIMITED = re.compile(
    r"\blimited (?:basis|release|preview|rollout|roll-out|number|beta|access)|\bselect few\b|"
    r"\bselect group\b|\bsmall number of\b"
)
TEMPORARY = re.compile(
    r"\b(?:temporarily|until further notice|for the time being|for now|"
    r"under review|for maintenance|while we)\b"
)
FOR_NOW = re.compile(
    r"^\W*for (?:now|(?:this|the|the current) (?:year|round|cycle|season|term|semester|"
    r"intake|call)|(?:19|20)\d\d)\b"
)
PARTICLE = re.compile(r"^\s*(?:up|out|off|down|about|away|back)\b")
BUSINESS = re.compile(r"^\s*for (?:business|the (?:day|season|night))\b")
USING = re.compile(r"^\s*(?:this|these|that|those|it|them|the|a|an|your|our|their)\b")
NOT_HEADLINE = clauses.PEOPLE | {"have", "has", "had", "keep", "keeps", "kept", "leave", "left"}
NOT_HEADLINE |= {"get", "got", "make", "made", "find", "found", "see", "say", "says", "said"}
_PLAIN = (("’", "'"), ("‘", "'"), ("\u00a0", " "), ("“", '"'), ("”", '"'))
BANNER_WORDS = 4  # a heading's length: "Registration is now closed"
WINDOW = 90  # characters before a head word searched for its predicate's first words
REACH = 600  # characters either side of a head word that its clause is looked for in
MAX_HEADS = 3000  # status words read on one page: the rest of it is read in part


@dataclass(frozen=True, slots=True)
class StatusReading:
    """What a page states, and whether it was read only in part (past MAX_HEADS)."""

    mentions: tuple[StatusMention, ...]
    partly: bool = False


def read_rules(text: str, spans: list[tuple[int, int]] | None = None) -> StatusReading:
    """What the rules read of the text: every status it states as current, each with the
    words that state it (as written) and its sentence, one per status and sentence, in
    reading order; and whether the page was read in part (its work is bounded by what it
    holds: at most MAX_HEADS status words, each read within REACH characters). `spans`:
    the text's sentences, when the caller has them."""
    lex = lexicon()
    low = _lower(text)
    starts: list[int] = [s for s, _ in spans] if spans is not None else []
    found: list[StatusMention] = []
    seen: set[tuple[Status, int]] = set()
    partly = False
    for n, m in enumerate(lex.heads.finditer(low)):
        if n == MAX_HEADS:  # a page of status words by the thousand is read in part
            partly = True
            break
        if spans is None:
            spans = sentence_spans(text)
            starts = [s for s, _ in spans]
        at = bisect.bisect_right(starts, m.start()) - 1
        if at < 0:
            continue
        # the words about the head, however long its "sentence" (a wall of text)
        around = (max(spans[at][0], m.start() - REACH), min(spans[at][1], m.end() + REACH))
        match = _predicate(lex, low, m, around)
        if match is None:
            continue
        predicate, start, end = match
        clause = clauses.clause_at(low, around, start, m.start(), end, predicate.literal)
        status = read(predicate, clause, low[m.start() : m.end()], text)
        if status is None or (status, at) in seen:
            continue
        seen.add((status, at))
        begin = min(clause.chain_start, start)
        while begin > spans[at][0] and low[begin - 1].isalnum():
            begin -= 1  # the whole word of a contraction: "We're", not "'re"
        phrase = text[begin:end]
        found.append(StatusMention(status, phrase, text[spans[at][0] : spans[at][1]]))
    return StatusReading(tuple(_after_banner(found)), partly)


def _after_banner(found: list[StatusMention]) -> list[StatusMention]:
    """A banner that closes ("Applications closed", "Sold out") stated above text that
    still invites wins over it: the invitations below about the same thing go."""
    if not found or found[0].status is Status.OPEN:
        return found
    banner = found[0]
    if len(banner.sentence.split()) > BANNER_WORDS:
        return found
    about = subject_words(banner.sentence)
    return [
        m
        for m in found
        if m.status is not Status.OPEN or (about and not about & subject_words(m.sentence))
    ]


def _lower(text: str) -> str:
    """Lower case, quotes folded, each character where it was (offsets hold)."""
    for a, b in _PLAIN:
        text = text.replace(a, b)
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def _predicate(
    lex: Lexicon, low: str, m: re.Match[str], sentence: tuple[int, int]
) -> tuple[Predicate, int, int] | None:
    """The longest predicate of the sentence whose head word or phrase is `m`:
    (predicate, start, end)."""
    at = m.start()
    word = clauses.WORD.match(low, at)
    keys = {head_key(m.group()), head_key(word.group()) if word else ""}
    best: tuple[Predicate, int, int] | None = None
    for p in (p for key in keys for p in lex.by_head.get(key, ())):
        rest = p.rest.match(low, at, sentence[1])
        if rest is None:
            continue
        start = at
        if p.before is not None:
            window = low[max(sentence[0], at - WINDOW) : at]
            before = p.before.search(window)
            if before is None:
                continue
            start = at - len(window) + before.start()
        if best is None or rest.end() - start > best[2] - best[1]:
            best = (p, start, rest.end())
    return best


def read(p: Predicate, c: Clause, head: str, text: str) -> Status | None:
    """The status a predicate states now in its clause, or None when it states none."""
    if c.question or c.quoted or c.example or c.conditional or c.timeline:
        return None
    tense = c.tense
    if p.kind in ("state", "verb") and (
        _attributive(p, c, tense, head, text)
        or (p.kind == "state" and _preposition(c))
        or PARTICLE.match(c.after)  # "ended up", "opens up about": another verb
    ):
        return None
    if _about_a_kind(c):
        return None  # "marks programmes whose window has ended": how statuses work
    if p.kind == "provide":
        return _provided(c, tense, head)
    if c.negated:
        return _negated(p, c, tense, head)
    if p.kind == "noun":
        if tense in ("modal", "future", "generic") or _attributive(p, c, tense, head, text):
            return None
        if head in lexicon().needs_programme and not about_programme(c, text, p.status, head):
            return None  # "marks the end of the season"
        return p.status
    if p.kind == "invite":
        return _invited(p, c, tense, head)
    if p.kind == "intake":
        return _taking(p, c, tense, head)
    if not about_programme(c, text, p.status, head):
        return None
    if p.status in (Status.OPEN, Status.CLOSED) and clauses.hours(c.after):
        return None
    if p.words in lexicon().needs_copula and tense == "bare":
        return None  # "over and over", "credits available for purchase": no statement
    if "**" in p.words and tense == "bare":
        return None  # "all ** claimed" reads a passive: "all slots have been claimed"
    if p.status is Status.DISCONTINUED and head.startswith("shut") and _names(c, "intake"):
        p = replace(p, status=Status.CLOSED)  # "submissions shut": a window, not the programme
    status = _in_time(p, c, tense, head)
    if status is None and p.status is Status.CLOSED and tense in ("bare", "past") and c.dated:
        if _later_round(c):
            return Status.CLOSED  # "closed on 12 May; another call follows next year"
    if status is Status.ENDED and FOR_NOW.match(c.after):
        return Status.CLOSED  # "submissions have ended for this year": this round's call
    if status is Status.OPEN:
        if LIMITED.search(c.sentence) or not _open_to(c) or BUSINESS.match(c.after):
            return None
        if _names(c, "waitlist"):
            return Status.WAITLIST
    if status is Status.CLOSED or status is Status.DISCONTINUED:
        return _temporary(status, c)
    return status


def _on_programme(c: Clause) -> bool:
    """ "pulls the plug on its free plan": the programme after "on"."""
    if not re.match(r"\W*on\b", c.after):
        return False
    return _names_any(
        clauses.words(c.after, 0, min(len(c.after), 60))[:5], lexicon().words["programme"]
    )


def _about_a_kind(c: Clause) -> bool:
    """A relative clause of a kind of programme, not of one: "a badge marks programmes
    whose window has ended" says how a status is shown, not that one holds."""
    words = [w.text for w in c.subject]
    if "whose" not in words:
        return False
    at = words.index("whose")
    if at == 0:
        return False
    kind = words[at - 1]
    before = words[at - 2] if at > 1 else ""
    return kind.endswith("s") and before not in clauses.DETERMINERS and before != "'s"


def _later_round(c: Clause) -> bool:
    """The sentence names a round after the one that closed."""
    text = c.sentence
    return any(w in text for w in lexicon().words["later"])


def _provided(c: Clause, tense: str, head: str) -> Status | None:
    """An offer stated as plain fact: a programme, or a named provider, gives something
    now ("the scheme lends each student a laptop", "Nimbus offers a free tier")."""
    form = _form(head)
    present = (tense == "bare" and form == "s") or (tense == "present" and form == "ing")
    if not present or c.negated:  # (questions and conditions never reach here: `read`)
        return None
    subject = [w for w in c.subject if w.text not in clauses.DETERMINERS]
    if not subject:
        return None
    programme = lexicon().words["programme"]
    if _names_any(subject, programme):
        return Status.OPEN
    obj = _object(c)
    return Status.OPEN if obj and _names_any(obj, programme) and len(subject) <= 3 else None


def _in_time(p: Predicate, c: Clause, tense: str, head: str) -> Status | None:
    """What a state or verb states by its tense: now, a past that lasts, an announced
    retirement; a schedule, a past round or a hypothesis state nothing."""
    status = p.status
    form = _form(head)
    if p.kind == "verb" and form == "base" and c.passive and not head.startswith("open"):
        return None  # "is close to the border": an adjective of another sense
    if head.startswith("reopen"):
        # "will reopen in spring", "reopens in March": closed until then
        if tense == "future" or (tense == "bare" and form in ("base", "s") and c.dated):
            return Status.CLOSED
    if tense == "perfect":
        return status
    if tense == "present":
        if (
            form == "ing"
            and p.kind == "verb"
            and (c.dated or status not in (Status.PAUSED, Status.DISCONTINUED))
        ):
            return None  # "is closing on Friday", "is coming to an end": what will be
        return status
    if tense == "past":
        return status if status in LASTING else None
    if tense == "future":
        return status if status is Status.DISCONTINUED else None
    if tense != "bare":
        return None
    if p.kind == "state" or form == "ed":
        if status in LASTING:
            return status
        if status is Status.OPEN and p.kind == "verb":
            return None  # "applications opened": a past event
        return None if c.dated else status  # a heading: "Applications closed"
    if form in ("base", "s"):
        if c.today:
            return status  # "ends today"
        if c.dated:
            return None  # "applications close on 1 March"
        if status is Status.OPEN:
            return status if _headline(c) else None
        if status in (Status.DISCONTINUED, Status.ENDED) and form == "s" and c.subject:
            if not c.after.strip() or _object(c) or _on_programme(c):
                return status  # a headline: "Google Shuts Services", "Scheme comes to an end"
    return None


def _negated(p: Predicate, c: Clause, tense: str, head: str) -> Status | None:
    """What a negated predicate states: "no longer accepting" and "not open" are closed
    (paused when it is temporary); "not closed" and "no longer on hold" state nothing."""
    if p.kind == "noun" or tense in ("modal", "future", "generic") or "yet" in c.chain:
        return None
    if c.after.lstrip().startswith("yet"):
        return None
    if p.negated is None or p.words in lexicon().unnegated:
        return None
    if p.kind == "invite" and not (
        ("no" in c.chain and "longer" in c.chain) or "unable" in c.chain or "currently" in c.chain
    ):
        return None  # "you cannot apply with a company": who may, not whether one can
    if p.kind == "verb" and head.startswith("open") and not c.passive:
        return None  # "we haven't opened submissions since May": no statement of now
    if p.kind in ("state", "verb") and not about_programme(c, "", p.status, lenient=True):
        return None
    if clauses.TEMPORARY_STOP.intersection(c.chain):
        return Status.PAUSED
    return _temporary(p.negated, c)


def _invited(p: Predicate, c: Clause, tense: str, head: str) -> Status | None:
    """An invitation states its status ("apply today", "you can join the waitlist"); a
    report that people joined a waitlist states it too."""
    form = _form(head)
    if p.status is Status.OPEN and USING.match(c.after):
        return None  # "apply this to your business": to use, not to ask
    waitlist = p.status is Status.WAITLIST
    if c.obliged and waitlist:
        return p.status
    if tense == "ability":
        return p.status  # "you can now register", "students can apply for credits"
    if tense == "bare" and form == "base" and not c.subject:
        exclaimed = not c.after.strip() and c.ends_with == "!"
        if waitlist or NOW_WORDS.match(c.after) or exclaimed:
            return p.status  # the imperative: "apply today", "Register!"
        return None
    if waitlist and tense in ("past", "perfect", "present", "bare") and form != "base":
        return p.status
    if waitlist and tense in ("present", "perfect"):
        return p.status
    return None


def _taking(p: Predicate, c: Clause, tense: str, head: str) -> Status | None:
    """A programme taking things in: "we are accepting proposals", "now accepting"."""
    form = _form(head)
    if tense == "present" or (tense == "perfect" and form == "ing"):
        return _limited(p.status, c)
    if tense == "bare":
        if form == "ing" or (form in ("base", "s") and c.subject and not c.dated):
            return _limited(p.status, c)
    return None


def _limited(status: Status, c: Clause) -> Status | None:
    return None if status is Status.OPEN and LIMITED.search(c.sentence) else status


def _temporary(status: Status, c: Clause) -> Status:
    """Closed or shut down for a while, with a return meant: paused."""
    if TEMPORARY.search(c.sentence) or (
        status is Status.DISCONTINUED and re.match(r"^\W*until\b", c.after)
    ):
        return Status.PAUSED
    return status


def _form(head: str) -> str:
    word = head.split()[0].split("-")[0]
    if word.endswith("ing"):
        return "ing"
    if word.endswith("ed") or word in lexicon().past_forms:
        return "ed"
    if word.endswith("s") and not word.endswith("ss"):
        return "s"
    return "base"


def _headline(c: Clause) -> bool:
    """A heading or a headline's present ("Applications open", "Call for papers open"),
    not a clause with its own verb ("you have applications open")."""
    return bool(c.subject) and not any(w.text in NOT_HEADLINE for w in c.subject)


def _open_to(c: Clause) -> bool:
    """ "open to" everyone, to new applications or to receive them is open; "open to
    non-UK applicants" says who may apply, not that it is open now."""
    after = c.after.lstrip()
    if not after.startswith("to "):
        return True
    rest = after[3:]
    lex = lexicon()
    if _names(c, "intake") or _names(c, "call"):
        return True  # "applications are open to faculty": open, and to whom
    return (
        "now" in c.chain
        or any(rest.startswith(w) for w in lex.words["everyone"])
        or rest.startswith(("new ", "receive", "submissions", "applications"))
    )


def _attributive(p: Predicate, c: Clause, tense: str, head: str, text: str) -> bool:
    """An adjective or participle before a noun names a kind ("open source", "a sold-out
    programme", "the closed beta"); it states nothing."""
    form = _form(head)
    if c.chain == ("'s",) and form == "ed" and _noun_after(c):
        return True  # "an applicant's withdrawn form": a possessive, not "is"
    if tense == "perfect" or (p.kind == "verb" and form not in ("ed", "base")):
        return False
    if p.kind == "verb" and form == "ed" and tense != "bare":
        return False  # a passive: "was to be discontinued alongside ..."
    m = clauses.WORD.search(c.after)
    if m is None or c.after[: m.start()].strip():
        return False
    word = m.group()
    if p.tail:
        return False  # "available for all eligible businesses": the phrase ends in its words
    if c.determined and tense == "bare":
        return True  # "its cancelled IPO", "the discontinued model"
    if word in FOLLOWERS or word[0].isdigit() or clauses.DATE.match(c.after, m.start()):
        return False
    if p.status is Status.DISCONTINUED and text[c.after_at + m.start()].isupper():
        return False  # a verb's object: "Google discontinued Reader"
    return True


def _noun_after(c: Clause) -> bool:
    m = clauses.WORD.search(c.after)
    if m is None or c.after[: m.start()].strip():
        return False
    word = m.group()
    return word not in FOLLOWERS and not word[0].isdigit() and word not in clauses.PREPOSITIONS


def _preposition(c: Clause) -> bool:
    """ "over the past week", "over 6,000 schools": a preposition, not a state."""
    m = clauses.WORD.search(c.after)
    return (
        m is not None
        and not c.after[: m.start()].strip()
        and (m.group() in clauses.DETERMINERS or m.group()[0].isdigit())
    )


def _names(c: Clause, name: str) -> bool:
    items = lexicon().words[name]
    ws = [w.text for w in c.subject]
    return any(w in items for w in ws) or any(f"{a} {b}" in items for a, b in pairwise(ws))


def about_programme(
    c: Clause, text: str, status: Status, head: str = "", lenient: bool = False
) -> bool:
    """Whether the predicate is said of a programme, an offer or a name, rather than in
    another sense ("comments are closed", "the meeting was cancelled"): a verb with an
    object is judged by its object ("shut down the service"), any other by its subject."""
    lex = lexicon()
    other, programme = lex.words["other"], lex.words["programme"]
    obj = _object(c)
    if obj:
        if obj[0].text in other:
            return False
        named = _names_any(obj, programme)
        return named or (text != "" and text[obj[0].start].isupper() and head not in
                         lex.needs_programme)  # fmt: skip
    whole = [w for w in c.subject if w.text not in clauses.DETERMINERS]
    subject = whole
    if subject and subject[-1].text in clauses.RELATIVES and len(subject) > 1:
        subject = subject[:-1]  # "terms that are open": the terms
    cut = next((i for i, w in enumerate(subject) if w.text in clauses.PREPOSITIONS), None)
    if cut:
        subject = subject[:cut]  # "funds for this year": the funds
    if subject and (subject[-1].text in other or subject[-1].text in clauses.PEOPLE - {"we"}):
        return False  # "comments are closed", "I finished it"
    reach = 5 if re.match(r"\W*on\b", c.after) else 3  # "pulls the plug on its free plan"
    after = [w for w in clauses.words(c.after, 0, min(len(c.after), 60))][:reach]
    # a clause with no subject of its own shares the one before "and" or a table's "|"
    context = list(c.context) if not whole else []
    if _names_any(whole + after + context, programme):
        return True
    if head in lex.needs_programme:
        return False
    if not subject or lenient:
        return True
    last = subject[-1]
    if last.text in clauses.PRONOUNS:
        return True
    if text and text[last.start].isupper() and not (last is c.subject[0] and c.opens_sentence):
        return True  # a name: "Google Code-in", "TAS"
    return status not in STRICT


def _object(c: Clause) -> list[clauses.Word]:
    """The object of an active verb ("cancelled its task order": task order), offsets as
    in the page; none after a passive, an adjective or an intransitive verb."""
    if c.passive:
        return []
    after = clauses.words(c.after, 0, min(len(c.after), 60))
    if not after or c.after[: after[0].start].strip():
        return []
    if after[0].text in FOLLOWERS and after[0].text not in clauses.DETERMINERS:
        return []
    found = [w for w in after if w.text not in clauses.DETERMINERS][:4]
    return [clauses.Word(w.text, w.start + c.after_at, w.end + c.after_at) for w in found]


def _names_any(ws: list[clauses.Word], items: frozenset[str]) -> bool:
    texts = [w.text for w in ws]
    return any(w in items or _singular(w) in items for w in texts) or any(
        f"{a} {b}" in items for a, b in pairwise(texts)
    )


# Words that say nothing of which programme a sentence is about.
_FILLER = frozenset(
    {"the", "a", "an", "and", "or", "of", "for", "to", "in", "on", "at", "by", "with", "our"}
    | {"your", "its", "their", "this", "that", "these", "those", "is", "are", "was", "were"}
    | {"be", "been", "has", "have", "had", "will", "can", "we", "you", "it", "they", "now"}
    | {"all", "new", "from", "not", "no", "any", "more", "per", "up", "out", "us", "still"}
)


def subject_words(text: str) -> frozenset[str]:
    """The words that tell which programme a text is about: its words less the filler
    and the status words themselves, plurals as their singular."""
    heads = lexicon().by_head
    return frozenset(
        _singular(w)
        for w in re.findall(r"[a-z0-9][a-z0-9'-]*", _lower(text))
        if w not in _FILLER and w not in heads and len(w) > 1
    )


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def stated_about(mentions: list[StatusMention], subject: str) -> StatusMention | None:
    """The status a page states about a subject (a record's title and a claim's quote):
    the mentions whose sentence shares the most of its words; a banner stated above
    older wording that still says `open` wins over it; None when the page states none
    about it, or states different ones it cannot choose between."""
    if not mentions:
        return None
    wanted = subject_words(subject)
    scored = [(len(wanted & subject_words(m.sentence)), i, m) for i, m in enumerate(mentions)]
    best = max(score for score, _, _ in scored)
    top = [m for score, _, m in scored if score == best]
    if best == 0 and len({m.status for m in mentions}) > 1:
        return None  # several statuses, none about this subject
    first = top[0]
    if all(m.status is first.status for m in top):
        return first
    if first.status is not Status.OPEN and all(
        m.status is Status.OPEN for m in top if m is not first
    ):
        return first  # a banner above text that still invites
    return None
