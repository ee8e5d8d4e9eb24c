"""Config: settings.yaml and records/*.yaml, validated before anything is fetched.

Every mistake becomes one ConfigError naming the file, the line where known,
and the fix. YAML is read with the line of every value (flows/yaml_lines.py),
then validated with pydantic, the only place pydantic is used.
"""

from __future__ import annotations

import difflib
import hashlib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
)

from extractors.values import Status
from flows.yaml_lines import Lines, load_yaml
from warehouse.errors import ConfigError

__version__ = "0.1.0"
DEFAULT_USER_AGENT = (
    f"evidence-pipeline/{__version__} (+https://github.com/evidence-pipeline/evidence-pipeline)"
)
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_duration(value: object) -> timedelta:
    """'15d' -> 15 days; units s, m, h, d, w."""
    if isinstance(value, timedelta):
        return value
    m = _DURATION.match(str(value)) if isinstance(value, str | int | float) else None
    if m is None or isinstance(value, bool):
        raise ValueError(
            f"bad duration {value!r}: write a number and a unit s, m, h, d or w, e.g. 15d"
        )
    return timedelta(seconds=float(m[1]) * _UNIT_SECONDS[m[2]])


Duration = Annotated[timedelta, BeforeValidator(parse_duration)]


def _check_slug(value: str) -> str:
    if not SLUG.match(value):
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


def check_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"bad url {url!r}: only http:// and https:// URLs with a host are fetched")
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
    render: Literal["http", "browser"] = "http"  # how a source without `render` is loaded
    browser_path: str | None = None  # a Chromium to drive; None: Playwright's, else on PATH
    browser_concurrency: int = Field(2, ge=1, le=32)  # pages rendered at once

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

    @field_validator("cron")
    @classmethod
    def _cron(cls, v: str) -> str:
        from cronsim import CronSim, CronSimError

        try:
            CronSim(v, datetime.now(UTC))
        except CronSimError as e:
            raise ValueError(f"bad cron {v!r} ({e}): use five fields, e.g. '0 6 * * *'") from e
        return v


class HistorySettings(_Strict):
    keep_pages: int = Field(2, ge=0)  # raw pages kept per source, newest first


class Settings(_Strict):
    database: str = "data/evidence.duckdb"
    task_runner: Literal["threads", "dask"] = "threads"  # where extract-pages tasks run
    dask_address: str | None = None  # a Dask scheduler (tcp://host:8786); none: a local cluster
    freshness_window: Duration = timedelta(days=15)
    fetch: FetchSettings = FetchSettings()
    alerts: AlertSettings = AlertSettings()
    schedule: ScheduleSettings = ScheduleSettings()
    history: HistorySettings = HistorySettings()


class SourceConfig(_Strict):
    id: Slug | None = None
    url: Annotated[str, BeforeValidator(lambda v: check_url(str(v)))]
    role: Literal["primary", "third-party"]
    obey_robots: bool | None = None
    expect_redirect: bool = False
    render: Literal["http", "browser"] | None = None  # None: settings' fetch.render
    wait_for: str | None = Field(None, min_length=1)  # a CSS selector (browser sources)

    @property
    def source_id(self) -> str:
        return self.id or source_slug(self.url)


class ClaimConfig(_Strict):
    id: Slug
    quote: str = Field(min_length=1)
    status: Status | None = None
    sources: list[str] | None = None


class RecordConfig(_Strict):
    id: Slug
    title: str = Field(min_length=1)
    freshness_window: Duration | None = None
    fields: dict[str, str | int | float | bool | None] = Field(default_factory=dict)
    sources: list[SourceConfig] = Field(min_length=1)
    claims: list[ClaimConfig] = Field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Record:
    """A validated record, with its file and effective freshness window."""

    config: RecordConfig
    file: str
    window: timedelta

    @property
    def id(self) -> str:
        return self.config.id


@dataclass(frozen=True, slots=True)
class Catalog:
    settings: Settings
    records: tuple[Record, ...]
    config_dir: Path

    def select(self, record_ids: list[str] | None) -> tuple[Record, ...]:
        if not record_ids:
            return self.records
        known = {r.id for r in self.records}
        for rid in record_ids:
            if rid not in known:
                raise ConfigError(
                    str(self.config_dir / "records"),
                    f"no record {rid!r}{_did_you_mean(rid, known)}",
                )
        return tuple(r for r in self.records if r.id in record_ids)


def config_dir_from(flag: str | None) -> Path:
    return Path(flag or os.environ.get("EVIDENCE_CONFIG") or "config")


def load_settings(config_dir: Path) -> Settings:
    path = config_dir / "settings.yaml"
    if not path.exists():
        return Settings()
    data, lines = load_yaml(path)
    if data is None:
        return Settings()
    if not isinstance(data, dict):
        raise ConfigError(str(path), "settings must be a mapping of keys to values", 1)
    try:
        return Settings.model_validate(data)
    except ValidationError as e:
        raise _config_error(path, e, lines, Settings) from None


_LOADED: dict[Path, tuple[tuple, Catalog]] = {}


def load_catalog(config_dir: Path) -> Catalog:
    """Settings and every record, or a ConfigError for the first mistake.

    Read once per process while no file changes (the CLI checks the catalog before the
    flow starts, and the flow reads it again).
    """
    if not config_dir.is_dir():
        raise ConfigError(str(config_dir), "no such config directory: pass --config DIR")
    # each file read once; its digest says whether it changed (mtimes are too coarse)
    raw = {p: p.read_bytes() for p in sorted((config_dir / "records").glob("*.y*ml"))}
    settings_path = config_dir / "settings.yaml"
    settings_raw = settings_path.read_bytes() if settings_path.exists() else b""
    stamp = tuple(
        (str(p), hashlib.blake2b(b, digest_size=16).digest())
        for p, b in [(settings_path, settings_raw), *raw.items()]
    )
    key = config_dir.resolve()
    if key in _LOADED and _LOADED[key][0] == stamp:
        return _LOADED[key][1]
    catalog = _load_catalog(config_dir, raw)
    _LOADED[key] = (stamp, catalog)
    return catalog


def _load_catalog(config_dir: Path, raw: dict[Path, bytes]) -> Catalog:
    settings = load_settings(config_dir)
    records: list[Record] = []
    seen: dict[str, str] = {}
    for path, content in raw.items():
        data, lines = load_yaml(path, content)
        if data is None:
            continue
        items = data if isinstance(data, list) else [data]
        for index, item in enumerate(items):
            prefix: tuple[Any, ...] = (index,) if isinstance(data, list) else ()
            if not isinstance(item, dict):
                raise ConfigError(
                    str(path),
                    "a record must be a mapping (id, title, sources, claims)",
                    lines.find(prefix),
                )
            try:
                record = RecordConfig.model_validate(item)
            except ValidationError as e:
                raise _config_error(path, e, lines, RecordConfig, prefix) from None
            _check_record(record, path, lines, prefix, settings.fetch.render)
            if record.id in seen:
                raise ConfigError(
                    str(path),
                    f"duplicate record id {record.id!r} (also in {seen[record.id]}): "
                    "give each record its own id",
                    lines.find((*prefix, "id")),
                )
            seen[record.id] = str(path)
            window = record.freshness_window or settings.freshness_window
            records.append(Record(record, str(path), window))
    return Catalog(settings, tuple(records), config_dir)


def _check_record(
    record: RecordConfig, path: Path, lines: Lines, prefix: tuple, default_render: str
) -> None:
    ids: dict[str, int] = {}
    for i, source in enumerate(record.sources):
        if source.wait_for is not None and (source.render or default_render) != "browser":
            raise ConfigError(
                str(path),
                f"record {record.id!r}: wait_for at sources[{i}] waits for an element of a "
                "page rendered in a browser: add `render: browser` to the source, or drop "
                "wait_for",
                lines.find((*prefix, "sources", i, "wait_for")),
            )
        sid = source.source_id
        if sid in ids:
            raise ConfigError(
                str(path),
                f"record {record.id!r}: duplicate source id {sid!r} "
                f"(sources {ids[sid]} and {i}): give each source its own id",
                lines.find((*prefix, "sources", i)),
            )
        ids[sid] = i
    claim_ids: set[str] = set()
    for i, claim in enumerate(record.claims):
        if claim.id in claim_ids:
            raise ConfigError(
                str(path),
                f"record {record.id!r}: duplicate claim id {claim.id!r}: "
                "give each claim its own id",
                lines.find((*prefix, "claims", i, "id")),
            )
        claim_ids.add(claim.id)
        for j, name in enumerate(claim.sources or []):
            if name not in ids:
                raise ConfigError(
                    str(path),
                    f"record {record.id!r}: claim {claim.id!r} names unknown source {name!r}"
                    f"{_did_you_mean(name, ids)}; known sources: {', '.join(ids)}",
                    lines.find((*prefix, "claims", i, "sources", j)),
                )


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _config_error(
    path: Path, error: ValidationError, lines: Lines, model: type[BaseModel], prefix: tuple = ()
) -> ConfigError:
    first = error.errors()[0]
    loc = tuple(first["loc"])
    where = _dotted(loc)
    kind = first["type"]
    if kind == "extra_forbidden":
        known = _known_keys(model, loc[:-1])
        message = (
            f"unknown key {where!r}{_did_you_mean(str(loc[-1]), known)}; "
            f"known keys here: {', '.join(known)}"
        )
    elif kind == "missing":
        message = f"missing required key {where!r}: add it"
    elif kind == "literal_error" and loc and loc[-1] == "role":
        message = f"bad role {first.get('input')!r} at {where}: use primary or third-party"
    elif kind == "literal_error" and loc and loc[-1] == "render":
        message = f"bad render {first.get('input')!r} at {where}: use http or browser"
    elif kind == "enum" and loc and loc[-1] == "status":
        statuses = ", ".join(s.value for s in Status)
        message = f"bad status {first.get('input')!r} at {where}: use one of {statuses}"
    else:
        text = str(first["msg"]).removeprefix("Value error, ")
        message = f"{where}: {text}"
    return ConfigError(str(path), message, lines.find((*prefix, *loc)))


def _dotted(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _known_keys(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        field = current.model_fields.get(part) if hasattr(current, "model_fields") else None
        if field is None:
            return []
        annotation = field.annotation
        args = getattr(annotation, "__args__", ()) or ()
        current = next(
            (a for a in (annotation, *args) if isinstance(a, type) and issubclass(a, BaseModel)),
            None,
        )
        if current is None:
            return []
    return list(current.model_fields)


def resolve_db(flag: str | None, settings: Settings) -> Path:
    """--db, else EVIDENCE_DB, else settings.database (relative to the current directory)."""
    return Path(flag or os.environ.get("EVIDENCE_DB") or settings.database)
