"""Units a table's header gives its columns: pricing and quota pages write "| Plan | Quota
in GB | Requests per minute |" once, then rows of bare numbers ("| Free | 1 | 60 |").
A row's bare number takes the unit its column's header names: a data size, a time
unit, or the plural noun it counts (with the rate's per-what)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from extractors.lexicon import (
    DATA_PREFIX_WORDS,
    DATA_PREFIXES,
    NOT_NOUNS,
    PER_WORDS,
    SIZE_TIMES,
)
from extractors.values import NumberKind

_SIZE = (
    rf"(?:[{''.join(DATA_PREFIXES)}]i?b|(?:{'|'.join(DATA_PREFIX_WORDS)})bytes?)"
    rf"(?:[-\s](?:{'|'.join(SIZE_TIMES)})|/s)?"
)
_SIZE_IN_HEADER = re.compile(rf"(?<![\w-])(?<!per )(?P<unit>{_SIZE})(?![\w-])", re.I)
_TIME_IN_HEADER = re.compile(
    r"\((?P<paren>ms|s|secs?|seconds|mins?|minutes|hrs?|hours|days|months)\)"
    r"|\bin (?P<in>milliseconds|seconds|minutes|hours|days|months)\b",
    re.I,
)
# "Requests per minute", "API calls/day", "Max seats", "Invocations"
_COUNTED_IN_HEADER = re.compile(
    r"(?:(?:max(?:imum)?|monthly|daily|included|free)\s+)?"
    r"(?P<noun>[A-Za-z][A-Za-z-]*(?:\s[A-Za-z][A-Za-z-]*){0,2}?)"
    r"\s*(?:(?:/|\s+per\s+)(?P<per>[A-Za-z]+))?",
    re.I,
)
_BARE = re.compile(r"\s*(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s*")
_RULE = re.compile(r"[\s|:-]+")  # "|---|---|": the line under a header


@dataclass(frozen=True, slots=True)
class ColumnUnit:
    """What a column's bare numbers are: their kind, unit and per-what."""

    kind: NumberKind
    unit: str
    qualifier: str | None = None


def cells(line: str) -> list[tuple[int, int]]:
    """The spans of a table line's cells ("| a | b |" or "a | b |"), [] when it is none."""
    if line.count("|") < 2:
        return []
    bars = [m.start() for m in re.finditer(r"\|", line)]
    edges = ([-1] if line[: bars[0]].strip() else []) + bars
    if line[bars[-1] + 1 :].strip():
        edges.append(len(line))
    return [(a + 1, b) for a, b in pairwise(edges)]


def is_rule(line: str) -> bool:
    return bool(_RULE.fullmatch(line)) and "-" in line


def header_units(line: str) -> list[ColumnUnit | None] | None:
    """The unit each column of a header line names (None for a column that names none);
    None when the line is no table header (no cells, or figures in it)."""
    spans = cells(line)
    if len(spans) < 2 or re.search(r"\d", line):
        return None
    return [_column_unit(line[a:b].strip()) for a, b in spans]


def _column_unit(cell: str) -> ColumnUnit | None:
    if m := _SIZE_IN_HEADER.search(cell):
        return ColumnUnit(NumberKind.NUMBER, m["unit"])
    if (m := _TIME_IN_HEADER.search(cell)) and (
        unit := PER_WORDS.get((m["paren"] or m["in"]).lower())
    ):
        return ColumnUnit(NumberKind.DURATION, unit)
    m = _COUNTED_IN_HEADER.fullmatch(cell)
    if m is None:
        return None
    words = m["noun"].split()
    head = words[-1]
    if (
        head.lower() in NOT_NOUNS
        or not head.lower().endswith("s")
        or head.lower().endswith(("ss", "us", "is"))
    ):
        return None
    per = m["per"]
    qualifier = f"per {PER_WORDS.get(per.lower(), per.lower())}" if per else None
    return ColumnUnit(NumberKind.COUNT, " ".join(words).lower(), qualifier)


def bare_numbers(line: str, units: list[ColumnUnit | None]) -> list[tuple[int, int, ColumnUnit]]:
    """The cells of a row that hold a bare number under a column with a unit: the
    number's span and its column's unit."""
    spans = cells(line)
    if len(spans) != len(units):
        return []
    out = []
    for (a, b), unit in zip(spans, units, strict=True):
        m = _BARE.fullmatch(line, a, b)
        if unit is not None and m is not None:
            out.append((m.start("num"), m.end("num"), unit))
    return out
