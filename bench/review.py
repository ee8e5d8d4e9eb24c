"""Time `evidence review` on a large catalog: N records of two sources and two claims,
stored through the steps a refresh takes after fetching (two days of pages; no server),
with about N/10 items in the queue (claims changed on their primary, unreachable
sources, review_by dates reached). Prints the queue's size and the seconds of the query
and of the whole `evidence review` process; the last line is machine-readable.

    .venv/bin/python bench/review.py --records 1000
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import zlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from extractors.values import Outcome  # noqa: E402
from extractors.version import EXTRACTOR_VERSION  # noqa: E402
from flows.catalog import load_catalog  # noqa: E402
from flows.checks import check_claims  # noqa: E402
from flows.planning import catalog_rows, keeping_rows  # noqa: E402
from warehouse import keeping, store  # noqa: E402
from warehouse.db import session  # noqa: E402
from warehouse.rows import FetchRow, PageRow  # noqa: E402

T0 = datetime(2026, 11, 4, 6, 0, tzinfo=UTC)
PER_FILE = 100


def page(i: int, credits: int) -> str:
    return (
        f"Programme {i} gives ${credits:,} in GPU credits for the best runs. "
        f"Over {1000 + i:,} teams have been funded since 2024."
    )


def write_catalog(config: Path, n: int, every: int = 30) -> None:
    (config / "records").mkdir(parents=True)
    for start in range(0, n, PER_FILE):
        lines = []
        for i in range(start, min(n, start + PER_FILE)):
            due = "\n  review_by: 2026-11-01" if i % every == 9 else ""
            lines.append(
                f"- id: r{i}\n  title: Record {i}{due}\n  sources:\n"
                f'    - {{id: own, url: "https://org{i}.example/credits", role: primary}}\n'
                f'    - {{id: blog, url: "https://blog.example/p{i}", role: third-party}}\n'
                f"  claims:\n"
                f'    - {{id: prize, quote: "${4000 + i:,} in GPU credits for the best runs"}}\n'
                f'    - {{id: teams, quote: "Over {1000 + i:,} teams have been funded"}}\n'
            )
        (config / "records" / f"part{start // PER_FILE}.yaml").write_text("".join(lines))


def store_day(db: Path, config: Path, n: int, day: int, states: dict, every: int = 30) -> None:
    """One day's pages: on day 1, every 30th record's primary shows another figure and
    every 30th (offset 5) record's blog answers 404 (or every `every`th)."""
    at = T0 + timedelta(days=day)
    catalog = load_catalog(config)
    pages, fetches = [], []
    for i in range(n):
        for source, url in (
            ("own", f"https://org{i}.example/credits"),
            ("blog", f"https://blog.example/p{i}"),
        ):
            if day and source == "blog" and i % every == 5:
                fetches.append(
                    FetchRow(
                        record_id=f"r{i}",
                        source_id=source,
                        url=url,
                        started_at=at,
                        elapsed_ms=5,
                        outcome=Outcome.HTTP_ERROR,
                        http_status=404,
                        error="HTTP 404",
                    )
                )
                continue
            moved = day and source == "own" and i % every == 0
            text = page(i, 2500 + i if moved else 4000 + i)
            digest = hashlib.sha256(f"{source}{text}".encode()).hexdigest()
            pages.append(
                PageRow(
                    content_hash=digest,
                    body_z=zlib.compress(text.encode()),
                    size=len(text),
                    content_type="text/html",
                    encoding="utf-8",
                    title=None,
                    text=text,
                    extractor_version=EXTRACTOR_VERSION,
                    numbers=(),
                    statuses=(),
                )
            )
            fetches.append(
                FetchRow(
                    record_id=f"r{i}",
                    source_id=source,
                    url=url,
                    started_at=at,
                    elapsed_ms=5,
                    outcome=Outcome.OK,
                    http_status=200,
                    content_hash=digest,
                )
            )
    with session(db, now=at) as con:
        store.sync_catalog(con, *catalog_rows(catalog))
        keeping.sync_keeping(con, *keeping_rows(catalog))
        states.update(store.write_fetches(con, f"day{day}", pages, fetches, states).states)
        check_claims(con)
        store.grade_all(con)


def median(values: list[float]) -> float:
    return round(sorted(values)[len(values) // 2], 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5, help="timed runs; the median is kept")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        config, db = root / "config", root / "w.duckdb"
        write_catalog(config, args.records)
        states: dict = {}
        built = time.monotonic()
        for day in (0, 1):
            store_day(db, config, args.records, day, states)
        print(f"built {args.records} records in {time.monotonic() - built:.1f} s", file=sys.stderr)
        now = T0 + timedelta(days=1, hours=1)
        query_s, query_cpu, items = [], [], []
        for _ in range(args.repeat):
            started, cpu = time.monotonic(), time.process_time()
            with session(db, read_only=True, now=now) as con:
                items = keeping.review_queue(con, now)
            query_s.append(time.monotonic() - started)
            query_cpu.append(time.process_time() - cpu)
        env = {**os.environ, "EVIDENCE_NOW": now.isoformat()}
        command = [str(ROOT / ".venv/bin/evidence"), "review", "--db", str(db), "--config"]
        process_s, process_cpu = [], []
        for _ in range(args.repeat):
            started, before = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run(
                [*command, str(config)], env=env, capture_output=True, text=True, check=True
            )
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            process_s.append(time.monotonic() - started)
            process_cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        rows = done.stdout.count("\n") - 1
        kinds: dict[str, int] = {}
        for item in items:
            kinds[item.kind] = kinds.get(item.kind, 0) + 1
        result = {
            "records": args.records,
            "queue": len(items),
            "kinds": kinds,
            "table_rows": rows,
            "query_s": median(query_s),
            "query_cpu_s": median(query_cpu),
            "process_s": median(process_s),
            "process_cpu_s": median(process_cpu),
        }
        print(
            f"{result['queue']} items in the queue of {args.records} records ({kinds}); "
            f"query {result['query_s']} s ({result['query_cpu_s']} s of CPU), `evidence "
            f"review` process {result['process_s']} s ({result['process_cpu_s']} s of CPU); "
            "medians (wall time counts other processes on a shared machine; CPU time not)"
        )
        print(json.dumps(result))


if __name__ == "__main__":
    main()
