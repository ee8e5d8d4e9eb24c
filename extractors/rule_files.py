"""Rule files (extractors/data/*.yaml) checked against their schema when loaded: a key
the schema does not know, or a value of the wrong kind, is one RuleFileError naming the
file and the key, never a silent drop of what the key held.

A schema is a small nested dict: `{"type": "mapping", "keys": {name: schema}}` (only
those keys; `"required": [...]` those that must be there), `{"type": "mapping",
"values": schema}` (any keys, each value of that schema), `{"type": "list", "of":
schema}`, or one of the words "text", "number", "flag" for a scalar ("text" takes a
string or a number, as YAML writes `2026` or `on`).
"""

from __future__ import annotations

import difflib
from typing import Any

from evidence_base.errors import RuleFileError

Schema = dict[str, Any] | str


def check_rule_file(name: str, data: Any, schema: Schema) -> Any:
    """`data` as read from extractors/data/`name`, once it holds to `schema`."""
    _check(name, data, schema, "")
    return data


def _check(name: str, value: Any, schema: Schema, where: str) -> None:
    shown = where or "the file"
    if isinstance(schema, str):
        ok = {
            "text": isinstance(value, str | int | float) and not isinstance(value, bool),
            "number": isinstance(value, int | float) and not isinstance(value, bool),
            "flag": isinstance(value, bool),
        }[schema]
        if not ok:
            raise RuleFileError(f"extractors/data/{name}: {shown} must be {_a(schema)}")
        return
    if schema["type"] == "list":
        if not isinstance(value, list):
            raise RuleFileError(f"extractors/data/{name}: {shown} must be a list")
        for i, item in enumerate(value):
            _check(name, item, schema["of"], f"{where}[{i}]")
        return
    if not isinstance(value, dict):
        raise RuleFileError(f"extractors/data/{name}: {shown} must be a mapping")
    if "keys" in schema:
        known = schema["keys"]
        for key in value:
            if key not in known:
                near = difflib.get_close_matches(str(key), list(known), n=1)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                raise RuleFileError(
                    f"extractors/data/{name}: unknown key {_join(where, key)!r}{hint}"
                )
        for key in schema.get("required", ()):
            if key not in value:
                raise RuleFileError(f"extractors/data/{name}: {_join(where, key)!r} is missing")
        for key, item in value.items():
            _check(name, item, known[key], _join(where, key))
    else:
        for key, item in value.items():
            _check(name, item, schema["values"], _join(where, key))


def _join(where: str, key: object) -> str:
    return f"{where}.{key}" if where else str(key)


def _a(kind: str) -> str:
    return {"text": "a word or phrase", "number": "a number", "flag": "true or false"}[kind]
