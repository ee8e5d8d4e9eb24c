"""A proposal's pull request, in Markdown: the plan's grade moves, the word diff of each
page that moved, a link to each record's page, and a checklist of what no page settles.
Under the forge's limit on a body: past it, the rest is counted and named, never cut
mid-line."""

from __future__ import annotations

import re

from evidence_cli.diff import diff_report
from evidence_cli.plan import render_plan
from flows.commands.propose import Proposal
from warehouse.db import Connection

MAX_BODY = 65_536  # characters GitHub takes in a pull request's body
RESERVE = 2_000  # kept for the closing lines whatever the diffs take


def title(p: Proposal) -> str:
    n = len(p.items)
    records = len({i.proposed.record_id for i in p.items})
    return f"evidence: {n} claim(s) of {records} record(s) take their pages' wording"


def body(
    p: Proposal, con: Connection, site_url: str | None = None, desk_url: str | None = None
) -> str:
    out = Budget(MAX_BODY)
    out.add(
        [
            f"**evidence propose**: {len(p.items)} claim(s) take the wording of their pages, "
            f"one commit per record on `{p.branch}` (from `{p.base}`). Each quote's line "
            "changes, nothing else; `evidence check` and `evidence plan` run on this branch "
            "as on any other.",
            "",
        ]
    )
    if p.plan is not None:
        out.add([*render_plan(p.plan, "markdown").splitlines(), ""])
    out.add(["### What the pages say now", ""])
    pages: dict[tuple[str, str], list[str]] = {}
    for item in p.items:
        key = (item.proposed.record_id, item.proposed.source_id)
        pages.setdefault(key, []).append(f"`{item.proposed.claim_id}` {item.what}")
    left = list(pages.items())
    while left:
        (record_id, source_id), claims = left[0]
        block = [f"#### `{record_id}` on `{source_id}`: {'; '.join(claims)}"]
        links = [
            f"[{name}]({base.rstrip('/')}/records/{record_id}{suffix})"
            for name, base, suffix in (("site", site_url, ".html"), ("desk", desk_url, ""))
            if base
        ]
        if links:
            block.append("The record's page: " + " · ".join(links))
        words = diff_report(con, record_id, source_id, None, None, colour=False)
        fence = _fence(words)
        block += ["", fence + "text", *words.splitlines(), fence, ""]
        if not out.fits(block, RESERVE):
            break
        out.add(block)
        left.pop(0)
    if left:
        out.add(
            [
                f"…and the word diffs of {len(left)} more page(s): `evidence diff RECORD "
                "SOURCE` shows each.",
                "",
            ]
        )
    if p.unsettled:
        out.add(["### What no page settles", ""])
        shown = 0
        for q in p.unsettled:
            said = f"{_flat(q.what)} — {_flat(q.command)}"
            line = f"- [ ] `{q.record_id}` {q.item or ''} ({q.kind}): {said}"
            if not out.fits([line], 200):
                break
            out.add([line])
            shown += 1
        if shown < len(p.unsettled):
            out.add([f"- …and {len(p.unsettled) - shown} more: `evidence review` lists them"])
    if p.skipped:
        out.add(["", f"{p.skipped} item(s) declined in an earlier pull request are left out."])
    return out.text()


def _fence(text: str) -> str:
    """A code fence longer than any run of backticks in the text: a page's words never
    close it (and never reach the pull request as Markdown)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(4, longest + 1)


def _flat(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


class Budget:
    """Lines added whole while they fit in `limit` characters."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.lines: list[str] = []
        self.size = 0

    def fits(self, lines: list[str], reserve: int = 0) -> bool:
        return self.size + sum(len(line) + 1 for line in lines) <= self.limit - reserve

    def add(self, lines: list[str]) -> None:
        if not self.fits(lines):
            return
        self.lines += lines
        self.size += sum(len(line) + 1 for line in lines)

    def text(self) -> str:
        return "\n".join(self.lines).rstrip("\n") + "\n"
