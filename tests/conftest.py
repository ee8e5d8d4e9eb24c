from __future__ import annotations

import fcntl
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from flows.runtime import configure_prefect  # noqa: E402

configure_prefect()
# Each command a test runs starts a Prefect server of its own, which dies with it; the
# tests of the shared server (test_shared_server.py) ask for that one.
os.environ["EVIDENCE_PREFECT_SERVER"] = "temporary"
os.environ.pop("EVIDENCE_NOW", None)
# Each xdist worker a temporary directory of its own, for what it and the processes it
# starts leave there (browser profiles): a test that looks for leftovers sees its own.
if os.environ.get("PYTEST_XDIST_WORKER"):
    import atexit

    _own_tmp = Path(tempfile.mkdtemp(prefix=f"evidence-{os.environ['PYTEST_XDIST_WORKER']}-"))
    os.environ["TMPDIR"] = str(_own_tmp)
    tempfile.tempdir = None  # (read TMPDIR again)
    atexit.register(shutil.rmtree, _own_tmp, ignore_errors=True)
os.environ.pop("EVIDENCE_DB", None)
os.environ.pop("EVIDENCE_CONFIG", None)
# The commands the tests start read the project's compiled bytecode: on a machine that
# sets PYTHONDONTWRITEBYTECODE, each of them would compile every module again.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

from servers import WebServer  # noqa: E402
from store_support import Warehouse  # noqa: E402

if TYPE_CHECKING:
    from flows.runtime.prefect_server import TemporaryServer


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


# A Prefect database migrated once a run, copied where a server must start migrated.
TEMPLATE = "prefect-migrated.db"
TEMPLATE_LOCK = "prefect-migrated.lock"


class SessionPrefect:
    """One Prefect API server for the whole session (one per xdist worker), in a
    PREFECT_HOME of its own, started when a test first needs it: every flow run of the
    session, in this process and in the commands tests start, talks to it."""

    def __init__(self, home: Path, shared: Path) -> None:
        self.home = home
        self.shared = shared  # the run's directory, shared by every xdist worker
        self.server: object = None
        self.url = ""

    def start(self) -> str:
        """The server's URL, starting it first. Its database starts as a copy of one
        already migrated: the first worker migrates a database and keeps a copy while
        the others wait, so that the run migrates once, not once per worker. Under xdist
        the run's controller has started one server for every worker (`RunPrefect`):
        the workers wait for it instead."""
        if self.url:
            return self.url
        if os.environ.get(RunPrefect.URL):
            self.url = RunPrefect.wait_ready(self.shared)
            return self.url
        template = self.shared / TEMPLATE
        with (self.shared / TEMPLATE_LOCK).open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # (released when the file closes)
            if template.exists():
                _copy_database(template, self.home / "prefect.db")
            self._start()
            if not template.exists():
                _copy_database(self.home / "prefect.db", template.with_suffix(".part"))
                template.with_suffix(".part").rename(template)
        return self.url

    def migrated_home(self, home: Path) -> Path:
        """home made a PREFECT_HOME whose database is already migrated (a copy of the
        run's): a server a test starts there, as a user's second start would, skips the
        migration. The tests of a first start on a new home (test_prefect_server.py, and
        every worker's own session server) still migrate."""
        self.start()  # (the copy is made at the first start of any worker's server)
        home.mkdir(parents=True, exist_ok=True)
        _copy_database(self.shared / TEMPLATE, home / "prefect.db")
        return home

    def _start(self) -> None:
        from flows.runtime.prefect_server import TemporaryServer

        with _test_server_env(self.home):  # its database, not ~/.prefect
            server = TemporaryServer().start()
        self.server = server
        failed = _wait_answers(server, "the session's Prefect server")
        if failed:
            pytest.fail(failed)
        self.url = server.api_url

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()  # type: ignore[attr-defined]


class RunPrefect:
    """One Prefect API server for a whole xdist run, started by the controller before
    its workers and stopped after them: a server per worker cost each its start and
    its idle services. The workers find it through the environment they inherit, and
    use it once the controller has kept a copy of its freshly migrated database (the
    template `migrated_prefect_home` copies), so that the copy holds no run."""

    URL = "PIPELINE_TESTS_PREFECT_API"
    SHARED = "PIPELINE_TESTS_SHARED_DIR"
    FAILED = "prefect-failed.txt"

    def __init__(self) -> None:
        from flows.runtime.prefect_server import TemporaryServer

        self.shared = Path(tempfile.mkdtemp(prefix="evidence-tests-"))
        with _test_server_env(self.shared / "prefect-home"):
            # started from the main thread: the server dies with the thread that forked it
            self.server = TemporaryServer().start()
        os.environ[self.URL] = self.server.api_url
        os.environ[self.SHARED] = str(self.shared)
        threading.Thread(target=self._keep_template, name="run-prefect", daemon=True).start()

    def _keep_template(self) -> None:
        failed = _wait_answers(self.server, "the run's Prefect server")
        if failed:
            (self.shared / self.FAILED).write_text(failed)
            return
        part = self.shared / f"{TEMPLATE}.part"
        _copy_database(self.shared / "prefect-home" / "prefect.db", part)
        part.rename(self.shared / TEMPLATE)

    @classmethod
    def wait_ready(cls, shared: Path) -> str:
        """In a worker: the run's server URL, once it answers and its template is kept;
        the template is also copied to the worker's shared directory."""
        run_dir = Path(os.environ[cls.SHARED])
        deadline = time.monotonic() + 200
        while not (run_dir / TEMPLATE).exists():
            if (run_dir / cls.FAILED).exists():
                pytest.fail((run_dir / cls.FAILED).read_text())
            if time.monotonic() > deadline:
                pytest.fail("the run's Prefect server was not ready in 200 s")
            time.sleep(0.1)
        if not (shared / TEMPLATE).exists():
            with (shared / TEMPLATE_LOCK).open("w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if not (shared / TEMPLATE).exists():
                    shutil.copyfile(run_dir / TEMPLATE, shared / f"{TEMPLATE}.part")
                    (shared / f"{TEMPLATE}.part").rename(shared / TEMPLATE)
        return os.environ[cls.URL]

    def stop(self) -> None:
        self.server.stop()
        shutil.rmtree(self.shared, ignore_errors=True)


def _runs_slow_tests_in_workers(config: pytest.Config) -> bool:
    workers = getattr(config.option, "numprocesses", None)
    return bool(workers) and "not slow" not in (config.getoption("markexpr") or "")


def pytest_configure(config: pytest.Config) -> None:
    if os.environ.get("PYTEST_XDIST_WORKER") is None and _runs_slow_tests_in_workers(config):
        config.stash[_RUN_PREFECT] = RunPrefect()


def pytest_unconfigure(config: pytest.Config) -> None:
    run = config.stash.get(_RUN_PREFECT, None)
    if run is not None:
        run.stop()


_RUN_PREFECT = pytest.StashKey[RunPrefect]()


# What the run's server leaves out: the services that turn the events of flow and task
# runs into records and act on them. No test reads events or task runs from that server
# (those that do start a server of their own), and they were most of its work.
_NO_EVENT_SERVICES = {
    f"PREFECT_SERVER_SERVICES_{name}_ENABLED": "false"
    for name in ("TRIGGERS", "EVENT_PERSISTER", "TASK_RUN_RECORDER")
}


@contextmanager
def _test_server_env(home: Path) -> Iterator[None]:
    """The environment a test session's server starts in: its PREFECT_HOME, and no
    event services."""
    with pytest.MonkeyPatch.context() as env:
        for name, value in {"PREFECT_HOME": str(home), **_NO_EVENT_SERVICES}.items():
            env.setenv(name, value)
        yield


def _wait_answers(server: TemporaryServer, name: str) -> str | None:
    """Until a started TemporaryServer answers; what went wrong, if it did not."""
    from evidence_base.errors import EvidenceError
    from flows.runtime.processes import wait_healthy

    try:
        wait_healthy(server.api_url, 180, server._exited, name, lambda: f": {server._tail()}")
    except EvidenceError as e:
        return str(e)
    return None


def _copy_database(source: Path, target: Path) -> None:
    """A consistent copy of a SQLite database, even one a server has open."""
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
    src.close()
    dst.close()


@pytest.fixture(scope="session")
def session_prefect(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SessionPrefect]:
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    session = SessionPrefect(tmp_path_factory.mktemp("prefect-home"), shared)
    yield session
    session.stop()


@pytest.fixture
def migrated_prefect_home(tmp_path: Path, session_prefect: SessionPrefect) -> Path:
    """A PREFECT_HOME of the test's own, its Prefect database already migrated."""
    return session_prefect.migrated_home(tmp_path / "prefect-home")


@pytest.fixture(autouse=True)
def _commands_use_the_session_api(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Slow tests hand the session's API to the commands they start (PREFECT_API_URL),
    so that no command starts a server of its own; the tests of that server code itself
    (marked `own_prefect`) go without."""
    if request.node.get_closest_marker("own_prefect") is not None:
        monkeypatch.delenv("PREFECT_API_URL", raising=False)
        return
    if request.node.get_closest_marker("slow") is None:
        # the fast loop stays fast: a test that starts a process (a command, Prefect, a
        # browser) says so with the marker
        def refuse(*args: object, **kwargs: object) -> None:
            pytest.fail(f"{request.node.nodeid} starts a process: mark it slow", pytrace=False)

        if "prefect_harness" in request.fixturenames:
            refuse()
        monkeypatch.setattr(subprocess.Popen, "_execute_child", refuse)
        return
    session: SessionPrefect = request.getfixturevalue("session_prefect")
    monkeypatch.setenv("PREFECT_API_URL", session.start())


@pytest.fixture(scope="session")
def prefect_harness(session_prefect: SessionPrefect) -> Iterator[None]:
    """Flow runs in this process talk to the session's server."""
    from prefect.settings import (
        PREFECT_API_URL,
        PREFECT_FLOWS_HEARTBEAT_FREQUENCY,
        temporary_settings,
    )

    from flows.runtime.prefect_server import drain_prefect

    updates = {PREFECT_API_URL: session_prefect.start(), PREFECT_FLOWS_HEARTBEAT_FREQUENCY: None}
    with temporary_settings(updates=updates):
        yield
        drain_prefect()
