"""`task_runner: dask` on a real dask.distributed cluster: two worker processes on
127.0.0.1, started by the tests, reading corpus pages served by a real HTTP server.

The same refresh with threads and with the cluster must store the same evidence; a worker
killed in the middle of a batch costs a retry elsewhere, nothing lost or doubled; an
unreachable scheduler stops the refresh with one line before anything is written; each
batch's bodies reach the scheduler once.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from dask_support import UNPICKLES, Counted
from servers import Page, WebServer
from support import CORPUS, need_corpus, wait_paused, write_config

from warehouse.db import connect

ROOT = Path(__file__).resolve().parent.parent
AT = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
PAGES = 30

# Every view a user reads, without what differs from run to run by nature (timings) or
# by the order concurrent fetches finish in (row ids).
VIEWS = {
    "record_status": "*",
    "claim_status": "*",
    "claim_checks": "* EXCLUDE (snapshot_id)",
    "source_health": "*",
    "fetches": "* EXCLUDE (fetch_id, elapsed_ms, snapshot_id, run_id)",
    "snapshots": "* EXCLUDE (snapshot_id)",
    "quoted_numbers": "* EXCLUDE (snapshot_id)",
    "statuses": "* EXCLUDE (snapshot_id)",
    "grade_history": "*",
}


@pytest.fixture(scope="module")
def pause_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pause")


@pytest.fixture(scope="module")
def cluster(pause_dir: Path) -> Iterator[object]:
    """Two worker processes (one thread each) and their scheduler on 127.0.0.1; the
    workers see the pause folder and where to note unpickled batches."""
    from distributed import LocalCluster

    with pytest.MonkeyPatch.context() as env:
        env.setenv("EVIDENCE_PAUSE_DIR", str(pause_dir))
        env.setenv(UNPICKLES, str(pause_dir / "unpickled"))
        with LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        ) as c:
            yield c


@pytest.fixture(scope="module")
def corpus_web() -> Iterator[WebServer]:
    need_corpus()
    server = WebServer().start()
    for i, path in enumerate(sorted((CORPUS / "html").glob("*.html.gz"))[:PAGES]):
        server.routes[f"/p{i}"] = Page(gzip.decompress(path.read_bytes()))
    yield server
    server.stop()


def references() -> list[str]:
    truth = json.loads((CORPUS / "ground-truth.json").read_text(encoding="utf-8"))
    keys = [p.name.removesuffix(".html.gz") for p in sorted((CORPUS / "html").glob("*.gz"))]
    return [truth[k]["articleBody"] for k in keys[:PAGES]]


def figure_sentence(text: str) -> str | None:
    """A sentence of the reference text with a figure in it: a claim a keeper would write."""
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        if re.search(r"\d", sentence) and 40 <= len(sentence) <= 200:
            return sentence.rstrip(".")
    return None


def catalog(root: Path, web: WebServer, settings: str) -> Path:
    """Six records of five sources each; claims quoted from a primary page (confirmed),
    from a third party with its first figure altered (changed), and from elsewhere."""
    texts = references()
    config = write_config(root, "", settings)
    (config / "records" / "r.yaml").unlink()
    for r in range(PAGES // 5):
        pages = range(5 * r, 5 * r + 5)
        quoted = [(i, q) for i in pages if (q := figure_sentence(texts[i]))][:3]
        primary = quoted[0][0]  # the first claim's page
        sources = "\n".join(
            f"  - {{url: {web.url(f'/p{i}')!r}, "
            f"role: {'primary' if i == primary else 'third-party'}}}"
            for i in pages
        )
        quotes = [q for _, q in quoted]
        if len(quotes) > 1:
            quotes[1] = re.sub(r"\d", lambda m: str((int(m.group()) + 1) % 10), quotes[1], count=1)
        claims = "\n".join(f"  - {{id: c{j}, quote: {q!r}}}" for j, q in enumerate(quotes))
        (config / "records" / f"r{r}.yaml").write_text(
            f"id: r{r}\ntitle: Record {r}\nfreshness_window: 30d\nsources:\n{sources}\n"
            f"claims:\n{claims}\n",
            encoding="utf-8",
        )
    return config


def settings(address: str | None = None) -> str:
    runner = f"task_runner: dask\ndask_address: {address}\n" if address else ""
    return f"fetch: {{retries: 0, per_host: 8, obey_robots: false}}\n{runner}"


def refresh(config: Path, db: Path, monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    from flows import pipeline
    from flows.catalog import load_settings
    from flows.refresh import configured_flow

    monkeypatch.setenv("EVIDENCE_NOW", AT.isoformat())
    monkeypatch.setattr(pipeline, "BATCH_SIZE", 8)  # several batches, two written at once
    monkeypatch.setattr(pipeline, "WRITE_URLS", 16)
    flow = configured_flow(load_settings(config), config)
    return flow(str(config), str(db), None)


def views(db: Path) -> dict[str, list[tuple]]:
    con = connect(db, read_only=True, now=AT)
    try:
        return {
            view: sorted(
                con.execute(f"SELECT {columns} FROM {view}").fetchall(),  # noqa: S608 (names of ours)
                key=lambda row: tuple((v is None, str(v)) for v in row),
            )
            for view, columns in VIEWS.items()
        }
    finally:
        con.close()


@pytest.fixture(scope="module")
def by_threads(
    prefect_harness: None, corpus_web: WebServer, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, list[tuple]]:
    """The evidence a refresh with threads (and the process pool) stores: the reference."""
    root = tmp_path_factory.mktemp("threads")
    with pytest.MonkeyPatch.context() as mp:
        refresh(catalog(root, corpus_web, settings()), root / "w.duckdb", mp)
    found = views(root / "w.duckdb")
    con = connect(root / "w.duckdb", read_only=True, now=AT)
    outcomes = {o for (o,) in con.execute("SELECT outcome FROM claim_checks").fetchall()}
    # a comparison worth making: every outcome, figures and many snapshots
    assert {"confirmed", "changed", "absent"} <= outcomes, outcomes
    grades = {g for (g,) in con.execute("SELECT grade FROM claim_status").fetchall()}
    assert {"documented", "reported", "unverified"} <= grades, grades
    con.close()
    assert len(found["snapshots"]) == PAGES and len(found["quoted_numbers"]) > 100
    return found


@pytest.mark.slow
def test_a_refresh_on_the_cluster_stores_what_threads_store(
    prefect_harness: None,
    cluster: object,
    corpus_web: WebServer,
    by_threads: dict[str, list[tuple]],
    pause_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from flows import pipeline
    from flows.runtime import Sealed

    address = cluster.scheduler_address  # type: ignore[attr-defined]
    config = catalog(tmp_path, corpus_web, settings(address))
    sent: list[Counted] = []

    def sealed(value: object) -> Sealed:  # each batch to read notes where it travels
        if not isinstance(value, tuple):
            return Sealed(value)  # (a batch of requests to fetch: it stays here)
        sent.append(Counted(value))
        return sent[-1]

    monkeypatch.setattr(pipeline, "Sealed", sealed)
    (pause_dir / "unpickled").unlink(missing_ok=True)
    refresh(config, tmp_path / "w.duckdb", monkeypatch)

    assert views(tmp_path / "w.duckdb") == by_threads
    # Every batch reached a worker process once, and the scheduler (LocalCluster's, in
    # this process) at most once.
    arrivals = (pause_dir / "unpickled").read_text().split()
    in_workers = [pid for pid in arrivals if int(pid) != os.getpid()]
    in_scheduler = [pid for pid in arrivals if int(pid) == os.getpid()]
    assert len(sent) >= 4 and len(in_workers) == len(sent), (len(sent), arrivals)
    assert len(in_scheduler) <= len(sent), (len(sent), arrivals)
    print(f"\n{len(sent)} batches; unpickled {len(in_scheduler)} times in the scheduler")


@pytest.mark.slow
def test_a_worker_killed_in_a_batch_costs_a_retry_not_a_page(
    prefect_harness: None,
    cluster: object,
    corpus_web: WebServer,
    by_threads: dict[str, list[tuple]],
    pause_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from distributed import Client

    with Client(cluster) as client:
        worker_pids = set(client.run(os.getpid).values())
    assert len(worker_pids) == 2
    config = catalog(tmp_path, corpus_web, settings(cluster.scheduler_address))  # type: ignore[attr-defined]
    (pause_dir / "extract.armed").touch()  # the first page read waits there, in a worker
    killed: list[int] = []

    def kill_when_paused() -> None:
        pid = wait_paused(pause_dir, "extract")
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    killer = threading.Thread(target=kill_when_paused, daemon=True)
    killer.start()
    try:
        refresh(config, tmp_path / "w.duckdb", monkeypatch)
    finally:
        (pause_dir / "extract.armed").unlink()
        killer.join(5)
    assert killed and killed[0] in worker_pids, (killed, worker_pids)  # a worker, mid-batch
    with pytest.raises(ProcessLookupError):
        os.kill(killed[0], 0)
    assert views(tmp_path / "w.duckdb") == by_threads  # nothing lost, nothing doubled


@pytest.mark.slow
def test_an_unreachable_scheduler_stops_the_refresh_before_it_writes(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:  # a port on 127.0.0.1 with nothing behind it
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = write_config(
        tmp_path,
        "id: r\ntitle: R\nsources:\n  - {url: 'http://127.0.0.1:9/x', role: primary}\n"
        "claims:\n  - {id: c, quote: 'a quote'}\n",
        settings(f"tcp://127.0.0.1:{port}"),
    )
    db = tmp_path / "w.duckdb"
    env = {**os.environ, "EVIDENCE_CONFIG": str(config), "EVIDENCE_DB": str(db)}
    done = subprocess.run(
        [sys.executable, "-m", "evidence_cli", "refresh"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"evidence: the Dask scheduler at tcp://127.0.0.1:{port} "), lines
    assert "nothing was written" in lines[0]
    assert not db.exists()


def test_without_prefect_dask_the_setting_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from evidence_base.errors import ConfigError
    from flows.catalog import Settings
    from flows.reading import check_scheduler

    monkeypatch.setitem(sys.modules, "prefect_dask", None)  # as if not installed
    with pytest.raises(ConfigError, match=r"pip install 'evidence-pipeline\[dask\]'"):
        check_scheduler(Settings(task_runner="dask"), tmp_path)
    check_scheduler(Settings(), tmp_path)  # threads need nothing
