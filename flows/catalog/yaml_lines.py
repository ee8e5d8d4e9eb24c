"""YAML read with the line of every value, so that a config error can name its line.

A file is refused by its size before it is read, and by its count of nodes while it is
parsed (events, before any tree is built); the document is then composed (nodes keep
their marks) and turned into plain data with a cap on nodes, so that anchors cannot
expand without bound. Only YAML's own tags are read: `!!python/...` and other
application tags are a config error.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from evidence_base.errors import ConfigError, first_line

MAX_YAML_NODES = 100_000
MAX_YAML_BYTES = 4_000_000  # a config file past this is data, not a catalog someone writes
_YAML_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}"
    for name in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp")
)


# libyaml's parser when PyYAML has it (much faster), the same nodes and marks.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"


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


def read_config_file(path: Path) -> bytes:
    """The bytes of a config file: a regular file of at most MAX_YAML_BYTES, refused
    before it is read otherwise (a FIFO, a device, a file of data)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        raise ConfigError(str(path), f"cannot read: {e.strerror}") from None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError(str(path), "not a regular file: give a YAML file")
        if info.st_size > MAX_YAML_BYTES:
            raise ConfigError(str(path), _too_large(info.st_size))
        raw = file.read(MAX_YAML_BYTES + 1)
    if len(raw) > MAX_YAML_BYTES:  # grew while being read
        raise ConfigError(str(path), _too_large(len(raw)))
    return raw


def _too_large(size: int) -> str:
    return (
        f"{size:,} bytes, more than a config file may hold ({MAX_YAML_BYTES:,}): "
        "split the records over several files"
    )


def load_yaml(
    path: Path, raw: bytes | None = None, problems: list[ConfigError] | None = None
) -> tuple[Any, Lines]:
    """The document at path (or its bytes, already read) and the line of every value.

    A key given twice raises, or with `problems` is added to them and its first value kept.
    """
    raw = read_config_file(path) if raw is None else raw
    if len(raw) > MAX_YAML_BYTES:
        raise ConfigError(str(path), _too_large(len(raw)))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(str(path), f"not UTF-8 text ({e.reason}): save the file as UTF-8") from e
    try:
        _count_nodes(text, path)
        node = yaml.compose(text, Loader=_LOADER)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = getattr(e, "problem", None) or first_line(e)
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


def _count_nodes(text: str, path: Path) -> None:
    """Refuse a document of more than MAX_YAML_NODES nodes as its events stream by,
    before a tree of them is built; a tag of another application is refused here too."""
    count = 0
    for event in yaml.parse(text, Loader=_LOADER):
        if not isinstance(event, yaml.NodeEvent):
            continue
        count += 1
        line = event.start_mark.line + 1 if event.start_mark else None
        if count > MAX_YAML_NODES:
            raise ConfigError(
                str(path),
                f"more than {MAX_YAML_NODES:,} YAML nodes: split the records over several files",
                line,
            )
        tag = getattr(event, "tag", None)
        if tag not in (None, "!") and _full_tag(tag) not in _YAML_TAGS:
            raise ConfigError(
                str(path),
                f"YAML tag {tag!r} is not read here: remove it (plain values only)",
                line,
            )


def _full_tag(tag: str) -> str:
    return "tag:yaml.org,2002:" + tag[2:] if tag.startswith("!!") else tag


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
            if key_node.tag == _MERGE_TAG:
                raise ConfigError(
                    str(path),
                    "a YAML merge key (<<) is not read here: write the keys out in full",
                    key_node.start_mark.line + 1,
                )
            key = _scalar(key_node, path)
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
    return _scalar(node, path)


def _scalar(node: yaml.Node, path: Path | None = None) -> Any:
    if node.tag == _STR_TAG:
        return node.value  # most scalars: no constructor needed
    try:
        value = yaml.constructor.SafeConstructor().construct_object(node, deep=True)
    except yaml.YAMLError as e:
        raise ConfigError(
            str(path or "?"),
            f"a YAML value that cannot be read ({first_line(e)}): write it plainly",
            node.start_mark.line + 1,
        ) from None
    return value if isinstance(value, str | int | float | bool | None) else str(value)
