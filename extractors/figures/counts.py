"""What a count counts: the noun phrase after its number, read with word lists rather
than a tagger. Its unit is the head of that phrase past its modifiers ("263 daily news
organizations" -> organizations), the whole phrase when it is a name's words ("64
NVIDIA H100 GPUs", "5 Cloud Run services"), and in the singular the last word of the
run ("1 custom domain" -> domain, "2 shared vCPU" -> vcpu)."""

from __future__ import annotations

import re
from dataclasses import replace

from extractors.lexicon import (
    COUNT_NOUNS,
    FREQUENCY_WORDS,
    NOT_NOUNS,
    PARTITIVE_NOUNS,
    PER_WORDS,
    PLURAL_NOUNS,
)
from extractors.subjects import STOP_WORDS
from extractors.values import QuotedNumber

# The words that may open the phrase a count counts, and end it.
_PHRASE_WORD = re.compile(r"\s[“\"‘']?([a-zà-öø-ÿ][a-zà-öø-ÿ0-9'’-]*)", re.I)
_CLOSING = frozenset("”\"’'")
# Words between a count and what it counts: "20 more ZTF fields", "5 additional seats"
MORE = frozenset({"more"})
# "N x thing", "4x NVIDIA A100 GPUs": so many of the thing, not a multiple
_TIMES = re.compile(r"\d[kmb+]?\s?[x×]\s", re.I)
# "2 AMD based Compute VMs": "based" joins a compound unless a preposition follows it
_BASED = re.compile(r"\s+(?:on|in|at|upon|off|out|around)\b", re.I)
# A rate after the phrase: "1 million free requests per month", "2,000 CI/CD minutes/month",
# "3 private repos per account" (after "/" or "a", only a time unit)
_RATE_AFTER = re.compile(r"(?:\s*/\s*|\s+a\s+|(?P<by>\s+per\s+))(?P<per>[A-Za-z]+)\b")
# "CI/CD": two words joined by a slash, not a rate
_SLASHED = re.compile(r"/(?P<per>[A-Za-z][A-Za-z-]*)$")

# A number joined to what it counts: "1M-token", "5-person"
_JOINED_TO = re.compile(r"(?<![A-Za-z\d])\d[\d,.]*[kmbKMB]?-[A-Za-z]")
# The word after a count's first word
_NEXT_WORD = re.compile(r"\s+([A-Za-z][\w-]*)")
# A memory size in a model's name ("A100 80GB"), written glued to its unit
_NAME_SIZE = re.compile(r"\s\d{1,3}\s?[GT]B\b(?=\s[A-Za-z])")

WEAK = 1  # a plural only by its capital, as German writes nouns ("40.000 Besucher")
PLURAL = 2


def name_word(word: str) -> bool:
    """Written as a name's word: a capital, or an acronym or model with digits
    ("NVIDIA", "H100", "Ampere", "A1")."""
    return word[:1].isupper() or (any(c.isdigit() for c in word) and word[:1].isalpha())


def spelled_acronym(word: str, sentence: str, end: int) -> bool:
    """An acronym in capitals that spells a little word ("20,000 GET requests", "25 IT
    staff", "40 US states"): the word is in capitals and the word after it is not, so the
    text is not written in capitals throughout ("5 OF THE PRIZES")."""
    if len(word) < 2 or not word.isupper():
        return False
    after = _NEXT_WORD.match(sentence, end)
    return after is not None and not after.group(1).isupper()


def unit_noun(word: str) -> bool:
    """A thing a quota counts, written as its unit ("vCPU", "GPU", "request")."""
    return word.lower() in COUNT_NOUNS


def _model(word: str) -> bool:
    """A model's name: letters and digits ("H100", "T4", "A1")."""
    return word[:1].isalpha() and any(c.isdigit() for c in word)


def plural_level(word: str) -> int:
    """PLURAL for an English or Romance plural ("teams", "episodi", "vCPUs", "people"),
    WEAK for a noun that only its capital may make one ("Besucher", "Cloud"), else 0; an
    acronym in capitals is a plural only with its s ("GPUs", not "NVIDIA")."""
    w = word.lower()
    if len(word) > 2 and word[-1] == "s" and word[-2].isupper():
        return PLURAL  # an acronym's plural: "vCPUs", "VMs"
    if word.isupper() and len(word) > 1:
        return PLURAL if w in PLURAL_NOUNS or (w.endswith("s") and not w.endswith("ss")) else 0
    if w in PLURAL_NOUNS or (
        len(w) > 2 and w.endswith(("s", "i")) and not w.endswith(("ss", "us", "is"))
    ):
        return PLURAL
    return WEAK if word[:1].isupper() else 0


def partitive(word: str) -> bool:
    """A measure of some stuff ("cup", "slice", "scoop"), not the counted thing."""
    return word.lower() in PARTITIVE_NOUNS


def plural(word: str) -> bool:
    return plural_level(word) > 0


def counted(
    number: QuotedNumber, sentence: str, start: int, end: int
) -> tuple[QuotedNumber | None, int]:
    """The count with its unit the head of the phrase it counts, and where its words end;
    None when the words after the number count nothing: more than one of something is
    written as a plural, or as a unit in the singular ("2 shared vCPU"), so "4K
    streaming" or "the LC 500 grand tourer" are no counts."""
    unit = number.unit
    if unit is None:
        return number, end
    raw = sentence[start:end]
    if _JOINED_TO.search(raw):
        return number, end  # "a 2-core CPU", "a 10-person team": the joined word it counts
    times = ("x" in raw or "×" in raw) and _TIMES.search(raw) is not None
    qualifier = number.qualifier
    slashed = _SLASHED.search(raw.rstrip()) if "/" in raw else None
    if (
        slashed
        and qualifier == f"per {slashed['per'].lower()}"
        and slashed["per"].lower() not in PER_WORDS
        and _PHRASE_WORD.match(sentence, end)
    ):
        # "2,000 CI/CD minutes": a slash inside the phrase, not a rate
        unit = f"{unit}/{slashed['per'].lower()}"
        number, qualifier = replace(number, unit=unit, qualifier=None), None
    elif (qualifier or "").startswith("per "):
        return number, end
    words = raw.split()
    tokens = [w if "/" in unit else w.split("/")[0] for w in words]
    k = next((k for k in reversed(range(len(tokens))) if tokens[k].lower() == unit), -1)
    written = tokens[k]
    level = plural_level(written)
    if k not in (-1, len(tokens) - 1) or words[-1] != tokens[-1]:
        # a rate or a bound after the unit ("100 emails/day"): the phrase ends there
        keep = level > 0 or unit_noun(written) or number.value == 1
        return (number, end) if keep else (None, end)
    head, head_end, at = unit, end, end
    found = level > 0 or unit_noun(written)  # a head that counts more than one
    named = name_word(written)  # the phrase so far is a name's words
    name_from = 0 if named else None  # where the name's words before the head begin
    most = number.value_end if number.value_end is not None else number.value
    # one of something: its phrase's last word heads it, unless the first is a measure
    # ("1 cup asparagus")
    singular = most is not None and most <= 1 and not found and not partitive(written)
    phrase = [written]
    for _ in range(4):  # modifiers: at most four more words
        m = _PHRASE_WORD.match(sentence, at)
        if m is None and name_from is not None and (size := _NAME_SIZE.match(sentence, at)):
            at = size.end()  # "3 NVIDIA A100 80GB GPUs": the variant's memory, in its name
            phrase.append(size.group().strip())
            continue
        if m is None:
            break
        text = m.group(1)
        word = text.lower()
        if word in ("and", "or") and level == 0 and not singular:
            at = m.end()  # "maintenance and cleaning workers"
            phrase.append(text)
            continue
        letter = name_from is not None and len(text) == 1 and text.isupper()
        joined = word == "based" and not _BASED.match(sentence, m.end())
        # a name's own words ("5 Cloud Run services") may be words that end a phrase
        in_name = name_from is not None and text[:1].isupper() and word not in NOT_NOUNS
        if (word in NOT_NOUNS or word in STOP_WORDS) and not (letter or joined or in_name):
            break  # ("Class A operations": a letter of a name, not the article)
        if word.endswith(("'s", "’s")) or (word.endswith("ly") and word not in FREQUENCY_WORDS):
            break
        if level == PLURAL and text[:1].isupper() and not (named and name_word(text)):
            break  # a name after the counted noun
        if singular and not found and not named and text[:1].isupper() and not text.isupper():
            break  # "1 project Google gives": a name after the counted noun
        verb_like = word.endswith(("ed", "ing")) and len(word) > 4 and not joined
        if verb_like and (level == PLURAL or singular):
            break  # a verb after the counted noun ("20 teams booked", "1 seat included")
        at = m.end()
        phrase.append(text)
        word_level = plural_level(text)
        if (
            word_level == PLURAL
            or (unit_noun(text) and (level < PLURAL or named))
            or (level <= WEAK and word_level == WEAK and (level == 0 or named))
            or (singular and not found and not joined)
        ):
            head, head_end = word, at
            level = max(level, word_level)
            found = found or word_level == PLURAL or unit_noun(text)
            if name_from is not None:
                head = " ".join(phrase[name_from:]).lower()  # "nvidia h100 gpus"
            if not name_word(text) or text[-1:] == "s":
                named = False
        if not name_word(text) and not joined:
            name_from = None
        elif name_from is None and not joined:
            name_from = len(phrase) - 1
        at += sentence[at : at + 1] in _CLOSING
        if sentence[at : at + 1] not in (" ", ""):
            break  # punctuation ends the phrase
    last = head.split()[-1]
    if times and not (found or _model(last)):
        return None, end  # "2x faster": a multiple, read as one elsewhere
    if not level and not found and number.value != 1 and not times:
        return None, end
    if qualifier is None and (rate := _RATE_AFTER.match(sentence, head_end)):
        per = PER_WORDS.get(rate["per"].lower(), rate["per"].lower() if rate["by"] else None)
        if per is not None:
            qualifier, head_end = f"per {per}", rate.end()
    if head_end == end and qualifier == number.qualifier:
        return number, end
    raw = sentence[start:head_end].strip()
    return replace(number, unit=head, raw=raw, qualifier=qualifier), head_end
