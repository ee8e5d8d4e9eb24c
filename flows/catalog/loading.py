"""Loading the catalog: settings and every record, checked before anything is fetched.

Every mistake becomes one ConfigError naming the file, the line where known, and the fix.
YAML is read with the line of every value (flows/catalog/yaml_lines.py), then validated
by the models (flows/catalog/models.py).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from extractors.values import Render
from flows.catalog.messages import config_error, did_you_mean
from flows.catalog.models import Catalog, Record, RecordConfig, Settings
from flows.catalog.yaml_lines import Lines, load_yaml, read_config_file
from warehouse.errors import ConfigError


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
        raise config_error(path, e, lines, Settings) from None


_LOADED: dict[Path, tuple[tuple, Catalog]] = {}


def load_catalog(config_dir: Path) -> Catalog:
    """Settings and every record, or a ConfigError for the first mistake.

    Read once per process while no file changes (the CLI checks the catalog before the
    flow starts, and the flow reads it again).
    """
    if not config_dir.is_dir():
        raise ConfigError(str(config_dir), "no such config directory: pass --config DIR")
    # each file read once; its digest says whether it changed (mtimes are too coarse)
    raw = {p: read_config_file(p) for p in sorted((config_dir / "records").glob("*.y*ml"))}
    settings_path = config_dir / "settings.yaml"
    settings_raw = read_config_file(settings_path) if settings_path.exists() else b""
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
                raise config_error(path, e, lines, RecordConfig, prefix) from None
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
    record: RecordConfig, path: Path, lines: Lines, prefix: tuple, default_render: Render
) -> None:
    ids: dict[str, int] = {}
    for i, source in enumerate(record.sources):
        if source.wait_for is not None and (source.render or default_render) is not Render.BROWSER:
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
                    f"{did_you_mean(name, ids)}; known sources: {', '.join(ids)}",
                    lines.find((*prefix, "claims", i, "sources", j)),
                )


# The kernel's own files: regular in name only (/proc/self/mem), never a database.
_SYSTEM_DIRS = (Path("/proc"), Path("/sys"), Path("/dev"))


def resolve_db(flag: str | None, settings: Settings) -> Path:
    """--db, else EVIDENCE_DB, else settings.database (relative to the current directory).

    A path that is there must be a regular file (a symlink to one is followed) outside
    the kernel's own files; anything else is a ConfigError before the file is opened.
    """
    db = Path(flag or os.environ.get("EVIDENCE_DB") or settings.database)
    real = db.resolve()
    if any(real.is_relative_to(d) for d in _SYSTEM_DIRS) or (real.exists() and not real.is_file()):
        raise ConfigError(
            str(db),
            "the database must be a regular file (or a new one): give the path of a "
            ".duckdb file (--db, EVIDENCE_DB or settings' database)",
        )
    return db
