"""The errors evidence-pipeline raises on purpose, every one of them.

EvidenceError                 anything the CLI turns into one line and exit 2
├── ConfigError               the user's config is wrong (file, line, fix)
├── RefreshRunning            a refresh already runs on this database
├── RuleFileError             a rule file of extractors/data/ breaks its schema (a typo)
├── OutputRefused             an output path that is not a file or folder of the user's
├── UnknownId                 an id the user named that the catalog or database lacks
│   ├── UnknownRecord
│   ├── UnknownSource
│   └── UnknownClaim
└── WarehouseError            the database cannot be used as asked
    ├── WarehouseBusy         another process holds DuckDB's write lock
    ├── WarehouseMissing      no database yet at the path
    └── QueryError            a user's query (`evidence sql`) failed

They live in the bottom layer, below every layer that raises any of them, so that
every layer can raise and catch them without importing upward. A failing *source* is not an
error: it is a fetch outcome, recorded as data. `first_line` is how every layer says an
error, its own or a library's, in one line.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class EvidenceError(Exception):
    """An expected failure: the CLI prints str(error) on one line and exits 2."""


class ConfigError(EvidenceError):
    """A mistake in settings.yaml or records/*.yaml, raised before anything is fetched."""

    def __init__(self, file: str, message: str, line: int | None = None) -> None:
        self.file = file
        self.line = line
        self.reason = message  # the words without the place, for editors and CI annotations
        where = f"{file}:{line}" if line else file
        super().__init__(f"config error: {where}: {message}")


class OutputRefused(EvidenceError):
    """An output path names a device, FIFO, socket or system file: never written."""


class UnknownId(EvidenceError):
    """An id the user named (a record, a source of a record, a claim) that is not there.

    The fields say what was asked, of what and what was there, for a caller that
    wants more than the line; the line is the same everywhere: the id, where it was
    looked for, then the near one (or the known ones when none is near).
    """

    kind = "id"

    def __init__(
        self, given: str, known: Iterable[str] = (), where: str = "", owner: str | None = None
    ) -> None:
        self.given = given
        self.known = sorted(set(known))
        self.where = where  # "the database", a config directory, a file
        self.owner = owner  # the record whose source or claim it is not
        if owner is not None:
            said = f"record {owner!r} has no {self.kind} {given!r}"
        else:
            said = f"no {self.kind} {given!r}" + (f" in {where}" if where else "")
        super().__init__(said + known_hint(given, self.known))


class UnknownRecord(UnknownId):
    kind = "record"


class UnknownSource(UnknownId):
    kind = "source"


class UnknownClaim(UnknownId):
    kind = "claim"


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """` (did you mean 'x'?)` for the nearest of `choices`, or nothing when none is near."""
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


KNOWN_SHOWN = 10  # ids an unknown-id error lists when none is near the one given


def known_hint(word: str, known: Iterable[str]) -> str:
    """The near id, else the ids there are (a few), else nothing: one policy for every
    unknown id."""
    ids = sorted(set(known))
    near = did_you_mean(word, ids)
    if near or not ids:
        return near
    more = ", ..." if len(ids) > KNOWN_SHOWN else ""
    return f"; known: {', '.join(ids[:KNOWN_SHOWN])}{more}"


class RuleFileError(EvidenceError):
    """A rule file of extractors/data/ holds a key its schema does not know, or a value of
    the wrong kind: the file and the key, in one line."""


class RefreshRunning(EvidenceError):
    """Another process holds the refresh lock of this database."""


class WarehouseError(EvidenceError):
    """The database cannot be used as asked."""


class WarehouseBusy(WarehouseError):
    """Another process holds DuckDB's write lock on the file."""


class WarehouseMissing(WarehouseError):
    """There is no database at the path yet."""


class QueryError(WarehouseError):
    """A user's query failed: DuckDB's own first line, as the user needs it."""


def first_line(error: BaseException | str) -> str:
    """The first line of an error's message, as a person needs it in one line: an
    exception that says nothing is named by its type; empty text stays empty."""
    text = str(error).strip()
    if not text:
        return type(error).__name__ if isinstance(error, BaseException) else ""
    return text.splitlines()[0]
