"""Killed at a moment the test can name, a refresh keeps the last complete state.

The refresh stops at a pause point (evidence_base/pause.py: inert unless EVIDENCE_PAUSE_DIR
arms it) inside the extraction of a page (a pool worker), inside a batch's write
transaction, or inside the grading transaction (where the claims' values over time are
written, and at its end), and is killed there with SIGKILL. What
a user can read afterwards is compared with what the refresh before it left.
"""

from __future__ import annotations

import shutil
import signal
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from servers import Page, WebServer
from support import wait_paused

from warehouse.db import connect

from .conftest import start_refresh, write_catalog

if TYPE_CHECKING:
    from conftest import SessionPrefect
from .test_kill import check_consistent, orphans

SOURCES = 30
T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
T1 = T0 + timedelta(days=1)
VIEWS = (
    "record_status",
    "claim_status",
    "claim_checks",
    "snapshots",
    "quoted_numbers",
    "fetches",
    "source_health",
    "grade_history",
    "claim_values",
)
GRADES = ("record_status", "claim_status", "grade_history", "claim_values")


def state(db: Path) -> dict[str, list[tuple]]:
    """Every view, read at T1 (freshness depends on when it is read)."""
    con = connect(db, read_only=True, now=T1)
    try:
        return {
            v: sorted(
                con.execute(f"SELECT * FROM {v}").fetchall(),  # noqa: S608 (our names)
                key=lambda row: tuple((x is None, str(x)) for x in row),
            )
            for v in VIEWS
        }
    finally:
        con.close()


def refresh_at(config: Path, at: datetime, **env: str) -> None:
    proc = start_refresh(config, EVIDENCE_NOW=at.isoformat(), **env)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err


@pytest.fixture(scope="module")
def first_day(
    tmp_path_factory: pytest.TempPathFactory, session_prefect: SessionPrefect
) -> Iterator[tuple[WebServer, Path, dict]]:
    """The first day's refresh, made once for the module: its server, folder and pages."""
    web = WebServer().start()
    root = tmp_path_factory.mktemp("first-day")
    config = write_catalog(root, web, SOURCES)
    refresh_at(config, T0, PREFECT_API_URL=session_prefect.start())
    yield web, root, dict(web.routes)
    web.stop()


@pytest.fixture
def day_one(first_day: tuple[WebServer, Path, dict], tmp_path: Path) -> tuple[WebServer, Path]:
    """A copy of the first day's catalog and database for one test, its pages as they were."""
    web, root, pages = first_day
    web.routes.clear()
    web.routes.update(pages)
    shutil.copytree(root / "config", tmp_path / "config")
    for stored in root.glob("w.duckdb*"):
        shutil.copy(stored, tmp_path / stored.name)
    settings = tmp_path / "config" / "settings.yaml"
    settings.write_text(settings.read_text().replace(str(root), str(tmp_path)))
    return web, tmp_path / "config"


@pytest.mark.slow
@pytest.mark.parametrize("point", ["extract", "write", "values", "grade"])
def test_killed_inside_a_step_keeps_the_last_complete_state(
    day_one: tuple[WebServer, Path], tmp_path: Path, point: str
) -> None:
    web, config = day_one
    db = tmp_path / "w.duckdb"
    before = state(db)
    # The primaries of half the records now show other figures: the next refresh has new
    # pages to read and store, and grades to move (documented -> contradicted).
    for r in range(0, SOURCES // 5, 2):
        web.routes[f"/r{r}/s0"] = Page(
            f"<html><main><p>Record {r} offers {r * 10 + 500} seats to students this year."
            f"</p></main></html>"
        )
    pause = tmp_path / "pause"
    pause.mkdir()
    (pause / f"{point}.armed").touch()
    proc = start_refresh(config, EVIDENCE_NOW=T1.isoformat(), EVIDENCE_PAUSE_DIR=str(pause))
    try:
        paused = wait_paused(pause, point, proc)
        # the step is under way: paused in the refresh (writing, grading) or in one of
        # its pool workers (extracting), which is not the refresh itself
        assert (paused == proc.pid) == (point != "extract"), (paused, proc.pid)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL  # died by the signal, not by finishing
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and orphans(proc.pid):
        time.sleep(0.2)
    assert orphans(proc.pid) == []  # the paused worker went with it
    check_consistent(db)
    after = state(db)
    if point in ("values", "grade"):
        # every batch was stored; the grading transaction never committed (killed with
        # the claims' new values written in it, or at its end): grades and values are
        # the last complete grading's, while the new snapshots are there
        assert {v: after[v] for v in GRADES} == {v: before[v] for v in GRADES}
        assert len(after["snapshots"]) == len(before["snapshots"]) + SOURCES // 10
    else:
        assert after == before  # nothing of the killed refresh is visible
    refresh_at(config, T1)  # and the next one catches up
    con = connect(db, read_only=True, now=T1)
    try:
        grades = dict(con.execute("SELECT record_id, grade FROM record_status").fetchall())
    finally:
        con.close()
    assert grades == {
        f"r{r}": "contradicted" if r % 2 == 0 else "documented" for r in range(SOURCES // 5)
    }
