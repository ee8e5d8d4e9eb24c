"""DuckDB's memory while a refresh appends compressed pages: the insert and the checkpoint.

    python bench/checkpoint.py [--batches 40] [--batch-size 250] [--per 25]
                               [--set NAME=VALUE ...]

Appends the corpus pages, compressed as the warehouse stores them, to a table in
batches, one session per batch as a refresh does (`--per` rows an INSERT statement),
and prints for each batch the seconds and the extra resident memory (MB above the
batch's start) of the insert and of the close, where DuckDB checkpoints. Nothing of
the pipeline runs: the figures are DuckDB's.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

import duckdb

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corpus import load_corpus, page_body

from warehouse.bodies import compress


def rss_mb() -> int:
    status = Path("/proc/self/status").read_text()
    return int(status.split("VmRSS:")[1].split()[0]) // 1024


class Peak:
    """The highest RSS seen since the last reset, sampled every 10 ms."""

    def __init__(self) -> None:
        self.value = rss_mb()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while True:
            self.value = max(self.value, rss_mb())
            time.sleep(0.01)

    def reset(self) -> int:
        self.value = now = rss_mb()
        return now


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=40)
    parser.add_argument("--batch-size", type=int, default=250)
    parser.add_argument("--per", type=int, default=250, help="rows per INSERT statement")
    parser.add_argument(
        "--set", action="append", default=[], help="a DuckDB setting per session, e.g. threads=1"
    )
    args = parser.parse_args()
    pages = load_corpus()
    path = Path(tempfile.mkdtemp(prefix="evidence-checkpoint-")) / "pages.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE pages (content_hash VARCHAR PRIMARY KEY, body_z BLOB)")
    con.close()
    peak = Peak()
    print(f"{'batch':>5} {'insert s':>9} {'+MB':>5} {'close s':>8} {'+MB':>5} {'file MB':>8}")
    worst = 0
    for b in range(args.batches):
        n0 = b * args.batch_size
        keys = [f"page-{n}" for n in range(n0, n0 + args.batch_size)]
        bodies = [compress(page_body(pages, n)) for n in range(n0, n0 + args.batch_size)]
        base = peak.reset()
        t0 = time.monotonic()
        con = duckdb.connect(str(path))
        for setting in args.set:
            con.execute(f"SET {setting}")
        for i in range(0, len(keys), args.per):
            rows = [keys[i : i + args.per], bodies[i : i + args.per]]
            con.execute("INSERT INTO pages SELECT unnest($1), unnest($2)", rows)
        t1 = time.monotonic()
        insert_mb = peak.value - base
        base = peak.reset()
        con.close()  # the checkpoint
        t2 = time.monotonic()
        close_mb = peak.value - base
        worst = max(worst, close_mb)
        size = os.path.getsize(path) / 2**20
        print(f"{b:5d} {t1 - t0:9.2f} {insert_mb:5d} {t2 - t1:8.2f} {close_mb:5d} {size:8.0f}")
    print(f"checkpoint: worst extra RSS at close {worst} MB over {args.batches} batches")
    path.unlink()


if __name__ == "__main__":
    main()
