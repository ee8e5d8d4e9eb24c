"""What a config error says: the key, the value and the fix, from pydantic's first error."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from extractors.values import Status
from flows.catalog.yaml_lines import Lines
from warehouse.errors import ConfigError


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def config_error(
    path: Path, error: ValidationError, lines: Lines, model: type[BaseModel], prefix: tuple = ()
) -> ConfigError:
    errors = error.errors()
    # an unknown key first: a misspelled required one also reads as that key missing
    first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    loc = tuple(first["loc"])
    where = _dotted(loc)
    kind = first["type"]
    if kind == "extra_forbidden":
        known = _known_keys(model, loc[:-1])
        message = (
            f"unknown key {where!r}{did_you_mean(str(loc[-1]), known)}; "
            f"known keys here: {', '.join(known)}"
        )
    elif kind == "missing":
        message = f"missing required key {where!r}: add it"
    elif kind == "literal_error" and loc and loc[-1] == "role":
        message = f"bad role {first.get('input')!r} at {where}: use primary or third-party"
    elif kind in ("literal_error", "enum") and loc and loc[-1] == "render":
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
