"""Writing into a record's file as its keeper wrote it: a claim's new wording, a new
source.

The file is parsed with ruamel.yaml's round-trip composer, which keeps where every node
starts and ends and how each scalar is quoted; an edit replaces only the bytes of the
nodes it changes (or inserts the lines of a new item beside its siblings, indented and
quoted as they are), so comments, key order, quoting and indentation of everything else
stay byte for byte. The result is read back and must equal the data as it was with the
change made, or nothing is written. Files are written whole or not at all: a temporary
file beside the target, fsynced, then renamed over it.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml as pyyaml
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from evidence_base.errors import EvidenceError, UnknownClaim, UnknownRecord, UnknownSource
from flows.catalog.models import source_slug
from flows.catalog.yaml_lines import load_yaml

_FLOW_UNSAFE = re.compile(r"[,\[\]{}]")
# The comment `evidence suggest` writes beside a claim's id: the kind of figure (or
# `status`) it parsed, then the figure.
# What `suggest` writes beside a claim's id: the parsed figure ("# money 4000 USD (per
# month) of GPU credits"), up to the end of the line or words a keeper added after it
# (apart by a dash, a semicolon, a bar, two spaces or another #).
_FIGURE_COMMENT = re.compile(
    r"[ \t]+# (?:money|percent|count|duration|date|date_range|number|status) "
    r"(?P<figure>(?:(?! [-—–]+ |; | \| |  |#)[^\n])*)(?P<rest>[^\n]*)"
)
_KEEPER_WORDS = re.compile(r"^(?: [-—–]+ |; | \| |  |#)\s*")
# Characters a plain scalar may not start with (YAML 1.1's indicators).
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")


@dataclass(frozen=True, slots=True)
class Edit:
    """Bytes `start` to `end` of the text become `text`."""

    start: int
    end: int
    text: str


class RecordFile:
    """One record's file, read for editing: its text and the nodes of the record."""

    def __init__(self, path: Path, record_id: str, text: str | None = None) -> None:
        self.path = path
        self.record_id = record_id
        self.text = path.read_text(encoding="utf-8") if text is None else text
        root, self.data = _parsed(path, self.text)
        self.record = _record_node(root, record_id, path)
        self.edits: list[Edit] = []
        self.expected = _record_data(self.data, record_id)

    @classmethod
    def several(cls, path: Path, record_ids: list[str]) -> list[RecordFile]:
        """One editor per record of one file, the file read and parsed once: their edits
        are all on the same text (`edited` applies any of them), and the data they expect
        is one, so that the file written with all of them is checked once, whole."""
        text = path.read_text(encoding="utf-8")
        root, data = _parsed(path, text)
        editors = []
        for record_id in record_ids:
            editor = cls.__new__(cls)
            editor.path, editor.record_id, editor.text = path, record_id, text
            editor.record = _record_node(root, record_id, path)
            editor.edits, editor.data = [], data
            editor.expected = _record_data(data, record_id)
            editors.append(editor)
        return editors

    def claim_node(self, claim_id: str) -> MappingNode:
        claims = _get(self.record, "claims")
        if isinstance(claims, SequenceNode):
            for item in claims.value:
                if isinstance(item, MappingNode) and _scalar(_get(item, "id")) == claim_id:
                    return item
        known = [c.get("id") for c in self.expected.get("claims") or [] if isinstance(c, dict)]
        raise UnknownClaim(claim_id, [str(k) for k in known if k], owner=self.record_id)

    def set_claim(self, claim_id: str, key: str, value: str) -> None:
        """Give the claim's `key` (an existing one) a new string value, in its own style."""
        node = _get(self.claim_node(claim_id), key)
        if not isinstance(node, ScalarNode):
            raise EvidenceError(f"{self.path}: claim {claim_id!r} has no {key} to replace")
        flow = self._in_flow(node)
        old = self.text[node.start_mark.index : node.end_mark.index]
        if node.style in ("|", ">"):  # a block scalar: written again as a quoted one
            new = yaml_quoted(value) + "\n" * (len(old) - len(old.rstrip("\n")))
        else:
            new = render(value, node.style, flow)
        self.edits.append(Edit(node.start_mark.index, node.end_mark.index, new))
        for claim in self.expected.get("claims") or []:
            if isinstance(claim, dict) and claim.get("id") == claim_id:
                claim[key] = value

    def set_claim_sources(self, claim_id: str, sources: list[str]) -> None:
        """Check the claim on these sources only: its `sources:` replaced, or added after
        its last key, written as its siblings are (a flow list either way)."""
        claim = self.claim_node(claim_id)
        listed = "[" + ", ".join(render(s, None, True) for s in sources) + "]"
        node = _get(claim, "sources")
        if node is not None:
            self.edits.append(Edit(node.start_mark.index, _last_index(node), listed))
        elif claim.flow_style:
            close = self.text.rindex("}", claim.start_mark.index, claim.end_mark.index)
            self.edits.append(Edit(close, close, f", sources: {listed}"))
        else:
            keys = [k for k, _ in claim.value]
            column = keys[-1].start_mark.column
            at = _line_end(self.text, _content_end(self.text, _last_index(claim)))
            line = " " * column + f"sources: {listed}\n"
            if at == len(self.text) and not self.text.endswith("\n"):
                line = "\n" + line.rstrip("\n")
            self.edits.append(Edit(at, at, line))
        for c in self.expected.get("claims") or []:
            if isinstance(c, dict) and c.get("id") == claim_id:
                c["sources"] = list(sources)

    def drop_figure_comment(self, claim_id: str) -> None:
        """Remove the comment `evidence suggest` wrote on the claim's `- id:` line (its
        parsed figure, `# money 4000 USD`): once the quote is another, it is wrong. Words
        a keeper added after it stay."""
        node = _get(self.claim_node(claim_id), "id")
        if not isinstance(node, ScalarNode):
            return
        end = node.end_mark.index
        line_end = self.text.find("\n", end)
        line_end = len(self.text) if line_end < 0 else line_end
        m = _FIGURE_COMMENT.match(self.text, end, line_end)
        if m is not None and m.end() == line_end:
            rest = _KEEPER_WORDS.sub("", m["rest"]).strip()
            self.edits.append(Edit(m.start(), m.end(), f"  # {rest}" if rest else ""))

    def source_node(self, source_id: str) -> MappingNode:
        sources = _get(self.record, "sources")
        if isinstance(sources, SequenceNode):
            for item in sources.value:
                if isinstance(item, MappingNode) and _source_id(item) == source_id:
                    return item
        raise UnknownSource(source_id, self._source_ids(), owner=self.record_id)

    def _source_ids(self) -> list[str]:
        sources = _get(self.record, "sources")
        items = sources.value if isinstance(sources, SequenceNode) else []
        return [i for i in (_source_id(n) for n in items if isinstance(n, MappingNode)) if i]

    def set_source_url(self, source_id: str, url: str) -> None:
        """Give the source another url, written in its own style. A source named by its
        url's slug (no `id:`) is given its id first, so that it stays the same source."""
        item = self.source_node(source_id)
        node = _get(item, "url")
        if not isinstance(node, ScalarNode):
            raise EvidenceError(f"{self.path}: source {source_id!r} has no url to replace")
        flow = self._in_flow(node)
        new = render(url, node.style, flow)
        if _get(item, "id") is None:  # `id: <its slug>` before its url, in its own form
            named = f"id: {render(source_id, None, flow)}"
            key = _key(item, "url")
            if item.flow_style or flow:
                new = f"{named}, url: {new}"
                self.edits.append(Edit(key.start_mark.index, node.end_mark.index, new))
            else:  # a line of its own after the entry's last, lined up with its keys
                self.edits.append(Edit(node.start_mark.index, node.end_mark.index, new))
                at = _line_end(self.text, _content_end(self.text, _last_index(item)))
                line = " " * key.start_mark.column + f"{named}\n"
                if at == len(self.text) and not self.text.endswith("\n"):
                    line = "\n" + line.rstrip("\n")
                self.edits.append(Edit(at, at, line))
        else:
            self.edits.append(Edit(node.start_mark.index, node.end_mark.index, new))
        for source in self.expected.get("sources") or []:
            if isinstance(source, dict) and _data_source_id(source) == source_id:
                source["url"] = url
                source.setdefault("id", source_id)

    def remove_source(self, source_id: str) -> None:
        """Take the source's entry out of the record: its own lines, when it has them."""
        found = self.source_lines(source_id)
        if found is None:
            raise UnknownSource(source_id, self._source_ids(), owner=self.record_id)
        first, last, _, own = found
        if not own:
            raise EvidenceError(
                f"{self.path}: {source_id} is in a list in brackets with other sources: "
                "remove it by hand"
            )
        start = _line_start(self.text, first)
        end = _line_start(self.text, last + 1)
        self.edits.append(Edit(start, end, ""))
        self.expected["sources"] = [
            s
            for s in self.expected.get("sources") or []
            if not (isinstance(s, dict) and _data_source_id(s) == source_id)
        ]

    def source_lines(self, source_id: str) -> tuple[int, int, int, bool] | None:
        """Where a source is written: the first and last line of its entry, the line of
        its url (1-based), and whether those lines are its own (not a list in brackets
        that holds others); None when the record lists no such source."""
        sources = _get(self.record, "sources")
        if not isinstance(sources, SequenceNode):
            return None
        for item in sources.value:
            if isinstance(item, MappingNode) and _source_id(item) == source_id:
                url = _get(item, "url")
                first = item.start_mark.line + 1
                last = self.text.count("\n", 0, _content_end(self.text, _last_index(item))) + 1
                own = not sources.flow_style
                return first, max(first, last), (url or item).start_mark.line + 1, own
        return None

    def add_source(self, source: dict[str, str]) -> None:
        """Append a source after the record's last one, written like it: the same form
        (block or flow), indentation, key order and quoting."""
        sources = _get(self.record, "sources")
        if not isinstance(sources, SequenceNode) or not sources.value:
            raise EvidenceError(f"{self.path}: record {self.record_id!r} has no sources list")
        last = sources.value[-1]
        styles = _styles(last)
        order = [k for k in _keys(last) if k in source] + [
            k for k in source if k not in _keys(last)
        ]
        if sources.flow_style:
            body = ", ".join(f"{k}: {render(source[k], styles.get(k), True)}" for k in order)
            close = self.text.rindex("]", sources.start_mark.index, sources.end_mark.index)
            self.edits.append(Edit(close, close, f", {{{body}}}"))
        else:
            column = last.start_mark.column
            dash = self.text.rindex("-", 0, last.start_mark.index)
            dash_col = dash - (self.text.rfind("\n", 0, dash) + 1)
            at = _line_end(self.text, _last_index(last))
            if isinstance(last, MappingNode) and last.flow_style:
                body = ", ".join(f"{k}: {render(source[k], styles.get(k), True)}" for k in order)
                lines = [" " * dash_col + "-" + " " * (column - dash_col - 1) + f"{{{body}}}"]
            else:
                lines = [
                    (
                        " " * dash_col + "-" + " " * (column - dash_col - 1)
                        if i == 0
                        else " " * column
                    )
                    + f"{k}: {render(source[k], styles.get(k), False)}"
                    for i, k in enumerate(order)
                ]
            text = "\n".join(lines) + "\n"
            if at == len(self.text) and not self.text.endswith("\n"):
                text = "\n" + text.rstrip("\n")
            self.edits.append(Edit(at, at, text))
        self.expected.setdefault("sources", []).append(dict(source))

    def new_text(self) -> str:
        """The file with every edit made; checked to read as the data with the changes."""
        return written_together([self])

    def _in_flow(self, node: Node) -> bool:
        return _inside_flow(self.record, node)


def written_together(editors: list[RecordFile]) -> str:
    """The file with the edits of every editor made (editors of one file, from
    `RecordFile.several`); checked once to read as the data with all the changes."""
    first = editors[0]
    text = edited(first.text, [e for editor in editors for e in editor.edits])
    if _data(text, first.path) != first.data:
        raise EvidenceError(
            f"{first.path}: could not write the change without altering the rest of the "
            "file; make it by hand"
        )
    return text


def edited(text: str, edits: list[Edit]) -> str:
    """The text with the edits made (each on the text as it was, none overlapping)."""
    for e in sorted(edits, key=lambda e: e.start, reverse=True):
        text = text[: e.start] + e.text + text[e.end :]
    return text


def dead_source_step(path: Path, record_id: str, source_id: str) -> str:
    """The next step for a dead source, with the exact lines: fix its url, remove its
    entry, or read its archived copy."""
    try:
        found = RecordFile(path, record_id).source_lines(source_id)
    except (OSError, EvidenceError):
        found = None
    if found is None:
        return f"fix or remove the url of {source_id} in {path}"
    first, last, url, own = found
    lines = f"line {first}" if first == last else f"lines {first}-{last}"
    remove = f"remove {lines} of {path}" if own else f"remove its entry from line {first}"
    return (
        f"fix its url ({path}:{url}), {remove} (and {source_id} from any claim's "
        "`sources:`), or read its archived copy: set `fetch.archive_fallback`"
    )


def render(value: str, style: str | None, flow: bool) -> str:
    """A string as a YAML scalar: in `style` ('"', "'" or None for plain) when that style
    can hold it, else double-quoted."""
    printable = not _UNPRINTABLE.search(value)
    if style == "'" and "\n" not in value and printable:
        return "'" + value.replace("'", "''") + "'"
    if style is None and printable and _plain_ok(value, flow):
        return value
    return yaml_quoted(value)


# What YAML's double-quoted scalars must escape beyond what JSON does: characters outside
# YAML's printable set (C1 controls, DEL, surrogates, U+FFFE/FFFF) and those some readers
# take for line breaks (NEL, the Unicode line and paragraph separators) or skip (BOM).
_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]"
)


def yaml_quoted(value: str) -> str:
    """A string as a double-quoted YAML scalar that every YAML reader (libyaml, pure-Python
    PyYAML, ruamel.yaml) reads back as the same string."""
    quoted = json.dumps(value, ensure_ascii=False)  # JSON strings are YAML double-quoted ones
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)


def _plain_ok(value: str, flow: bool) -> bool:
    """Whether `value` may be written plain: it starts with no indicator and reads back
    the same in a block mapping and, in a flow one, there too, by pure-Python PyYAML as
    by libyaml."""
    if (
        not value
        or value != value.strip()
        or "\n" in value
        or value[0] in _INDICATORS
        or (flow and _FLOW_UNSAFE.search(value))
    ):
        return False
    docs = [f"k: {value}\n"] + ([f"{{k: {value}}}\n"] if flow else [])
    loaders = [pyyaml.SafeLoader, getattr(pyyaml, "CSafeLoader", pyyaml.SafeLoader)]
    try:
        return all(pyyaml.load(d, Loader=L) == {"k": value} for d in docs for L in loaders)
    except pyyaml.YAMLError:
        return False


def diff_text(path: Path, before: str, after: str) -> str:
    """A unified diff of the file, as git shows one."""
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            f"a/{str(path).lstrip('/')}",
            f"b/{str(path).lstrip('/')}",
        )
    )


def write_atomically(path: Path, text: str) -> None:
    """Replace the file with `text` whole or not at all: written beside it, fsynced,
    renamed over it (its mode kept)."""
    target = path.resolve()
    mode = target.stat().st_mode & 0o7777 if target.exists() else 0o644
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    dir_fd = os.open(target.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)  # the rename itself survives a crash
    finally:
        os.close(dir_fd)


def file_digest(path: Path) -> str:
    """The digest of a file's bytes: whether it changed since it was read."""
    try:
        return hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()
    except OSError:
        return ""  # gone: differs from any digest of its bytes


def _parsed(path: Path, text: str) -> tuple[Node | None, Any]:
    """The file's nodes (where each starts and ends, how it is quoted) and its data."""
    try:
        root = YAML().compose(text)
    except YAMLError as e:
        raise EvidenceError(f"{path}: unparseable YAML ({e}); fix it first") from None
    return root, _data(text, path)


def _data(text: str, path: Path) -> Any:
    data, _ = load_yaml(path, text.encode("utf-8"))
    return data


def _record_data(data: Any, record_id: str) -> dict:
    items = data if isinstance(data, list) else [data]
    return next(r for r in items if isinstance(r, dict) and r.get("id") == record_id)


def _record_node(root: Node | None, record_id: str, path: Path) -> MappingNode:
    items = root.value if isinstance(root, SequenceNode) else [root]
    for item in items:
        if isinstance(item, MappingNode) and _scalar(_get(item, "id")) == record_id:
            return item
    raise UnknownRecord(record_id, where=str(path))


def _key(node: MappingNode, key: str) -> Node:
    return next(k for k, _ in node.value if isinstance(k, ScalarNode) and k.value == key)


def _get(node: Node | None, key: str) -> Node | None:
    if isinstance(node, MappingNode):
        for k, v in node.value:
            if isinstance(k, ScalarNode) and k.value == key:
                return v
    return None


def _scalar(node: Node | None) -> str | None:
    return str(node.value) if isinstance(node, ScalarNode) else None


def _keys(node: Node) -> list[str]:
    return [k.value for k, _ in node.value] if isinstance(node, MappingNode) else []


def _styles(node: Node) -> dict[str, str | None]:
    """How a mapping's string values are quoted, by key; its URLs' style for `url`."""
    if not isinstance(node, MappingNode):
        return {}
    return {k.value: v.style for k, v in node.value if isinstance(v, ScalarNode)}


def _last_index(node: Node) -> int:
    """Where the node's last scalar (or closing bracket) ends."""
    if isinstance(node, ScalarNode) or getattr(node, "flow_style", False):
        return int(node.end_mark.index)
    children = [v for _, v in node.value] if isinstance(node, MappingNode) else node.value
    return _last_index(children[-1]) if children else int(node.start_mark.index)


def _source_id(node: MappingNode) -> str | None:
    """A source's id as the catalog gives it: its `id:`, else the slug of its url."""
    return _scalar(_get(node, "id")) or (
        source_slug(url) if (url := _scalar(_get(node, "url"))) else None
    )


def _data_source_id(source: dict) -> str | None:
    given = source.get("id")
    return str(given) if given else source_slug(str(source.get("url") or ""))


def _content_end(text: str, index: int) -> int:
    """Where a node's text ends, a block scalar's closing line breaks left out (its end
    mark is the start of the next line)."""
    while index > 0 and text[index - 1] == "\n":
        index -= 1
    return index


def _line_start(text: str, line: int) -> int:
    """Where 1-based line `line` starts (the text's end past its last line)."""
    at = 0
    for _ in range(line - 1):
        at = text.find("\n", at)
        if at < 0:
            return len(text)
        at += 1
    return at


def _line_end(text: str, index: int) -> int:
    end = text.find("\n", index)
    return len(text) if end < 0 else end + 1


def _inside_flow(root: Node, target: Node) -> bool:
    """Whether `target` sits inside a flow collection under `root`."""

    def walk(node: Node, flow: bool) -> bool | None:
        if node is target:
            return flow
        here = flow or bool(getattr(node, "flow_style", False))
        if isinstance(node, MappingNode):
            children = [c for pair in node.value for c in pair]
        elif isinstance(node, SequenceNode):
            children = node.value
        else:
            return None
        for child in children:
            found = walk(child, here)
            if found is not None:
                return found
        return None

    return bool(walk(root, False))
