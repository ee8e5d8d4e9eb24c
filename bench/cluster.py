"""Benchmark: a first refresh read on a Dask cluster against the process pool, same cores.

    python bench/cluster.py --sources N [--workers W] [--keep]

Serves N corpus pages from 127.0.0.1 (as bench/refresh.py does) and runs two full first
refreshes of the same catalog into fresh databases: (a) `task_runner: threads`, pages read
on the flow's process pool (one process per core); (b) `task_runner: dask` against a
scheduler and W single-threaded worker processes started here as separate processes
(`dask scheduler`, `dask worker`), as on a real cluster. Both are whole `evidence refresh`
processes. Each prints where its time went (its `time:` line): fetching, which stays on
the flow's machine and runs alongside reading; the writer waiting for pages to be read;
writing, on the flow's one thread (DuckDB's single writer); checking and grading. The
last line is machine-readable.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corpus import CorpusServer, load_corpus
from refresh import EVIDENCE, TreeRss, tree_rss_kb, write_catalog

BIN = Path(sys.executable).parent
_TIME = re.compile(
    r"time: ([\d.]+) s \(start-up [\d.]+ s\); fetching ([\d.]+) s \(alongside reading\), "
    r"waiting for pages read "
    r"([\d.]+) s, writing ([\d.]+) s, checking and grading ([\d.]+) s"
)


def refresh(config: Path, name: str) -> dict[str, float]:
    env = {**os.environ, "EVIDENCE_CONFIG": str(config), "PREFECT_LOGGING_LEVEL": "WARNING"}
    env.pop("EVIDENCE_NOW", None)
    started = time.monotonic()
    proc = subprocess.Popen(
        [*EVIDENCE, "refresh"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    with TreeRss(proc.pid) as rss:
        _, err = proc.communicate()
    wall = time.monotonic() - started
    found = _TIME.search(err)
    if proc.returncode != 0 or found is None:
        sys.exit(f"bench: {name} failed ({proc.returncode}):\n{err[-3000:]}")
    flow, fetch, wait, write, grade = map(float, found.groups())
    return {
        "wall": wall,
        "flow": flow,
        "fetch": fetch,
        "wait": wait,
        "write": write,
        "grade": grade,
        "rss_mb": rss.peak_kb / 1024,
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_cluster(workers: int, work: Path) -> tuple[str, list[subprocess.Popen]]:
    """A scheduler and `workers` single-threaded worker processes on 127.0.0.1."""
    address = f"tcp://127.0.0.1:{free_port()}"
    log = (work / "cluster.log").open("w")
    scheduler = subprocess.Popen(
        [str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":")[-1],
         "--no-dashboard"],
        stdout=log, stderr=log,
    )  # fmt: skip
    worker = subprocess.Popen(
        [str(BIN / "dask"), "worker", address, "--nworkers", str(workers), "--nthreads", "1",
         "--no-dashboard", "--memory-limit", "0"],
        stdout=log, stderr=log,
    )  # fmt: skip
    from distributed import Client

    with Client(address, timeout=60) as client:
        client.wait_for_workers(workers, timeout=120)
    return address, [worker, scheduler]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    args = parser.parse_args()
    n = args.sources - args.sources % 5
    pages = load_corpus()
    work = Path(tempfile.mkdtemp(prefix="evidence-cluster-"))
    server = CorpusServer(pages).start()
    processes: list[subprocess.Popen] = []
    try:
        pool_config, dask_config = work / "pool", work / "dask"
        write_catalog(pool_config, pages, n, server.base, work / "pool.duckdb")
        write_catalog(dask_config, pages, n, server.base, work / "dask.duckdb")
        print(f"bench: {n} sources, work dir {work}", file=sys.stderr)
        pool = refresh(pool_config, "(a) process pool")
        print(f"bench: process pool {pool['wall']:.1f} s", file=sys.stderr)
        address, processes = start_cluster(args.workers, work)
        with (dask_config / "settings.yaml").open("a") as f:
            f.write(f"task_runner: dask\ndask_address: {address}\n")
        cluster_rss = TreeRss(
            processes[0].pid, lambda _: sum(tree_rss_kb(p.pid) for p in processes)
        )
        with cluster_rss:
            dask = refresh(dask_config, "(b) dask cluster")
        dask["cluster_rss_mb"] = cluster_rss.peak_kb / 1024
    finally:
        for p in processes:
            p.terminate()
        for p in processes:
            p.wait(30)
        server.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"\n{'run':22} {'wall s':>7} {'flow s':>7} {'fetch s':>8} {'read wait s':>12} "
          f"{'write s':>8} {'grade s':>8} {'peak RSS MB':>12}")  # fmt: skip
    for name, m in (("(a) process pool", pool), (f"(b) dask, {args.workers} workers", dask)):
        print(
            f"{name:22} {m['wall']:7.1f} {m['flow']:7.1f} {m['fetch']:8.1f} {m['wait']:12.1f} "
            f"{m['write']:8.1f} {m['grade']:8.1f} {m['rss_mb']:12.0f}"
        )
    print(f"(the cluster's own processes peaked at {dask['cluster_rss_mb']:.0f} MB)")
    ratio = dask["wall"] / pool["wall"]
    serial = (dask["write"] + dask["grade"]) / dask["flow"]
    print(
        f"\ndask / pool wall time: {ratio:.2f}; in the dask run fetching took "
        f"{dask['fetch'] / dask['flow']:.0%} of the flow's time (alongside reading) and the "
        f"single writer (writing, checking, grading) {serial:.0%}"
    )
    print("bench: " + json.dumps({"sources": n, "workers": args.workers, "ratio": round(ratio, 2),
                                  "pool": pool, "dask": dask}))  # fmt: skip


if __name__ == "__main__":
    main()
