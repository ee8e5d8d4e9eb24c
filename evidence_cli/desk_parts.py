"""What the desk's pages show beyond the site's: what the index finds, a word diff as
HTML, and Check now's refresh of one source with its output as it comes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass

from markupsafe import Markup, escape

from evidence_cli.desk_guard import DeskConfig
from extractors.printable import one_line
from flows.commands import pages
from warehouse.keeping import QueueItem


@dataclass(frozen=True, slots=True)
class Find:
    """What the desk's index shows: the queue and the records, filtered by a grade, an
    item's kind, failing sources and words (in an id, a title or what happened)."""

    grade: str = ""
    kind: str = ""
    failing: bool = False
    text: str = ""

    @classmethod
    def of(cls, query: Mapping[str, str]) -> Find:
        def given(name: str) -> str:
            return " ".join(str(query.get(name) or "").split())[:200]

        return cls(given("grade"), given("kind"), given("failing") in ("1", "on"), given("q"))

    def _has(self, *texts: object) -> bool:
        words = self.text.casefold()
        return not words or any(words in str(t or "").casefold() for t in texts)

    def takes_item(self, q: QueueItem) -> bool:
        failing = q.kind in ("dead", "unreachable")
        return (
            (not self.kind or q.kind == self.kind)
            and (not self.failing or failing)
            and self._has(q.record_id, q.item, q.what)
        )

    def takes_record(self, r: pages.IndexRow) -> bool:
        return (
            (not self.grade or r.grade == self.grade)
            and (not self.failing or r.unreachable > 0)
            and self._has(r.record_id, r.title)
        )


# A word diff's marks (`[-gone-]`, `{+new+}`), each within its line: bounded, so a page
# full of unclosed marks costs a line's length per mark at most.
_MARK = re.compile(r"\[-([^\n]{0,4000}?)-\]|\{\+([^\n]{0,4000}?)\+\}")


def diff_run(op: str, text: str, shown: str) -> Markup:
    """A run of a word diff as HTML, when its side shows it: kept text as text, removed
    text as <del>, added as <ins>."""
    if op not in shown:
        return Markup("")
    if op == "-":
        return Markup("<del>{}</del>").format(text)
    if op == "+":
        return Markup("<ins>{}</ins>").format(text)
    return Markup("{}").format(text)


def marked(diff: str) -> Markup:
    """A word diff as HTML: deletions and insertions as <del> and <ins>, all else text."""
    out: list[str] = []
    pos = 0
    for m in _MARK.finditer(diff):
        out.append(escape(diff[pos : m.start()]))
        gone, new = m.group(1), m.group(2)
        out.append(Markup("<del>{}</del>").format(gone) if gone is not None else "")
        out.append(Markup("<ins>{}</ins>").format(new) if new is not None else "")
        pos = m.end()
    out.append(escape(diff[pos:]))
    return Markup("").join(out)


class CheckRun:
    """`evidence refresh --source RECORD/SOURCE` in a process of its own, its output kept
    line by line as it comes (the desk's page reads it again each second until it ends)."""

    MAX_LINES = 200

    def __init__(self, record_id: str, source_id: str, proc: subprocess.Popen[str]) -> None:
        self.record_id, self.source_id, self.proc = record_id, source_id, proc
        self._lines: list[str] = []
        self._lock = threading.Lock()
        self.code: int | None = None
        threading.Thread(target=self._read, daemon=True, name="desk-check").start()

    @classmethod
    def start(cls, record_id: str, source_id: str, cfg: DeskConfig) -> CheckRun:
        env = {k: v for k, v in os.environ.items() if k != "EVIDENCE_UI_TOKEN"}
        command = [sys.executable, "-m", "evidence_cli", "refresh", "--source"]
        command += [f"{record_id}/{source_id}", "--config", str(cfg.config_dir)]
        command += ["--db", str(cfg.db)]
        proc = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
            errors="replace",
            env=env,
        )
        return cls(record_id, source_id, proc)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._lock:
                self._lines.append(one_line(line.rstrip("\n")))
                del self._lines[: -self.MAX_LINES]
        self.code = self.proc.wait()

    def lines(self) -> list[str]:
        with self._lock:
            return list(self._lines)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
