"""The catalog's models: settings.yaml and records/*.yaml as pydantic validates them.

pydantic is used here only, at the config boundary; everything past it reads the frozen
models or the `Record` and `Catalog` values made from them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator

from evidence_base.errors import UnknownRecord, UnknownSource
from evidence_base.meta import DEFAULT_USER_AGENT
from evidence_base.words import Render, Role
from extractors.conditions import Amount, Condition, Expect
from extractors.values import Status

SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")  # whole ids only: fullmatch, never `$`
_DURATION = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*")
MAX_DURATION = timedelta(days=36_525)  # a century: longer is a typo, and overflows dates
MAX_QUOTE_CHARS = 1000  # a quote is the words of one passage; matching cost grows with it
# Control characters (C0, DEL, C1): a URL holding one is cut or reread by every parser.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_duration(value: object) -> timedelta:
    """'15d' -> 15 days; units s, m, h, d, w."""
    if isinstance(value, timedelta):
        return value
    m = _DURATION.fullmatch(str(value)) if isinstance(value, str | int | float) else None
    if m is None or isinstance(value, bool):
        raise ValueError(
            f"bad duration {value!r}: write a number and a unit s, m, h, d or w, e.g. 15d"
        )
    seconds = float(m[1]) * _UNIT_SECONDS[m[2]]
    if seconds > MAX_DURATION.total_seconds():
        raise ValueError(f"duration {value!r} is longer than a century: write at most 36525d")
    return timedelta(seconds=seconds)


Duration = Annotated[timedelta, BeforeValidator(parse_duration)]


def _check_slug(value: str) -> str:
    if not SLUG.fullmatch(value):
        raise ValueError(
            f"bad id {value!r}: use lowercase letters, digits and '-', e.g. {slugify(value)!r}"
        )
    return value


Slug = Annotated[str, BeforeValidator(lambda v: _check_slug(str(v)))]


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:80] or "source"


def source_slug(url: str) -> str:
    """The default id of a source: a slug of its URL's host and path."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    return slugify(f"{host.removeprefix('www.')} {parts.path}")


def url_problem(url: str) -> str | None:
    """What is wrong with a URL to fetch, every part of it checked (scheme, host, port),
    in words a person can act on; None when it can be fetched."""
    if _CONTROL.search(url):
        return (
            "it holds a control character (a line break or tab?): write the URL on one "
            "line, percent-encoding what it needs"
        )
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as e:  # a port out of 0-65535, or not a number; a bad IPv6 host
        return f"{str(e).lower()} (a port is a number from 1 to 65535)"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "only http:// and https:// URLs with a host are fetched"
    if port == 0:
        return "port 0 is no port: a port is a number from 1 to 65535"
    if any(c.isspace() for c in parts.netloc):
        return "its host holds a space"
    return None


def check_url(url: str) -> str:
    if url != url.strip():
        raise ValueError(
            f"bad url {url!r}: white space at its start or end (a page's address has none): "
            "remove it"
        )
    problem = url_problem(url)
    if problem is not None:
        raise ValueError(f"bad url {url!r}: {problem}")
    return url


ENDPOINT_SCHEMES = ("ws", "wss", "cdp+http", "cdp+https", "cdp+ws", "cdp+wss")


def check_endpoint(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ENDPOINT_SCHEMES or not parts.hostname:
        raise ValueError(
            f"bad browser_endpoint {url!r}: ws:// or wss:// (a Playwright server) or "
            "cdp+http://, cdp+ws:// (a Chrome DevTools endpoint), with a host"
        )
    return url


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FetchSettings(_Strict):
    timeout_s: float = Field(20.0, gt=0)
    concurrency: int = Field(16, ge=1, le=1000)
    per_host: int = Field(2, ge=1, le=100)
    retries: int = Field(2, ge=0, le=10)
    max_bytes: int = Field(5_000_000, ge=1024)
    user_agent: str = DEFAULT_USER_AGENT
    obey_robots: bool = True
    archive_fallback: str | None = None
    render: Render = Render.HTTP  # how a source without `render` is loaded
    browser_path: str | None = None  # a Chromium to drive; None: Playwright's, else on PATH
    browser_concurrency: int = Field(2, ge=1, le=32)  # pages rendered at once, per engine
    # Browser engines elsewhere (a Playwright server, a DevTools endpoint); None: launch one.
    browser_endpoint: tuple[str, ...] | None = None
    # How long every fetch of a source may fail for good (404/410, soft_404, dns_error),
    # three attempts at least, before the source is dead.
    dead_after: Duration = timedelta(days=3)

    @field_validator("browser_endpoint", mode="before")
    @classmethod
    def _endpoints(cls, v: object) -> object:
        if v is None or isinstance(v, str):
            v = None if v is None else [v]
        if isinstance(v, list | tuple):
            if not v:
                raise ValueError("browser_endpoint: give one URL or a list of them, or null")
            for url in v:
                check_endpoint(str(url))
        return v

    @field_validator("archive_fallback")
    @classmethod
    def _archive_url(cls, v: str | None) -> str | None:
        return None if v is None else check_url(v)


class AlertSettings(_Strict):
    after_failures: int = Field(3, ge=1)
    resend_after: Duration = timedelta(hours=24)
    notify: list[str] = Field(default_factory=list)


class ScheduleSettings(_Strict):
    cron: str = "0 6 * * *"
    mode: Literal["due", "all"] = "due"  # what `serve` fetches: the sources due, or all
    margin: Duration | None = None  # kept before a record's window ends; None: one interval
    change_threshold: float = Field(0.1, gt=0, le=1)  # the chance of a change that is due

    def interval(self, now: datetime) -> timedelta:
        """The time between two scheduled runs, the shortest of the next few."""
        from cronsim import CronSim

        runs = CronSim(self.cron, now.replace(second=0, microsecond=0))
        times = [next(runs) for _ in range(4)]
        return min(b - a for a, b in pairwise(times))

    def until_next(self, now: datetime) -> timedelta:
        """The time from `now` to the next scheduled run (a weekday cron's Friday run: three
        days)."""
        from cronsim import CronSim

        return next(CronSim(self.cron, now.replace(second=0, microsecond=0))) - now

    def next_run(self, now: datetime) -> datetime:
        """The time of the next scheduled run after `now`."""
        return now + self.until_next(now)

    def kept_margin(self, now: datetime) -> timedelta:
        return self.margin if self.margin is not None else self.interval(now)

    @field_validator("cron")
    @classmethod
    def _cron(cls, v: str) -> str:
        from cronsim import CronSim, CronSimError

        if len(v.split()) != 5:
            raise ValueError(
                f"bad cron {v!r} ({len(v.split())} fields): use five fields, e.g. '0 6 * * *'"
            )
        try:
            CronSim(v, datetime.now(UTC))
        except CronSimError as e:
            raise ValueError(f"bad cron {v!r} ({e}): use five fields, e.g. '0 6 * * *'") from e
        return v


class ArchiveSettings(_Strict):
    """Captures of the pages claims rest on, sent to a Save Page Now 2 compatible API."""

    save: str | None = None  # its base URL, e.g. https://web.archive.org; None: no captures
    per_minute: int = Field(4, ge=1, le=600)  # captures sent a minute, across runs
    key_env: str | None = Field(None, min_length=1)  # env var holding ACCESS:SECRET

    @field_validator("save")
    @classmethod
    def _save_url(cls, v: str | None) -> str | None:
        return None if v is None else check_url(v).rstrip("/")


# An SPDX licence identifier ("CC-BY-4.0", "ODbL-1.0", "LicenseRef-mine").
SPDX_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.+-]*$")
# The licences catalogs of data are most often under, at their own addresses; any other
# SPDX id is given as its page on spdx.org.
LICENSE_URLS = {
    "CC-BY-4.0": "https://creativecommons.org/licenses/by/4.0/",
    "CC-BY-SA-4.0": "https://creativecommons.org/licenses/by-sa/4.0/",
    "CC-BY-NC-4.0": "https://creativecommons.org/licenses/by-nc/4.0/",
    "CC0-1.0": "https://creativecommons.org/publicdomain/zero/1.0/",
    "ODbL-1.0": "https://opendatacommons.org/licenses/odbl/1-0/",
    "ODC-By-1.0": "https://opendatacommons.org/licenses/by/1-0/",
    "PDDL-1.0": "https://opendatacommons.org/licenses/pddl/1-0/",
}


def license_url(license: str) -> str:
    """A licence as a web address: a URL as given, an SPDX identifier as its URL."""
    if SPDX_ID.match(license):
        return LICENSE_URLS.get(license, f"https://spdx.org/licenses/{license}.html")
    return license


class SiteSettings(_Strict):
    # the published catalog's licence: an http(s) URL or an SPDX identifier
    license: str | None = Field(None, min_length=1)
    # where the site and the desk are published: a proposal links each record's page there
    url: Annotated[str, BeforeValidator(lambda v: check_url(str(v)))] | None = None
    desk_url: Annotated[str, BeforeValidator(lambda v: check_url(str(v)))] | None = None

    @field_validator("license")
    @classmethod
    def _license_url(cls, v: str | None) -> str | None:
        # printed as a link on the site: only a web address, never javascript: or data:
        if v is not None and not SPDX_ID.match(v):
            try:
                check_url(v)
            except ValueError:
                raise ValueError(
                    f"bad license {v!r}: give an SPDX identifier (CC-BY-4.0) or the "
                    "licence's http:// or https:// URL, e.g. "
                    "https://creativecommons.org/licenses/by/4.0/"
                ) from None
        return v


class HistorySettings(_Strict):
    keep_pages: int = Field(2, ge=0)  # raw pages kept per source, newest first


class Settings(_Strict):
    database: str = "data/evidence.duckdb"
    # What a reader of the database (sql, status, check, ...) holds in memory before it
    # spills to a temporary folder, in DuckDB's words; env EVIDENCE_MEMORY_LIMIT overrides.
    memory_limit: str = Field("2GB", pattern=r"^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$")
    task_runner: Literal["threads", "dask"] = "threads"  # where extract-pages tasks run
    dask_address: str | None = None  # a Dask scheduler (tcp://host:8786); none: a local cluster
    freshness_window: Duration = timedelta(days=15)
    fetch: FetchSettings = FetchSettings()
    alerts: AlertSettings = AlertSettings()
    schedule: ScheduleSettings = ScheduleSettings()
    history: HistorySettings = HistorySettings()
    archive: ArchiveSettings = ArchiveSettings()
    site: SiteSettings = SiteSettings()


class SourceConfig(_Strict):
    id: Slug | None = None
    url: Annotated[str, BeforeValidator(lambda v: check_url(str(v)))]
    role: Literal[Role.PRIMARY, Role.THIRD_PARTY]  # a Literal: the schema's and errors' words
    obey_robots: bool | None = None
    expect_redirect: bool = False
    render: Render | None = None  # None: settings' fetch.render
    wait_for: str | None = Field(None, min_length=1)  # a CSS selector (browser sources)

    @property
    def source_id(self) -> str:
        return self.id or source_slug(self.url)


def _amount(value: object) -> object:
    return None if value is None else str(Amount.parse(value))


AmountText = Annotated[str, BeforeValidator(_amount)]


class ChangeConfig(_Strict):
    """`change:` a move against the value before larger than a number or a share."""

    up_by_more_than: AmountText | None = None
    down_by_more_than: AmountText | None = None

    @model_validator(mode="after")
    def _one_at_least(self) -> ChangeConfig:
        if self.up_by_more_than is None and self.down_by_more_than is None:
            raise ValueError(
                "change: give up_by_more_than or down_by_more_than, a number or a share like '10%'"
            )
        return self


class ExpectConfig(_Strict):
    """`expect:` what must hold of a claim's value on its primary sources."""

    at_least: float | None = None
    at_most: float | None = None
    between: tuple[float, float] | None = None
    equals: float | None = None
    status_in: list[Status] | None = Field(None, min_length=1)
    change: ChangeConfig | None = None
    severity: Literal["warn", "error"] = "warn"

    @model_validator(mode="after")
    def _coherent(self) -> ExpectConfig:
        tests = (self.at_least, self.at_most, self.between, self.equals, self.status_in)
        if all(t is None for t in tests) and self.change is None:
            raise ValueError(
                "expect: give at least one of at_least, at_most, between, equals, "
                "status_in or change, e.g. {at_least: 300}"
            )
        if self.between is not None and self.between[0] > self.between[1]:
            raise ValueError(
                f"expect: between {list(self.between)} is empty: write the lower bound first"
            )
        if self.at_least is not None and self.at_most is not None and self.at_least > self.at_most:
            raise ValueError("expect: at_least is above at_most, so nothing can hold")
        return self

    def to_expect(self) -> Expect:
        change = self.change
        return Expect(
            at_least=self.at_least,
            at_most=self.at_most,
            between=self.between,
            equals=self.equals,
            status_in=tuple(self.status_in) if self.status_in is not None else None,
            up_by_more_than=Amount.parse(change.up_by_more_than)
            if change and change.up_by_more_than is not None
            else None,
            down_by_more_than=Amount.parse(change.down_by_more_than)
            if change and change.down_by_more_than is not None
            else None,
            severity=Condition.FAIL if self.severity == "error" else Condition.WARN,
        )


class ClaimConfig(_Strict):
    id: Slug
    quote: str = Field(min_length=1)
    status: Status | None = None
    sources: list[str] | None = None
    review_by: date | None = None  # from this date the claim is due for a person's look
    figure: int | None = Field(None, ge=1)  # which figure of the quote is watched, 1-based
    expect: ExpectConfig | None = None

    @model_validator(mode="after")
    def _watchable(self) -> ClaimConfig:
        from extractors.claim_values import quote_figures  # (pure; loaded with the config)

        figures = len(quote_figures(self.quote))
        if self.figure is not None and self.figure > figures:
            raise ValueError(
                f"figure: {self.figure} but the quote has {figures} figure(s): "
                f"name one of 1 to {figures}, or drop figure"
                if figures
                else f"figure: {self.figure} but the quote has no figure: drop figure"
            )
        expect = self.expect
        if expect is None:
            return self
        if expect.status_in is not None and self.status is None:
            raise ValueError(
                "expect: status_in reads a status: add `status:` to the claim, e.g. status: open"
            )
        if expect.to_expect().numeric and (self.status is not None or not figures):
            why = "is a status claim" if self.status is not None else "has no figure in its quote"
            raise ValueError(
                f"expect: at_least, at_most, between, equals and change read a figure, and "
                f"this claim {why}: use status_in, or quote the figure"
            )
        return self

    @field_validator("quote")
    @classmethod
    def _short_quote(cls, v: str) -> str:
        if len(v) > MAX_QUOTE_CHARS:
            raise ValueError(
                f"quote of {len(v):,} characters: keep a quote to at most "
                f"{MAX_QUOTE_CHARS:,}, the words of one passage"
            )
        return v


class RecordConfig(_Strict):
    id: Slug
    title: str = Field(min_length=1)
    freshness_window: Duration | None = None
    fields: dict[str, str | int | float | bool | None] = Field(default_factory=dict)
    sources: list[SourceConfig] = Field(min_length=1)
    claims: list[ClaimConfig] = Field(default_factory=list)
    review_by: date | None = None  # from this date the record is due for a person's look


@dataclass(frozen=True, slots=True)
class Record:
    """A validated record, with its file and effective freshness window."""

    config: RecordConfig
    file: str
    window: timedelta
    lines: tuple[int | None, ...] = ()  # of the record, then of each claim, in its file

    @property
    def id(self) -> str:
        return self.config.id

    def line_of(self, claim_index: int | None = None) -> int | None:
        """The line of one of its claims in its file, or of the record."""
        at = 0 if claim_index is None else claim_index + 1
        return self.lines[at] if at < len(self.lines) else None


@dataclass(frozen=True, slots=True)
class Catalog:
    settings: Settings
    records: tuple[Record, ...]
    config_dir: Path

    def record(self, record_id: str) -> Record:
        """The record of that id; UnknownRecord, said the one way, when there is none."""
        found = next((r for r in self.records if r.id == record_id), None)
        if found is None:
            raise UnknownRecord(record_id, (r.id for r in self.records), str(self.config_dir))
        return found

    def source(self, record_id: str, source_id: str) -> SourceConfig:
        """A source of a record; UnknownRecord or UnknownSource when there is none."""
        sources = self.record(record_id).config.sources
        found = next((s for s in sources if s.source_id == source_id), None)
        if found is None:
            known = [s.source_id for s in sources]
            raise UnknownSource(source_id, known, owner=record_id)
        return found
