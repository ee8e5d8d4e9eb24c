"""The words the figures grammar knows (extractors/numbers.py): months, currencies,
scales, units, written-out numbers, qualifiers and the words that are never a count's
unit. Data, kept apart from the patterns that are built from it."""

from __future__ import annotations

MONTHS = {
    name: i + 1
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for name in names
}
# Signs written before the amount, by their lowered spelling ("R$ 300", "Rs 18 lakh").
CURRENCY_SYMBOLS = {
    "$": "USD",
    "us$": "USD",
    "€": "EUR",
    "£": "GBP",
    "¥": "JPY",
    "₹": "INR",
    "rs": "INR",
    "rs.": "INR",
    "₨": "INR",
    "r$": "BRL",
    "a$": "AUD",
    "au$": "AUD",
    "c$": "CAD",
    "ca$": "CAD",
    "s$": "SGD",
    "hk$": "HKD",
    "nz$": "NZD",
    "₩": "KRW",
    "₽": "RUB",
    "₺": "TRY",
    "₱": "PHP",
    "₦": "NGN",
    "₪": "ILS",
    "₫": "VND",
}
# ISO codes written as words; left out are those that are also common words once lowered
# ("try", "rub", "php"): the sign spells those.
CURRENCY_CODES = (
    "USD", "EUR", "GBP", "CHF", "JPY", "CAD", "AUD", "INR", "CNY", "SGD", "HKD", "NZD",
    "BRL", "KRW", "ZAR", "SEK", "NOK", "DKK", "MXN", "PLN", "AED", "SAR", "RMB",
)  # fmt: skip
CURRENCY_WORDS = {
    "dollars": "USD",
    "us dollars": "USD",
    "euros": "EUR",
    "euro": "EUR",
    "pounds": "GBP",
    "rupees": "INR",
    "yuan": "CNY",
    "rmb": "CNY",
    "yen": "JPY",
    "francs": "CHF",
}


def currency_code(written: str | None) -> str | None:
    """The ISO code of a currency as written before or after an amount ("US$", "Rs.",
    "euros", "chf"), or None."""
    if not written:
        return None
    w = written.strip().lower()
    return (
        CURRENCY_SYMBOLS.get(w)
        or CURRENCY_WORDS.get(w)
        or (w.upper() if w.upper() in CURRENCY_CODES else None)
    )


SCALES = {
    "k": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "mn": 1e6,
    "million": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "billion": 1e9,
    "tn": 1e12,
    "trillion": 1e12,
    "lakh": 1e5,
    "lakhs": 1e5,
    "lac": 1e5,
    "crore": 1e7,
    "crores": 1e7,
    "cr": 1e7,
}
DURATION_UNITS = {
    "millisecond": "millisecond",
    "milliseconds": "millisecond",
    "msec": "millisecond",
    "ms": "millisecond",
    "second": "second",
    "seconds": "second",
    "sec": "second",
    "secs": "second",
    "minute": "minute",
    "minutes": "minute",
    "min": "minute",
    "mins": "minute",
    "hour": "hour",
    "hours": "hour",
    "hr": "hour",
    "hrs": "hour",
    "h": "hour",
    "day": "day",
    "days": "day",
    "week": "week",
    "weeks": "week",
    "month": "month",
    "months": "month",
    "year": "year",
    "years": "year",
    "yr": "year",
    "yrs": "year",
    "wk": "week",
    "wks": "week",
    "mo": "month",
    "mos": "month",
}
# What a rate is per, written short: "/min", "per hr", "/mo" read as "per minute"; and the
# periods of a school's or a business's year, by which programmes give their rates ("10
# credits per semester", "2 reports a quarter"), no units of a duration of their own.
PERIODS = ("semester", "trimester", "term", "quarter", "fortnight")
PER_WORDS = {**DURATION_UNITS, "s": "second", "d": "day", **{p: p for p in PERIODS}}
# Words between a number and its time unit that say which days or hours are counted
# ("5 business days", "3 calendar months"): the figure is still a duration.
SPAN_KINDS = ("business", "calendar", "working", "consecutive", "full", "clock")
# Data sizes in any case, from the SI and binary prefixes: "5 GB", "12 gb", "2 GiB",
# "1 Gbit", "40 Gigabytes"; the French octet ("5,5 Go") only with its capital, as
# "go" and "to" are words.
DATA_PREFIXES = ("k", "m", "g", "t", "p", "e")
DATA_PREFIX_WORDS = ("kilo", "mega", "giga", "tera", "peta", "exa")
SIZE_UNITS = (
    *(f"{p}{i}b" for p in DATA_PREFIXES for i in ("", "i")),
    *(f"{p}bit" for p in DATA_PREFIXES),
    *(f"{w}{u}" for w in DATA_PREFIX_WORDS for u in ("bytes", "byte", "bits", "bit")),
    "bytes",
)
OCTET_UNITS = ("Ko", "Mo", "Go", "To", "Po")
# What a size is multiplied by to make a compound unit: "GB-month", "GB-seconds",
# "GB memory hours", "TB/s".
SIZE_TIMES = ("seconds", "second", "secs", "sec", "hours", "hour", "hrs", "hr", "months", "month")
SIZE_RESOURCES = ("memory", "ram", "storage", "disk")
# Things a count counts on the pages of quotas and plans, that a page writes in the
# singular after any number ("2 shared vCPU", "10 GPU"), as it writes a unit.
COUNT_NOUNS = frozenset(
    """vcpu ocpu cpu gpu tpu core node instance vm seat user request call token
    invocation execution query operation message credit mau dau""".split()
)
# Measures of some stuff: "1 cup rice" counts cups, not rice.
PARTITIVE_NOUNS = frozenset(
    """cup slice scoop piece pinch bottle glass bag box can jar pack packet bunch handful
    tablespoon teaspoon tbsp tsp clove sheet stick serving portion pair set dozen
    loaf bowl plate spoonful drop dash""".split()
)
# Rates written as acronyms, as rate-limit tables head their columns ("RPS Limit",
# "TPM"): what they count, and per what.
RATE_ACRONYMS = {
    "rps": ("requests", "second"),
    "rpm": ("requests", "minute"),
    "rph": ("requests", "hour"),
    "tph": ("tokens", "hour"),
    "qph": ("queries", "hour"),
    "rpd": ("requests", "day"),
    "qps": ("queries", "second"),
    "qpm": ("queries", "minute"),
    "qpd": ("queries", "day"),
    "tps": ("tokens", "second"),
    "tpm": ("tokens", "minute"),
    "tpd": ("tokens", "day"),
}
# How often, as an adjective inside a counted phrase ("50,000 free monthly active users"):
# unlike other words in -ly, these do not end the phrase.
FREQUENCY_WORDS = frozenset(
    "hourly daily weekly biweekly monthly quarterly yearly annual nightly".split()
)
# Plurals that head a table's column or a line's label without being what its numbers
# count ("| Prices | 10 | 20 |", "Limits: 5 and 10").
NOT_COUNTED = frozenset(
    """prices costs fees charges rates totals amounts values limits quotas notes details
    dates times numbers figures results units levels tiers plans options yes""".split()
)
# Units of measure (a "number", not a count of things): speed, length, area, mass, energy,
# power, rates. Case is ignored; "m", "g" and "W" alone are left out (million, grams or a
# name: too often something else).
MEASURE_UNITS = (
    "mph kph km/h kmh km kilometers kilometres kilometer kilometre miles mile meters metres "
    "meter metre cm centimeters centimetres mm millimeters millimetres inches inch feet foot "
    "ft yards yard kg kilograms kilogram grams gram lbs lb tons tonnes teraflops teraflop "
    "tflops petaflops fps hz khz mhz ghz mah wh kwh mwh gwh kw mw gw watts watt volts "
    "calories kcal acres acre hectares liters litres liter litre gallons degrees horsepower "
    "hp lb-ft nm oz tbsp tsp ml "
    "kbps mbps gbps megapixels "
    # rates of requests, tokens, queries and operations, as rate limits are written
    "rpm rps rpd tpm tpd qps iops"
).split()
WORD_NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "fifty": 50,
    "hundred": 100,
}
QUALIFIERS = (
    "up to",
    "at least",
    "at most",
    "more than",
    "less than",
    "fewer than",
    "over",
    "under",
    "about",
    "around",
    "approximately",
    "roughly",
    "nearly",
    "almost",
    "within",
)
# Words after a number that do not make it a count of something.
NOT_NOUNS = frozenset(
    "a an the of to and or in on at for by with from as is are was were be been it its this "
    "that these those per than vs via if so but not no into onto out up "
    "has have had is are was were gets get got does do did can will would may might must "
    "should could says said makes made more less only isn aren wasn weren doesn don didn "
    "based plus under over after since while which who each all also just still then there "
    "here where when what de la el del da do des der die das und et".split()
)
# Written-out numbers that also work as words ("one of", "one has") are not figures.
AMBIGUOUS_WORDS = frozenset({"one"})
# The word before a year-less date that points forward ("until 15 January") or back.
FUTURE_WORDS = frozenset({"until", "till", "by", "before", "from", "starting", "through", "due"})
PAST_WORDS = frozenset({"since", "last", "was", "were", "ago"})
# Families of products, models and versions: a number right after one of them, written
# with its capital, is part of the name ("Windows 11", "RTX 4090", "Python 3.11"), not a
# figure. Brand spellings (iPhone, GeForce, macOS) are told by their inner capitals.
NAME_WORDS = frozenset(
    """windows android ios ubuntu debian fedora centos rhel python java jdk node php ruby
    rust swift kotlin scala perl cuda chrome chromium firefox safari office galaxy pixel
    xbox playstation rtx gtx rx radeon quadro tesla xeon ryzen epyc threadripper
    snapdragon gpt claude gemini llama mistral qwen postgres postgresql mysql redis
    kubernetes django rails react vue angular openssl tls usb bluetooth hdmi ddr
    series model gen""".split()
)
# A number after one of these, whatever its case, names a kind or a place in an order
# ("version 3.11", "type 2 diabetes", "stage 4 cancer"), not a count.
VERSION_WORDS = frozenset({"version", "type", "stage", "phase", "level", "category", "group"})
# A small number after one of these is a place in an order ("Tier 1 support", "Step 2",
# "Cohort 3 students"), not a count; a larger one may be a figure ("Free Tier 500 GPU
# hours").
RANK_WORDS = frozenset(
    """tier step round part chapter section article cohort batch season wave lesson
    figure appendix clause item page paragraph""".split()
)
# Plurals without an s: the head of "60 staff", "28 people".
PLURAL_NOUNS = frozenset(
    """people children men women staff police personnel cattle feet teeth mice geese
    data media crew alumni fish sheep deer aircraft offspring""".split()
)
# Verbs that tell a figure's change ("rose by 37 percent", "slashed from $47 billion"):
# the subject of one is what the figure measures, and "from X to Y" after one is two
# figures, not a range.
CHANGE_VERBS = frozenset(
    """rose rise rises risen rising fell fall falls fallen falling grew grow grows grown
    growing increased increase increases increasing decreased decrease decreases decreasing
    dropped drop drops dropping declined decline declines declining jumped jump jumps
    climbed climb climbs surged surge surges soared soar soars slid slide slides plunged
    plunge plunges slashed slash slashes cut cuts lowered lower lowers raised raise raises
    reduced reduce reduces reducing boosted boost boosts improved improve improves doubled
    double doubles halved halve halves shrank shrunk shrink shrinks went moved changed
    changes""".split()
)
