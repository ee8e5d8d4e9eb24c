from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from flows.runtime import configure_prefect  # noqa: E402

configure_prefect()
# Each command a test runs starts a Prefect server of its own, which dies with it; the
# tests of the shared server (test_shared_server.py) ask for that one.
os.environ["EVIDENCE_PREFECT_SERVER"] = "temporary"
os.environ.pop("EVIDENCE_NOW", None)
os.environ.pop("EVIDENCE_DB", None)
os.environ.pop("EVIDENCE_CONFIG", None)

from servers import WebServer  # noqa: E402
from store_support import Warehouse  # noqa: E402


@pytest.fixture
def web() -> Iterator[WebServer]:
    server = WebServer().start()
    yield server
    server.stop()


@pytest.fixture
def wh(tmp_path: Path) -> Iterator[Warehouse]:
    """A warehouse filled row by row through the store layer (tests/store_support.py)."""
    w = Warehouse(tmp_path / "w.duckdb")
    yield w
    if w.con is not None:
        w.con.close()


@pytest.fixture(scope="session")
def prefect_harness() -> Iterator[None]:
    """One temporary Prefect server for the whole session (it costs seconds to start)."""
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield
