"""Benchmark: a refresh of N sources against the extraction limit of this machine.

    python bench/refresh.py --sources N [--delay-ms D] [--keep]
    python bench/refresh.py --volatile --sources N [--days D] [--keep]

Serves the 181 corpus pages from 127.0.0.1 under N distinct URLs (each body its
own), builds a catalog of N/5 records with 5 sources and 3 claims each, and
measures, in one run: (a) the extraction limit, trafilatura alone on the same N
pages on every core; (b) a full first refresh; (c) a second refresh with nothing
changed (conditional requests); (d) a refresh with 10% of the pages changed;
(e) `evidence status` and a grading recompute. Refreshes and status are whole
`evidence` processes (Prefect's start-up included); peak RSS is that of the
whole process tree, sampled. For the full refresh it prints where the time went, step
by step (from the refresh's own `time:` and `reading` lines), and the peak memory of
each step (the samples between the lines that end the steps). The last line is
machine-readable.

--volatile serves the pages as most real sites do: no ETag or Last-Modified, and a
fresh token in the head and in a footer of every response. One refresh a day (the
clock set by EVIDENCE_NOW): day 0, day 1 with no main text changed, then days on which
10% of the pages gain a sentence in their main text. It prints each day's refresh
time, database size and growth per source, `evidence status` and grading times after
day 1 and after the last day, and one machine-readable line.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corpus import CorpusPage, CorpusServer, load_corpus, page_body

EVIDENCE = [sys.executable, "-m", "evidence_cli"]
_WORKER_PAGES: list[CorpusPage] = []


@dataclass
class Measure:
    name: str
    seconds: float
    pages: int
    peak_rss_mb: float
    said: str = ""  # the run's stderr: its `reading` and `time:` lines name the steps
    step_peak_mb: dict[str, float] = field(default_factory=dict)  # by step of a refresh

    @property
    def pages_per_s(self) -> float:
        return self.pages / self.seconds if self.seconds else 0.0


class TreeRss:
    """Peak resident memory of a process and all its descendants, sampled every 0.2 s
    (`measure`: another way to count a process tree's memory, in KB)."""

    def __init__(self, pid: int, measure: Callable[[int], int] | None = None) -> None:
        self.pid = pid
        self.measure = measure or tree_rss_kb
        self.peak_kb = 0
        self.samples: list[tuple[float, int]] = []  # (monotonic time, KB)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> TreeRss:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            kb = self.measure(self.pid)
            self.peak_kb = max(self.peak_kb, kb)
            self.samples.append((time.monotonic(), kb))
            self._stop.wait(0.2)


def tree_rss_kb(root: int) -> int:
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        pid = int(entry.name)
        ppid = re.search(r"^PPid:\s+(\d+)", status, re.M)
        vm = re.search(r"^VmRSS:\s+(\d+)", status, re.M)
        parents[pid] = int(ppid[1]) if ppid else 0
        rss[pid] = int(vm[1]) if vm else 0
    total = 0
    for pid in rss:
        p = pid
        while p and p != root:
            p = parents.get(p, 0)
        if p == root:
            total += rss[pid]
    return total


def run(cmd: list[str], env: dict[str, str], pages: int, name: str) -> Measure:
    t0 = time.monotonic()
    proc = subprocess.Popen(
        cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    lines: list[tuple[float, str]] = []  # each line of stderr with when it came
    assert proc.stderr is not None
    with TreeRss(proc.pid) as sampler:
        for line in proc.stderr:
            lines.append((time.monotonic(), line))
        proc.wait()
    seconds = time.monotonic() - t0
    err = "".join(line for _, line in lines)
    if proc.returncode != 0:
        sys.exit(f"bench: {name} failed ({proc.returncode}):\n{err[-3000:]}")
    peaks = step_peaks(t0, lines, sampler.samples)
    return Measure(name, seconds, pages, sampler.peak_kb / 1024, err, peaks)


# The lines of a refresh that end its steps, in order: start-up ends when it says what
# it refreshes, fetching (with reading and writing) at its last `fetched` line, grading
# when it says what it graded; alerts and the report take the rest.
_STEP_ENDS = (
    ("start-up", re.compile(r"evidence: refreshing ")),
    ("fetching, reading, writing", re.compile(r"evidence: fetched \d+/\d+ URLs")),
    ("claim checks and grading", re.compile(r"claim check\(s\) made; graded")),
)


def step_peaks(
    t0: float, lines: list[tuple[float, str]], samples: list[tuple[float, int]]
) -> dict[str, float]:
    """The peak memory (MB, the whole process tree) of each step of a refresh, the steps
    told apart by the lines that end them."""
    ends: dict[str, float] = {}
    for name, pattern in _STEP_ENDS:
        said = [at for at, line in lines if pattern.search(line)]
        if said:
            ends[name] = said[-1]  # fetching's last progress line ends it
    if len(ends) != len(_STEP_ENDS):
        return {}
    peaks: dict[str, float] = {}
    begin = t0
    for name, end in [*ends.items(), ("alerts and the report", float("inf"))]:
        inside = [kb for at, kb in samples if begin <= at < end]
        peaks[name] = max(inside, default=0) / 1024
        begin = end
    return peaks


_TIME = re.compile(
    r"time: (?P<total>[\d.]+) s \(start-up (?P<startup>[\d.]+) s\); fetching (?P<fetch>[\d.]+) s "
    r"\(alongside reading\), waiting for pages read (?P<wait>[\d.]+) s, writing "
    r"(?P<write>[\d.]+) s, checking and grading (?P<grade>[\d.]+) s, alerts and the report "
    r"(?P<alerts>[\d.]+) s"
)
_READING = re.compile(r"reading (?P<total>[\d.]+) s of the cores: (?P<steps>.*)")


def print_steps(m: Measure) -> None:
    """Where a refresh's time went: its wall time by step, then reading by step."""
    timed = _TIME.search(m.said)
    if timed is None:
        print(f"\n{m.name}: no `time:` line to read the steps from")
        return
    t = {k: float(v) for k, v in timed.groupdict().items()}
    total = t["total"]
    rows = [
        ("start-up (interpreter, Prefect)", t["startup"]),
        ("fetching, alongside reading", t["fetch"]),
        ("waiting for pages read", t["wait"]),
        ("writing (the one writer)", t["write"]),
        ("claim checks and grading", t["grade"]),
        ("alerts and the report", t["alerts"]),
    ]
    print(f"\nwhere {m.name}'s {total:.1f} s went (fetching overlaps reading):")
    for name, seconds in rows:
        print(f"  {name:34} {seconds:8.2f} s {seconds / total:6.0%}")
    read = _READING.search(m.said)
    if read is not None:
        print(f"  reading, summed over the cores: {read['total']} s: {read['steps']}")
    if m.step_peak_mb:
        print(f"peak memory of {m.name} by step (the process tree, sampled):")
        for name, mb in m.step_peak_mb.items():
            print(f"  {name:34} {mb:8.0f} MB")


def _init_worker() -> None:
    _WORKER_PAGES.extend(load_corpus())


def _extract(n: int) -> int:
    import trafilatura

    html = page_body(_WORKER_PAGES, n).decode("utf-8", errors="replace")
    text = trafilatura.extract(html, include_tables=True, include_comments=False)
    return len(text or "")


def extraction_limit(n_pages: int) -> Measure:
    """trafilatura alone on the same pages, on every core (what no pipeline can beat)."""
    workers = os.cpu_count() or 1
    t0 = time.monotonic()
    peak = 0
    with ProcessPoolExecutor(workers, initializer=_init_worker) as pool:
        for i, _ in enumerate(pool.map(_extract, range(n_pages), chunksize=16)):
            if i % 200 == 0:
                peak = max(peak, tree_rss_kb(os.getpid()))
    return Measure("(a) extraction limit", time.monotonic() - t0, n_pages, peak / 1024)


def write_catalog(
    config: Path,
    pages: list[CorpusPage],
    n_sources: int,
    base: str,
    db: Path,
) -> None:
    records = config / "records"
    records.mkdir(parents=True)
    (config / "settings.yaml").write_text(
        f"database: {db}\n"
        "fetch:\n"
        "  concurrency: 16\n"
        "  per_host: 16          # one local host stands in for thousands of sites\n"
        "  retries: 0\n"
        "  timeout_s: 30\n"
        "  obey_robots: false\n"
        "alerts:\n  notify: []\n"
    )
    chunk: list[str] = []
    for r in range(n_sources // 5):
        sources = []
        claims = []
        for s in range(5):
            n = r * 5 + s
            role = "primary" if s == 0 else "third-party"
            sources.append(f'    - {{id: s{s}, url: "{base}/p/{n}", role: {role}}}')
            if s < 3:
                claims.append(f"    - {{id: c{s}, quote: {quote_of(pages[n % len(pages)])!r}}}")
        chunk.append(
            f"- id: r{r}\n  title: Record {r}\n  sources:\n"
            + "\n".join(sources)
            + "\n  claims:\n"
            + "\n".join(claims)
            + "\n"
        )
        if len(chunk) == 500:
            (records / f"r{r:06d}.yaml").write_text("".join(chunk))
            chunk = []
    if chunk:
        (records / "last.yaml").write_text("".join(chunk))


def quote_of(page: CorpusPage) -> str:
    """A sentence of the page's reference text: what a record would quote."""
    for sentence in re.split(r"(?<=[.!?])\s+", page.reference):
        if 40 <= len(sentence) <= 160:
            return sentence.replace("'", "’")
    return page.reference[:80].replace("'", "’")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=int, default=500)
    parser.add_argument("--delay-ms", type=float, default=0.0, help="per-request delay")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    parser.add_argument("--volatile", action="store_true", help="pages that change every time")
    parser.add_argument("--days", type=int, default=7, help="--volatile: daily refreshes")
    args = parser.parse_args()
    if args.volatile:
        volatile(args)
        return
    n = args.sources - args.sources % 5
    pages = load_corpus()
    work = Path(tempfile.mkdtemp(prefix="evidence-bench-"))
    server = CorpusServer(pages, args.delay_ms / 1000).start()
    db = work / "evidence.duckdb"
    config = work / "config"
    write_catalog(config, pages, n, server.base, db)
    env = {**os.environ, "EVIDENCE_CONFIG": str(config), "PREFECT_LOGGING_LEVEL": "WARNING"}
    env.pop("EVIDENCE_NOW", None)
    try:
        print(f"bench: {n} sources, {n // 5} records, work dir {work}", file=sys.stderr)
        limit = extraction_limit(n)
        print(f"bench: limit {limit.pages_per_s:.1f} pages/s", file=sys.stderr)
        full = run([*EVIDENCE, "refresh"], env, n, "(b) full refresh")
        print(f"bench: full {full.seconds:.1f} s", file=sys.stderr)
        unchanged = run([*EVIDENCE, "refresh"], env, n, "(c) unchanged refresh")
        for i in random.Random(7).sample(range(n), n // 10):
            server.versions[i] = 1
        changed = run([*EVIDENCE, "refresh"], env, n, "(d) 10% changed")
        status = run([*EVIDENCE, "status"], env, 0, "(e) evidence status")
        grading = run([sys.executable, "-c", GRADE_SCRIPT, str(db)], env, 0, "(e) grading")
        import duckdb

        con = duckdb.connect(str(db), read_only=True)
        counted = con.execute(
            "SELECT count(*), count(DISTINCT content_hash) FROM store.snapshots"
        ).fetchone()
        assert counted is not None
        snapshots, distinct = counted
        con.close()
        size_mb = db.stat().st_size / 2**20
    finally:
        server.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    rows = [limit, full, unchanged, changed, status, grading]
    print(f"\n{'step':24} {'wall s':>8} {'pages/s':>9} {'peak RSS MB':>12}")
    for m in rows:
        rate = f"{m.pages_per_s:9.1f}" if m.pages else f"{'':>9}"
        print(f"{m.name:24} {m.seconds:8.2f} {rate} {m.peak_rss_mb:12.0f}")
    print_steps(full)
    full_vs_limit = full.pages_per_s / limit.pages_per_s
    unchanged_vs_full = unchanged.seconds / full.seconds
    peak = max(full.peak_rss_mb, unchanged.peak_rss_mb, changed.peak_rss_mb, status.peak_rss_mb)
    print(
        f"\nfull / limit throughput: {full_vs_limit:.2f}   unchanged / full time: "
        f"{unchanged_vs_full:.2f}"
    )
    print(
        f"database: {size_mb:.1f} MB, {snapshots} snapshots ({distinct} distinct bodies), "
        f"{size_mb * 1024 / max(snapshots, 1):.1f} KB per snapshot"
    )
    print(
        f"bench: sources={n} full_vs_limit={full_vs_limit:.2f} "
        f"unchanged_vs_full={unchanged_vs_full:.2f} peak_rss_mb={peak:.0f} "
        f"status_s={status.seconds:.2f}"
    )


def volatile(args: argparse.Namespace) -> None:
    """Daily refreshes of pages that change bytes on every request (see the docstring)."""
    from datetime import UTC, datetime, timedelta

    n = args.sources - args.sources % 5
    pages = load_corpus()
    work = Path(tempfile.mkdtemp(prefix="evidence-bench-"))
    server = CorpusServer(pages, args.delay_ms / 1000, volatile=True).start()
    db = work / "evidence.duckdb"
    config = work / "config"
    write_catalog(config, pages, n, server.base, db)
    env = {**os.environ, "EVIDENCE_CONFIG": str(config), "PREFECT_LOGGING_LEVEL": "WARNING"}
    start = datetime(2026, 12, 1, 6, 0, tzinfo=UTC)
    rng = random.Random(7)
    days: list[tuple[int, Measure, float, int]] = []
    timings: dict[str, tuple[float, float]] = {}
    print(f"bench: volatile, {n} sources, {args.days} days, work dir {work}", file=sys.stderr)
    try:
        for day in range(args.days):
            if day >= 2:
                for i in rng.sample(range(n), n // 10):
                    server.versions[i] = server.versions.get(i, 0) + 1
            env["EVIDENCE_NOW"] = (start + timedelta(days=day)).isoformat()
            m = run([*EVIDENCE, "refresh"], env, n, f"day {day}")
            days.append((day, m, _size_mb(db), _snapshots(db)))
            print(
                f"bench: day {day}: {m.seconds:.1f} s, {days[-1][2]:.1f} MB, "
                f"{days[-1][3]} snapshots",
                file=sys.stderr,
            )
            if day == 1 or day == args.days - 1:
                status = run([*EVIDENCE, "status"], env, 0, "status")
                grading = run([sys.executable, "-c", GRADE_SCRIPT, str(db)], env, 0, "grading")
                timings[f"day {day}"] = (status.seconds, grading.seconds)
    finally:
        server.stop()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(
        f"\n{'day':>4} {'refresh s':>10} {'/ day 0':>8} {'DB MB':>8} {'KB/source':>10} "
        f"{'snapshots':>10} {'peak RSS MB':>12}"
    )
    previous = 0.0
    for day, m, size, snapshots in days:
        grown = (size - previous) * 1024 / n
        previous = size
        print(
            f"{day:>4} {m.seconds:>10.1f} {m.seconds / days[0][1].seconds:>8.2f} {size:>8.1f} "
            f"{grown:>10.2f} {snapshots:>10} {m.peak_rss_mb:>12.0f}"
        )
    for when, (status_s, grading_s) in timings.items():
        print(f"after {when}: evidence status {status_s:.2f} s, grading {grading_s:.2f} s")
    day0, day1 = days[0], days[1] if len(days) > 1 else days[0]
    changed = [(b[2] - a[2]) * 1024 / n for a, b in itertools.pairwise(days[1:])]
    peak = max(m.peak_rss_mb for _, m, _, _ in days)
    first_status = timings.get("day 1", (0.0, 0.0))
    last_status = timings.get(f"day {args.days - 1}", (0.0, 0.0))
    print(
        f"bench: volatile sources={n} days={args.days} day0_s={day0[1].seconds:.1f} "
        f"day1_vs_day0={day1[1].seconds / day0[1].seconds:.2f} "
        f"day1_kb_per_source={(day1[2] - day0[2]) * 1024 / n:.2f} "
        f"changed_day_kb_per_source={max(changed, default=0.0):.2f} "
        f"status_s={first_status[0]:.2f}->{last_status[0]:.2f} "
        f"grading_s={first_status[1]:.2f}->{last_status[1]:.2f} peak_rss_mb={peak:.0f}"
    )


def _size_mb(db: Path) -> float:
    wal = db.with_name(db.name + ".wal")
    return (db.stat().st_size + (wal.stat().st_size if wal.exists() else 0)) / 2**20


def _snapshots(db: Path) -> int:
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        row = con.execute("SELECT count(*) FROM store.snapshots").fetchone()
    finally:
        con.close()
    return row[0] if row else 0


GRADE_SCRIPT = """
import sys, time
from warehouse.db import connect
from warehouse.store import grade_all
con = connect(sys.argv[1])
t0 = time.monotonic()
grade_all(con)
print(f"grading {time.monotonic() - t0:.3f} s", file=sys.stderr)
con.close()
"""

if __name__ == "__main__":
    main()
