"""`evidence schema`: the JSON Schema (draft 2020-12) of a record file or of settings.yaml.

Made from the models the loader validates with (pydantic's JSON Schema), so that it
cannot drift from them, then told what pydantic cannot see: the descriptions
(descriptions.py), and the text forms the loader reads before validating (durations
such as 15d, slugs, http(s) URLs, a single browser endpoint).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from pydantic import BaseModel

from flows.catalog.descriptions import FIELDS, MODELS
from flows.catalog.models import _DURATION, SLUG, RecordConfig, Settings

DRAFT = "https://json-schema.org/draft/2020-12/schema"
URL_PATTERN = r"^[hH][tT][tT][pP][sS]?://[^/?#\s]+"
URL_FIELDS = {
    ("SourceConfig", "url"),
    ("FetchSettings", "archive_fallback"),
    ("ArchiveSettings", "save"),
}
AMOUNT_FIELDS = {("ChangeConfig", "up_by_more_than"), ("ChangeConfig", "down_by_more_than")}
AMOUNT_PATTERN = r"^\s*[0-9][0-9,]*(\.[0-9]+)?\s*%?\s*$"
SLUG_FIELDS = {("RecordConfig", "id"), ("SourceConfig", "id"), ("ClaimConfig", "id")}


def json_schema(kind: str = "records") -> dict[str, Any]:
    """The schema of a record file (one record, or a list of them) or of settings.yaml."""
    model: type[BaseModel] = RecordConfig if kind == "records" else Settings
    raw = model.model_json_schema(mode="validation", ref_template="#/$defs/{model}")
    defs = raw.pop("$defs", {})
    defs[model.__name__] = raw
    for name, definition in defs.items():
        definition.pop("title", None)
        if name in MODELS:
            definition["description"] = MODELS[name]
        for key, prop in definition.get("properties", {}).items():
            _describe(name, key, prop, _model_named(model, name))
    one = {"$ref": f"#/$defs/{model.__name__}"}
    if kind == "records":
        root: dict[str, Any] = {
            "title": "evidence-pipeline record file",
            "description": "records/*.yaml: one record (a mapping) or several (a list).",
            "anyOf": [one, {"type": "array", "items": one}, {"type": "null"}],
        }
    else:
        root = {
            "title": "evidence-pipeline settings.yaml",
            "description": MODELS["Settings"],
            "anyOf": [one, {"type": "null"}],
        }
    return {"$schema": DRAFT, **root, "$defs": defs}


def _describe(model: str, key: str, prop: dict[str, Any], cls: type[BaseModel] | None) -> None:
    prop.pop("title", None)
    description = FIELDS.get(model, {}).get(key)
    if description:
        prop["description"] = description
    _durations(prop)
    if (model, key) in URL_FIELDS:
        _on_strings(prop, {"pattern": URL_PATTERN})
    if (model, key) in SLUG_FIELDS:
        _on_strings(prop, {"pattern": whole(SLUG.pattern)})
    if (model, key) in AMOUNT_FIELDS:  # 10, or a share "10%"
        prop["anyOf"] = [
            {"type": "number", "minimum": 0},
            {"type": "string", "pattern": AMOUNT_PATTERN},
            {"type": "null"},
        ]
    if (model, key) == ("FetchSettings", "browser_endpoint"):
        prop["anyOf"] = [{"type": "string"}, *prop.get("anyOf", [])]  # one URL, or a list
    default = prop.get("default")
    if isinstance(default, dict):
        prop.pop("default")  # a nested section's defaults are its keys' own
    elif cls is not None and key in cls.model_fields:
        value = cls.model_fields[key].default
        if isinstance(value, timedelta):
            prop["default"] = duration_text(value)


def whole(pattern: str) -> str:
    """A loader's fullmatch pattern as JSON Schema's, which searches."""
    return f"^(?:{pattern})$"


def _durations(prop: dict[str, Any]) -> None:
    """pydantic says ISO 8601 (P15D); the loader reads 15d, 24h, 2w."""
    for part in [prop, *prop.get("anyOf", [])]:
        if part.get("format") == "duration":
            del part["format"]
            part["pattern"] = whole(_DURATION.pattern)


def _on_strings(prop: dict[str, Any], extra: dict[str, Any]) -> None:
    for part in [prop, *prop.get("anyOf", [])]:
        if part.get("type") == "string":
            part.update(extra)


def _model_named(root: type[BaseModel], name: str) -> type[BaseModel] | None:
    """The model of a $defs entry, found from the root model's fields."""
    seen: set[type[BaseModel]] = set()
    todo = [root]
    while todo:
        cls = todo.pop()
        if cls.__name__ == name:
            return cls
        seen.add(cls)
        for field in cls.model_fields.values():
            for arg in (field.annotation, *getattr(field.annotation, "__args__", ())):
                for inner in (arg, *getattr(arg, "__args__", ())):
                    if isinstance(inner, type) and issubclass(inner, BaseModel):
                        if inner not in seen:
                            todo.append(inner)
    return None


def duration_text(value: timedelta) -> str:
    """A duration as settings write it: 15d, 24h, 90s."""
    seconds = int(value.total_seconds())
    for unit, size in (("w", 604800), ("d", 86400), ("h", 3600), ("m", 60)):
        if seconds % size == 0 and seconds // size >= (2 if unit in "wd" else 1):
            return f"{seconds // size}{unit}"
    return f"{seconds}s"
