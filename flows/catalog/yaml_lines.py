"""YAML read with the line of every value, so that a config error can name its line.

The document is composed first (nodes keep their marks), then turned into plain data
with a cap on nodes, so that anchors cannot expand without bound.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from warehouse.errors import ConfigError

MAX_YAML_NODES = 100_000


# libyaml's parser when PyYAML has it (much faster), the same nodes and marks.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR_TAG = "tag:yaml.org,2002:str"


@dataclass
class Lines:
    """Line numbers (1-based) of every path in a YAML document."""

    lines: dict[tuple[Any, ...], int]

    def find(self, loc: tuple[Any, ...]) -> int | None:
        while loc:
            if loc in self.lines:
                return self.lines[loc]
            loc = loc[:-1]
        return self.lines.get(())


def load_yaml(
    path: Path, raw: bytes | None = None, problems: list[ConfigError] | None = None
) -> tuple[Any, Lines]:
    """The document at path (or its bytes, already read) and the line of every value.

    A key given twice raises, or with `problems` is added to them and its first value kept.
    """
    try:
        text = (path.read_bytes() if raw is None else raw).decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(str(path), f"not UTF-8 text ({e.reason}): save the file as UTF-8") from e
    try:
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise ConfigError(
            str(path),
            f"unparseable YAML: {problem}: check indentation, colons and quotes",
            mark.line + 1 if mark else None,
        ) from e
    if node is None:
        return None, Lines({})
    lines: dict[tuple[Any, ...], int] = {}
    budget = [MAX_YAML_NODES]
    data = _to_data(node, (), lines, budget, path, problems)
    return data, Lines(lines)


def _to_data(
    node: yaml.Node,
    loc: tuple[Any, ...],
    lines: dict,
    budget: list[int],
    path: Path,
    problems: list[ConfigError] | None = None,
) -> Any:
    budget[0] -= 1
    if budget[0] < 0:
        raise ConfigError(
            str(path),
            f"more than {MAX_YAML_NODES} YAML nodes (anchors expanding?): write the data out",
            node.start_mark.line + 1,
        )
    lines.setdefault(loc, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _scalar(key_node)
            if key in out:
                duplicate = ConfigError(
                    str(path), f"duplicate key {key!r}: keep one", key_node.start_mark.line + 1
                )
                if problems is None:
                    raise duplicate
                problems.append(duplicate)
                continue
            lines[(*loc, key)] = key_node.start_mark.line + 1
            out[key] = _to_data(value_node, (*loc, key), lines, budget, path, problems)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [
            _to_data(v, (*loc, i), lines, budget, path, problems) for i, v in enumerate(node.value)
        ]
    return _scalar(node)


def _scalar(node: yaml.Node) -> Any:
    if node.tag == _STR_TAG:
        return node.value  # most scalars: no constructor needed
    value = yaml.constructor.SafeConstructor().construct_object(node, deep=True)
    return value if isinstance(value, str | int | float | bool | None) else str(value)
