"""What `evidence propose` proposed, kept in the database (migration 021): the commit each
proposal left its branch at, the pull request it opened, and the items it carried; a pull
request closed without merging declines its items until the page's words move again."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import duckdb

from warehouse.db import transaction


@dataclass(frozen=True, slots=True)
class Proposed:
    """One item a proposal carries: a claim's new quote, taken from a source's page."""

    record_id: str
    claim_id: str
    source_id: str
    words: str


@dataclass(frozen=True, slots=True)
class LastProposal:
    head_commit: str
    base_commit: str
    pull_request: int | None


def last_proposal(con: duckdb.DuckDBPyConnection, branch: str) -> LastProposal | None:
    row = con.execute(
        "SELECT head_commit, base_commit, pull_request FROM store.proposals WHERE branch = ?"
        " ORDER BY proposed_at DESC LIMIT 1",
        [branch],
    ).fetchone()
    return LastProposal(*row) if row else None


def note_proposal(
    con: duckdb.DuckDBPyConnection,
    branch: str,
    head: str,
    base: str,
    items: list[Proposed],
    now: datetime,
) -> None:
    """A proposal as its branch now stands (the one before it carried forward: its pull
    request is the same one, updated in place)."""
    before = last_proposal(con, branch)
    with transaction(con):
        con.execute(
            "INSERT INTO store.proposals VALUES (?, ?, ?, ?, ?, NULL)",
            [branch, head, base, now, before.pull_request if before else None],
        )
        con.executemany(
            "INSERT INTO store.proposal_items VALUES (?, ?, ?, ?, ?, ?, NULL)",
            [[branch, head, i.record_id, i.claim_id, i.source_id, i.words] for i in items],
        )


def note_pull_request(
    con: duckdb.DuckDBPyConnection, branch: str, head: str, number: int, url: str
) -> None:
    con.execute(
        "UPDATE store.proposals SET pull_request = ?, pull_url = ?"
        " WHERE branch = ? AND head_commit = ?",
        [number, url, branch, head],
    )


def decline(con: duckdb.DuckDBPyConnection, branch: str, head: str, now: datetime) -> int:
    """The proposal that left the branch at `head` was closed without merging: its items
    are not proposed again (until their page's words move); how many were declined now."""
    (n,) = con.execute(
        "SELECT count(*) FROM store.proposal_items"
        " WHERE branch = ? AND head_commit = ? AND declined_at IS NULL",
        [branch, head],
    ).fetchone() or (0,)
    con.execute(
        "UPDATE store.proposal_items SET declined_at = ?"
        " WHERE branch = ? AND head_commit = ? AND declined_at IS NULL",
        [now, branch, head],
    )
    return int(n)  # (those declined now: a second look at the same closing says none)


def items_of(con: duckdb.DuckDBPyConnection, branch: str, head: str) -> set[Proposed]:
    """The items of the proposal that left the branch at `head`."""
    return {
        Proposed(*row)
        for row in con.execute(
            "SELECT record_id, claim_id, source_id, words FROM store.proposal_items"
            " WHERE branch = ? AND head_commit = ?",
            [branch, head],
        ).fetchall()
    }


def declined(con: duckdb.DuckDBPyConnection) -> set[Proposed]:
    """Every item a person declined: the same words from the same page are not proposed
    again."""
    return {
        Proposed(*row)
        for row in con.execute(
            "SELECT record_id, claim_id, source_id, words FROM store.proposal_items"
            " WHERE declined_at IS NOT NULL"
        ).fetchall()
    }
