"""A catalog on disk and a warehouse that has read its pages, stored through the same
steps a refresh takes after fetching (no server, no flow): for tests of `evidence
review` and `evidence update`."""

from __future__ import annotations

import copy
import hashlib
import shutil
import textwrap
import zlib
from datetime import UTC, datetime
from pathlib import Path

from extractors.values import Outcome
from extractors.version import EXTRACTOR_VERSION
from flows.catalog import load_catalog
from flows.checks import check_claims
from flows.planning import catalog_rows, keeping_rows
from warehouse import keeping, store
from warehouse.db import session
from warehouse.rows import FetchRow, PageRow

T0 = datetime(2026, 11, 4, 6, 0, tzinfo=UTC)


class Kept:
    """config/records/r.yaml and w.duckdb under `root`."""

    def __init__(self, root: Path, records: str) -> None:
        self.root = root
        self.config = root / "config"
        (self.config / "records").mkdir(parents=True)
        self.file = self.config / "records" / "r.yaml"
        self.file.write_text(textwrap.dedent(records))
        self.db = root / "w.duckdb"
        (self.config / "settings.yaml").write_text(f"database: {self.db}\n")
        self.states: dict = {}
        self.runs = 0
        self.now = T0  # the time of the newest refresh

    def copy_to(self, root: Path) -> Kept:
        """The same catalog and database under another root (a test's own copy)."""
        shutil.copytree(self.config, root / "config")
        for stored in self.root.glob("w.duckdb*"):
            shutil.copy(stored, root / stored.name)
        other = copy.copy(self)
        other.states = copy.deepcopy(self.states)
        other.root, other.config, other.db = root, root / "config", root / "w.duckdb"
        other.file = other.config / "records" / "r.yaml"
        (other.config / "settings.yaml").write_text(f"database: {other.db}\n")
        return other

    def args(self, *argv: str) -> list[str]:
        return [*argv, "--config", str(self.config), "--db", str(self.db)]

    def refresh(self, pages: dict[str, str | int], at: datetime = T0) -> None:
        """A refresh in which each named source's page reads `text` (or fails with that
        HTTP status): the catalog stored, pages kept, claims checked, records graded."""
        catalog = load_catalog(self.config)
        urls = {(r.id, s.source_id): s.url for r in catalog.records for s in r.config.sources}
        self.runs += 1
        self.now = at
        with session(self.db, now=at) as con:
            store.sync_catalog(con, *catalog_rows(catalog))
            keeping.sync_keeping(con, *keeping_rows(catalog))
            new_pages, fetches = [], []
            for (record_id, source_id), url in urls.items():
                if source_id not in pages:
                    continue
                page = pages[source_id]
                if isinstance(page, int):
                    fetches.append(
                        FetchRow(
                            record_id=record_id,
                            source_id=source_id,
                            url=url,
                            started_at=at,
                            elapsed_ms=5,
                            outcome=Outcome.HTTP_ERROR,
                            http_status=page,
                            error=f"HTTP {page}",
                        )
                    )
                    continue
                digest = hashlib.sha256(page.encode()).hexdigest()
                new_pages.append(
                    PageRow(
                        content_hash=digest,
                        body_z=zlib.compress(page.encode()),
                        size=len(page),
                        content_type="text/html",
                        encoding="utf-8",
                        title=None,
                        text=page,
                        extractor_version=EXTRACTOR_VERSION,
                        numbers=(),
                        statuses=(),
                    )
                )
                fetches.append(
                    FetchRow(
                        record_id=record_id,
                        source_id=source_id,
                        url=url,
                        started_at=at,
                        elapsed_ms=5,
                        outcome=Outcome.OK,
                        http_status=200,
                        content_hash=digest,
                    )
                )
            written = store.write_fetches(con, f"run{self.runs}", new_pages, fetches, self.states)
            self.states.update(written.states)
            check_claims(con)
            store.grade_all(con)

    def record(self) -> tuple[str, str]:
        with session(self.db, read_only=True, now=self.now) as con:
            got = keeping.record_grade(con, "r")
        assert got is not None
        return got

    def queue(self, at: datetime = T0) -> list[keeping.QueueItem]:
        with session(self.db, read_only=True, now=at) as con:
            return keeping.review_queue(con, at)
