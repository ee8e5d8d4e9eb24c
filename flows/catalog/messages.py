"""What a config error says: the key, the value and the fix, from pydantic's errors."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from evidence_base.errors import ConfigError, did_you_mean
from extractors.values import Status
from flows.catalog.yaml_lines import Lines


def config_error(
    path: Path, error: ValidationError, lines: Lines, model: type[BaseModel], prefix: tuple = ()
) -> ConfigError:
    """The first mistake, as a run that stops at once says it."""
    return config_errors(path, error, lines, model, prefix)[0]


def config_errors(
    path: Path, error: ValidationError, lines: Lines, model: type[BaseModel], prefix: tuple = ()
) -> list[ConfigError]:
    """Every mistake pydantic found, one per line of the file, the first as `config_error`."""
    errors = error.errors()
    # unknown keys first: a misspelled required one also reads as that key missing
    unknown = [e for e in errors if e["type"] == "extra_forbidden"]
    misspelled = {
        (tuple(e["loc"][:-1]), hint)
        for e in unknown
        for hint in _close(str(e["loc"][-1]), _known_keys(model, tuple(e["loc"][:-1])))
    }
    out: list[ConfigError] = []
    seen_lines: set[int | None] = set()
    for e in [*unknown, *(e for e in errors if e["type"] != "extra_forbidden")]:
        loc = tuple(e["loc"])
        if e["type"] == "missing" and (loc[:-1], str(loc[-1])) in misspelled:
            continue
        line = lines.find((*prefix, *loc))
        if out and line in seen_lines:
            continue  # one mistake a line (a value failing each type of a union is one)
        seen_lines.add(line)
        out.append(ConfigError(str(path), _message(e, loc, model), line))
    return out


def _close(word: str, choices: list[str]) -> list[str]:
    return difflib.get_close_matches(word, choices, n=1)


def _message(first: Any, loc: tuple[Any, ...], model: type[BaseModel]) -> str:
    where = _dotted(loc)
    kind = first["type"]
    if kind == "extra_forbidden":
        known = _known_keys(model, loc[:-1])
        return (
            f"unknown key {where!r}{did_you_mean(str(loc[-1]), known)}; "
            f"known keys here: {', '.join(known)}"
        )
    if kind == "missing":
        return f"missing required key {where!r}: add it"
    if kind == "literal_error" and loc and loc[-1] == "role":
        return f"bad role {first.get('input')!r} at {where}: use primary or third-party"
    if kind in ("literal_error", "enum") and loc and loc[-1] == "render":
        return f"bad render {first.get('input')!r} at {where}: use http or browser"
    if kind == "enum" and loc and loc[-1] == "status":
        statuses = ", ".join(s.value for s in Status)
        return f"bad status {first.get('input')!r} at {where}: use one of {statuses}"
    text = str(first["msg"]).removeprefix("Value error, ")
    return f"{where}: {text}"


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
