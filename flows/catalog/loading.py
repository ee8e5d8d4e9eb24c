"""Loading the catalog: settings and every record, checked before anything is fetched.

Every mistake becomes one ConfigError naming the file, the line where known, and the fix.
The whole catalog is read to the end, so that every mistake of every file is found in one
pass (`evidence check` lists them all); a refresh stops at the first.
YAML is read with the line of every value (flows/catalog/yaml_lines.py), then validated
by the models (flows/catalog/models.py).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from evidence_base import environment
from evidence_base.errors import ConfigError
from evidence_base.words import Render
from flows.catalog.messages import config_errors, did_you_mean
from flows.catalog.models import Catalog, Record, RecordConfig, Settings, source_slug
from flows.catalog.operator import Ignored, operator_settings
from flows.catalog.yaml_lines import Lines, load_yaml, read_config_file
from flows.runtime import progress


def config_dir_from(flag: str | None) -> Path:
    return Path(flag or environment.get("EVIDENCE_CONFIG") or "config")


def load_settings(config_dir: Path) -> Settings:
    problems: list[ConfigError] = []
    settings = _read_settings(config_dir, problems)
    if problems:
        raise problems[0]
    return settings


def _read_settings(
    config_dir: Path, problems: list[ConfigError], ignored: list[Ignored] | None = None
) -> Settings:
    """settings.yaml (or the defaults) as in force: the keys only whoever runs evidence
    may set taken within bounds, the environment's over them (flows/catalog/operator.py);
    every mistake added to problems, every key out of bounds to `ignored` (and said once
    on stderr)."""
    found, out = operator_settings(_settings_file(config_dir, problems), config_dir)
    for item in out:
        _say_once(f"{config_dir / 'settings.yaml'}: {item.line()}")
    if ignored is not None:
        ignored.extend(out)
    return found


def _settings_file(config_dir: Path, problems: list[ConfigError]) -> Settings:
    """settings.yaml as written, or the defaults with every mistake of it added."""
    path = config_dir / "settings.yaml"
    if not path.exists():
        return Settings()
    if not path.resolve().is_relative_to(config_dir.resolve()):
        problems.append(
            ConfigError(
                str(path),
                "a link to a file outside the catalog: settings.yaml must live in "
                f"{config_dir} (copy it there)",
            )
        )
        return Settings()
    try:
        data, lines = load_yaml(path, problems=problems)
    except ConfigError as e:
        problems.append(e)
        return Settings()
    if data is None:
        return Settings()
    if not isinstance(data, dict):
        problems.append(ConfigError(str(path), "settings must be a mapping of keys to values", 1))
        return Settings()
    try:
        return Settings.model_validate(data)
    except ValidationError as e:
        problems.extend(config_errors(path, e, lines, Settings))
        return Settings()


_said: set[str] = set()


def _say_once(line: str) -> None:
    if line not in _said:
        _said.add(line)
        progress(line)


@dataclass(frozen=True, slots=True)
class CheckedCatalog:
    """A catalog read to the end: the records without a mistake, and every mistake found
    (the first is the one a refresh stops at)."""

    catalog: Catalog
    errors: tuple[ConfigError, ...]
    ignored: tuple[Ignored, ...] = ()  # keys of settings.yaml out of a catalog's bounds


_LOADED: dict[Path, tuple[tuple, CheckedCatalog]] = {}


def load_catalog(config_dir: Path) -> Catalog:
    """Settings and every record, or a ConfigError for the first mistake."""
    checked = check_catalog(config_dir)
    if checked.errors:
        raise checked.errors[0]
    return checked.catalog


def check_catalog(config_dir: Path) -> CheckedCatalog:
    """Settings and every record, with every mistake of every file.

    Read once per process while no file changes (the CLI checks the catalog before the
    flow starts, and the flow reads it again).
    """
    if not config_dir.is_dir():
        raise ConfigError(str(config_dir), "no such config directory: pass --config DIR")
    # each file read once; its digest says whether it changed (mtimes are too coarse)
    paths = sorted((config_dir / "records").glob("*.y*ml"))
    home = config_dir.resolve()
    for p in paths:  # a record file is the catalog's own: not a link to a file elsewhere
        if not p.resolve().is_relative_to(home):
            raise ConfigError(
                str(p),
                "a link to a file outside the catalog: a record file must live in "
                f"{config_dir / 'records'} (copy it there)",
            )
    raw = {p: read_config_file(p) for p in paths}
    settings_path = config_dir / "settings.yaml"
    settings_raw = read_config_file(settings_path) if settings_path.exists() else b""
    stamp = tuple(
        (str(p), hashlib.blake2b(b, digest_size=16).digest())
        for p, b in [(settings_path, settings_raw), *raw.items()]
    )
    key = config_dir.resolve()
    if key in _LOADED and _LOADED[key][0] == stamp:
        return _LOADED[key][1]
    checked = _check_catalog(config_dir, raw)
    _LOADED[key] = (stamp, checked)
    return checked


def catalog_with(config_dir: Path, path: Path, text: str) -> Catalog:
    """The catalog as it would be with the record file `path` holding `text`, read with
    nothing written: ConfigError for the first mistake it would hold."""
    target = path.resolve()
    raw = {
        p: text.encode("utf-8") if p.resolve() == target else read_config_file(p)
        for p in sorted((config_dir / "records").glob("*.y*ml"))
    }
    if not any(p.resolve() == target for p in raw):  # a file not written yet
        raw[path] = text.encode("utf-8")
    checked = _check_catalog(config_dir, raw)
    if checked.errors:
        raise checked.errors[0]
    return checked.catalog


def _check_catalog(config_dir: Path, raw: dict[Path, bytes]) -> CheckedCatalog:
    problems: list[ConfigError] = []
    ignored: list[Ignored] = []
    settings = _read_settings(config_dir, problems, ignored)
    records: list[Record] = []
    seen: dict[str, str] = {}
    for path, content in raw.items():
        try:
            data, lines = load_yaml(path, content, problems)
        except ConfigError as e:  # unparseable: nothing more of this file can be read
            problems.append(e)
            continue
        if data is None:
            continue
        items = data if isinstance(data, list) else [data]
        for index, item in enumerate(items):
            prefix: tuple[Any, ...] = (index,) if isinstance(data, list) else ()
            if not isinstance(item, dict):
                problems.append(
                    ConfigError(
                        str(path),
                        "a record must be a mapping (id, title, sources, claims)",
                        lines.find(prefix),
                    )
                )
                continue
            found: list[ConfigError] = []
            record: RecordConfig | None = None
            try:
                record = RecordConfig.model_validate(item)
            except ValidationError as e:
                found.extend(config_errors(path, e, lines, RecordConfig, prefix))
            found.extend(_record_problems(item, path, lines, prefix, settings.fetch.render))
            rid = item.get("id")
            if isinstance(rid, str | int) and not isinstance(rid, bool):
                if str(rid) in seen:
                    found.append(
                        ConfigError(
                            str(path),
                            f"duplicate record id {str(rid)!r} (also in {seen[str(rid)]}): "
                            "give each record its own id",
                            lines.find((*prefix, "id")),
                        )
                    )
                else:
                    seen[str(rid)] = str(path)
            problems.extend(found)
            if record is None or found:
                continue
            window = record.freshness_window or settings.freshness_window
            records.append(Record(record, str(path), window, _claim_lines(record, lines, prefix)))
    return CheckedCatalog(
        Catalog(settings, tuple(records), config_dir), tuple(problems), tuple(ignored)
    )


def _claim_lines(record: RecordConfig, lines: Lines, prefix: tuple) -> tuple[int | None, ...]:
    """The line of the record, then of each of its claims (for problems found later)."""
    return (
        lines.find(prefix),
        *(lines.find((*prefix, "claims", i)) for i in range(len(record.claims))),
    )


def _record_problems(
    item: dict[str, Any], path: Path, lines: Lines, prefix: tuple, default_render: Render
) -> list[ConfigError]:
    """What the models cannot see one key at a time: ids given twice, names of sources
    that are not there, wait_for on a page not rendered in a browser. Read from the data
    as written, so that they are found beside a record's other mistakes."""
    found: list[ConfigError] = []
    name = str(item.get("id"))
    sources = item.get("sources")
    ids: dict[str, int] = {}
    for i, source in enumerate(sources if isinstance(sources, list) else []):
        if not isinstance(source, dict):
            continue
        render = source.get("render") or default_render
        if source.get("wait_for") is not None and render != Render.BROWSER:
            found.append(
                ConfigError(
                    str(path),
                    f"record {name!r}: wait_for at sources[{i}] waits for an element of a "
                    "page rendered in a browser: add `render: browser` to the source, or drop "
                    "wait_for",
                    lines.find((*prefix, "sources", i, "wait_for")),
                )
            )
        url = source.get("url")
        sid = source.get("id") or (source_slug(url) if isinstance(url, str) else None)
        if sid is None:
            continue
        sid = str(sid)
        if sid in ids:
            found.append(
                ConfigError(
                    str(path),
                    f"record {name!r}: duplicate source id {sid!r} "
                    f"(sources {ids[sid]} and {i}): give each source its own id",
                    lines.find((*prefix, "sources", i)),
                )
            )
        else:
            ids[sid] = i
    claims = item.get("claims")
    claim_ids: set[str] = set()
    for i, claim in enumerate(claims if isinstance(claims, list) else []):
        if not isinstance(claim, dict):
            continue
        if "id" in claim:
            cid = str(claim["id"])
            if cid in claim_ids:
                found.append(
                    ConfigError(
                        str(path),
                        f"record {name!r}: duplicate claim id {cid!r}: give each claim its own id",
                        lines.find((*prefix, "claims", i, "id")),
                    )
                )
            claim_ids.add(cid)
        named = claim.get("sources")
        for j, source_name in enumerate(named if isinstance(named, list) else []):
            if str(source_name) not in ids:
                found.append(
                    ConfigError(
                        str(path),
                        f"record {name!r}: claim {str(claim.get('id'))!r} names unknown "
                        f"source {str(source_name)!r}{did_you_mean(str(source_name), ids)}; "
                        f"known sources: {', '.join(ids)}",
                        lines.find((*prefix, "claims", i, "sources", j)),
                    )
                )
    return found


# The kernel's own files: regular in name only (/proc/self/mem), never a database.
_SYSTEM_DIRS = (Path("/proc"), Path("/sys"), Path("/dev"))


def resolve_db(flag: str | None, settings: Settings) -> Path:
    """--db, else EVIDENCE_DB, else settings.database (relative to the current directory).

    A path that is there must be a regular file (a symlink to one is followed) outside
    the kernel's own files; anything else is a ConfigError before the file is opened.
    """
    named = flag or environment.get("EVIDENCE_DB") or settings.database
    if any(ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F for c in named):
        raise ConfigError(
            repr(named),
            "the database path holds a control character (a line break, an escape): "
            "give a path of printable characters",
        )
    db = Path(named)
    real = db.resolve()
    if any(real.is_relative_to(d) for d in _SYSTEM_DIRS) or (real.exists() and not real.is_file()):
        raise ConfigError(
            str(db),
            "the database must be a regular file (or a new one): give the path of a "
            ".duckdb file (--db, EVIDENCE_DB or settings' database)",
        )
    return db
