"""Simulation: refreshing what is due against fetching everything daily.

    .venv/bin/python bench/schedule.py [--sources 10000] [--days 90] [--threshold 0.1]

N sources (5 a record, 15-day windows), each with a true change rate: about 60% never
change, 30% about monthly, 10% about weekly (Poisson, seeded). One scheduled run a day
for D days. Each day the real planner (`store.source_due`, `due_sources.sql`) runs on a
real database with the clock at that day (as EVIDENCE_NOW sets it), and each source it
picks is "fetched": a fetch row is written with the snapshot of the page's version at
that moment, as a refresh would store it (every source answers; pages are not read, the
fetch path is benchmarked by bench/refresh.py). Fetch-everything-daily is the same runs
fetching every source. Printed, one line per policy: fetches a day (and its share of
fetch-everything), stale record-days (a record whose sources' oldest success is past its
window), the median and 90th percentile delay from a change to the first fetch that
shows it for sources changing at least monthly; and the planner's own time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from flows.catalog import Settings
from warehouse import queries, store
from warehouse.db import connect, insert_rows
from warehouse.rows import RecordRow, SourceRow

START = datetime(2026, 1, 1, 6, 0, tzinfo=UTC)
WINDOW = timedelta(days=15)
RUN = timedelta(days=1)


def change_times(rng: random.Random, rate_per_day: float, days: int) -> list[float]:
    """A Poisson process's event times over `days` (days since START)."""
    times, t = [], 0.0
    while rate_per_day > 0:
        t += rng.expovariate(rate_per_day)
        if t >= days:
            break
        times.append(t)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=10_000)
    parser.add_argument("--days", type=int, default=90)
    parser.add_argument(
        "--threshold",
        type=float,
        default=Settings().schedule.change_threshold,
        help="schedule.change_threshold (default: the setting's)",
    )
    parser.add_argument("--seed", type=int, default=32)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    n = args.sources - args.sources % 5
    kinds = rng.choices(["never", "monthly", "weekly"], weights=[60, 30, 10], k=n)
    rate = {"never": 0.0, "monthly": 1 / 30, "weekly": 1 / 7}
    changes = [change_times(rng, rate[k], args.days) for k in kinds]
    ids = [(f"r{i // 5}", f"s{i % 5}") for i in range(n)]
    work = Path(tempfile.mkdtemp(prefix="evidence-schedule-"))
    db = work / "w.duckdb"
    con = connect(db)
    window_s = int(WINDOW.total_seconds())
    records = [RecordRow(f"r{r}", f"R{r}", window_s, (), "bench") for r in range(n // 5)]
    sources = [
        SourceRow(r, s, f"https://corpus.example/{k}", "primary") for k, (r, s) in enumerate(ids)
    ]
    store.sync_catalog(con, records, sources, [])
    store.sync_schedule(con, RUN.total_seconds(), RUN.total_seconds(), args.threshold)
    con.close()

    fetch_id, fetched_total, planner_s = 0, 0, []
    last_ok: list[int | None] = [None] * n  # day of each source's newest fetch
    stale_record_days = 0
    delays: list[float] = []
    seen = [0] * n  # changes shown by a fetch so far, per source
    index = {pair: i for i, pair in enumerate(ids)}
    for day in range(args.days):
        now = START + day * RUN
        con = connect(db, now=now)
        t0 = time.perf_counter()
        due = [d for d in queries.due_sources(con) if d.reason is not None]
        planner_s.append(time.perf_counter() - t0)
        rows = []
        for d in due:
            i = index[(d.record_id, d.source_id)]
            version = sum(1 for c in changes[i] if c <= day)
            delays += [day - c for c in changes[i][seen[i] : version]]  # what it shows
            seen[i] = version
            fetch_id += 1
            rows.append(
                {
                    "fetch_id": fetch_id,
                    "run_id": f"day{day}",
                    "record_id": d.record_id,
                    "source_id": d.source_id,
                    "url": d.url,
                    "started_at": now,
                    "outcome": "ok",
                    "http_status": 200,
                    "snapshot_id": i * 1000 + version + 1,
                    "via": "live",
                }
            )
            last_ok[i] = day
        insert_rows(con, "store.fetches", rows)
        con.close()
        fetched_total += len(rows)
        for r in range(n // 5):
            days = [last_ok[5 * r + k] for k in range(5)]  # stale: the oldest past its window
            if None not in days and min(d for d in days if d is not None) + WINDOW.days <= day:
                stale_record_days += 1
        print(
            f"day {day:3d}: {len(rows):6d} fetched, planner {planner_s[-1]:.2f} s", file=sys.stderr
        )

    # fetch everything daily: every source at every run; a change shows at the next run
    daily_delays = [
        float(-(-c // 1)) - c if c % 1 else 0.0
        for i, cs in enumerate(changes)
        if kinds[i] != "never"
        for c in cs
    ]

    def line(name: str, per_day: float, stale: int, ds: list[float]) -> str:
        ds = sorted(ds)
        p90 = ds[int(0.9 * (len(ds) - 1))] if ds else float("nan")
        med = statistics.median(ds) if ds else float("nan")
        return (
            f"{name}: fetches_per_day={per_day:.0f} share={per_day / n:.3f} "
            f"stale_record_days={stale} delay_median_days={med:.2f} delay_p90_days={p90:.2f}"
        )

    print(line("fetch-everything", float(n), 0, daily_delays))
    print(
        line("due", fetched_total / args.days, stale_record_days, delays)
        + f" threshold={args.threshold} planner_s_max={max(planner_s):.2f}"
        f" planner_s_median={statistics.median(planner_s):.2f} sources={n}"
    )


if __name__ == "__main__":
    main()
