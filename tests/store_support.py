"""A warehouse filled row by row through the store layer, for tests of the steps after
fetching (claim checks, reviews, grading) that need no server and no flow."""

from __future__ import annotations

import zlib
from datetime import UTC, datetime
from pathlib import Path

from extractors.numbers import extract_numbers
from extractors.statuses import extract_statuses
from extractors.version import EXTRACTOR_VERSION
from warehouse import store
from warehouse.db import connect, set_now
from warehouse.rows import CheckRow, ClaimRow, FetchRow, PageRow, RecordRow, SourceRow

T0 = datetime(2026, 11, 4, 6, 0, tzinfo=UTC)
ROLES = {"p": "primary", "p2": "primary", "t": "third-party", "t2": "third-party"}


class Warehouse:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.con = connect(path, now=T0)
        self.states: dict = {}
        self.runs = 0

    def catalog(
        self,
        claims: dict[str, list[str] | None],
        sources: list[str],
        window_d: int = 15,
        record: str = "r",
        quotes: dict[str, str] | None = None,
    ) -> None:
        store.sync_catalog(
            self.con,
            [RecordRow(record, "A record", window_d * 86400, (("cost", "free"),), "r.yaml")],
            [SourceRow(record, s, f"https://example.org/{s}", ROLES[s]) for s in sources],
            [
                ClaimRow(
                    record,
                    c,
                    (quotes or {}).get(c, f"quote {c}"),
                    None,
                    tuple(only) if only else None,
                )
                for c, only in claims.items()
            ],
        )

    def fetch(
        self,
        source: str,
        at: datetime,
        outcome: str = "ok",
        body: str = "v1",
        via: str = "live",
        fetched_at: datetime | None = None,
        record: str = "r",
        read: bool = False,
    ) -> int | None:
        """Store one fetch; `read`: the page's figures and statuses with it, as a refresh
        reads them (else none). The snapshot's id, or None when it made none."""
        self.runs += 1
        digest = f"{source}-{body}"
        raw = body.encode()
        page = PageRow(
            content_hash=digest,
            body_z=zlib.compress(raw),
            size=len(raw),
            content_type="text/html",
            encoding="utf-8",
            title=None,
            text=body,
            extractor_version=EXTRACTOR_VERSION,
            numbers=tuple(extract_numbers(body, at)) if read else (),
            statuses=tuple(extract_statuses(body)) if read else (),
        )
        row = FetchRow(
            record_id=record,
            source_id=source,
            url=f"https://example.org/{source}",
            started_at=at,
            elapsed_ms=5,
            outcome=outcome,
            http_status=200 if outcome == "ok" else (304 if outcome == "not_modified" else 503),
            error=None if outcome in ("ok", "not_modified") else "HTTP 503",
            via=via,
            fetched_at=fetched_at or at,
            content_hash=digest if outcome == "ok" else None,
        )
        written = store.write_fetches(
            self.con, f"run{self.runs}", [page] if outcome == "ok" else [], [row], self.states
        )
        self.states.update(written.states)
        if via == "archived":
            return self.con.execute("SELECT max(snapshot_id) FROM store.snapshots").fetchone()[0]
        state = self.states.get((record, source))
        return state.snapshot_id if state else None

    def check(
        self,
        claim: str,
        source: str,
        snapshot_id: int,
        outcome: str,
        values: tuple[float, ...] = (),
        record: str = "r",
    ) -> None:
        store.write_checks(
            self.con,
            [CheckRow(record, claim, source, snapshot_id, f"quote {claim}", outcome, None, values)],
        )

    def grade(self, now: datetime) -> None:
        set_now(self.con, now)
        store.grade_all(self.con)

    def claim(self, claim: str) -> dict:
        cur = self.con.execute("SELECT * FROM claim_status WHERE claim_id = ?", [claim])
        return dict(zip([d[0] for d in cur.description], cur.fetchone(), strict=True))

    def record(self, record: str = "r") -> dict:
        cur = self.con.execute("SELECT * FROM record_status WHERE record_id = ?", [record])
        return dict(zip([d[0] for d in cur.description], cur.fetchone(), strict=True))
