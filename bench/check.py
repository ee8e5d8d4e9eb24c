"""`evidence check` and `evidence plan` on a generated catalog.

    .venv/bin/python bench/check.py [--records 1000] [--claims 3] [--runs 3]

Writes N records (one primary and one third-party page each, C claims a record: a
figure, a sum of money and a status) into a catalog in a fresh git repository, stores a
snapshot of every page as a refresh leaves it (pages, fetches, claim checks, grades,
written through the store layer: no server, no Prefect), then times whole `evidence
check` and `evidence plan` processes, start-up included: check as stored, check after
10% of the quotes were edited (those are matched on the stored pages), and plan of that
edit against HEAD. Targets: check under 3 s for 1,000 records and 3,000 claims. The last
line is machine-readable.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from extractors.version import EXTRACTOR_VERSION  # noqa: E402
from flows.catalog import load_catalog  # noqa: E402
from flows.checks import check_claims  # noqa: E402
from flows.planning import catalog_rows  # noqa: E402
from warehouse import store  # noqa: E402
from warehouse.db import connect, set_now  # noqa: E402
from warehouse.rows import FetchRow, PageRow  # noqa: E402

NOW = datetime(2026, 12, 1, 6, 0, tzinfo=UTC)
FILLER = (
    "The programme is run by the research office with support from partners. "
    "Teams apply with a short proposal and a budget, reviewed every month. "
    "Questions go to the help desk, which answers within two working days. "
)


def page(i: int, rng: random.Random) -> tuple[str, str]:
    """A primary page and a third-party write-up of record i."""
    hours, prize = 100 + i, 1000 + 10 * i
    status = "open" if i % 7 else "closed"
    filler = " ".join(rng.sample(FILLER.split(". "), 3))
    primary = (
        f"Programme {i} free tier. {filler} You get {hours} GPU hours per month on shared "
        f"nodes. The prize pool is ${prize:,} for the best team. Applications are {status}. "
        + FILLER
        * 20
    )
    third = f"Roundup: programme {i} gives {hours} GPU hours per month. " + FILLER * 10
    return primary, third


def write_catalog(config: Path, n: int, claims: int) -> None:
    (config / "records").mkdir(parents=True)
    (config / "settings.yaml").write_text("freshness_window: 15d\n")
    for start in range(0, n, 100):  # files of 100 records, as a large catalog keeps them
        lines = []
        for i in range(start, min(n, start + 100)):
            quotes = [
                ("hours", f"{100 + i} GPU hours per month", None),
                ("prize", f"The prize pool is ${1000 + 10 * i:,}", None),
                ("applications", "Applications are open", "open"),
            ][:claims]
            lines += [
                f"- id: programme-{i}",
                f"  title: Programme {i}",
                "  sources:",
                f"    - {{id: own, url: 'https://p{i}.example/free', role: primary}}",
                f"    - {{id: roundup, url: 'https://news.example/p{i}', role: third-party}}",
                "  claims:",
            ]
            for cid, quote, status in quotes:
                lines.append(f"    - id: {cid}")
                lines.append(f"      quote: {json.dumps(quote)}")
                if status:
                    lines.append(f"      status: {status}")
                    lines.append("      expect: {status_in: [open, waitlist]}")
        (config / "records" / f"part-{start // 100:03d}.yaml").write_text("\n".join(lines) + "\n")


def store_snapshots(config: Path, db: Path, n: int) -> None:
    rng = random.Random(7)
    catalog = load_catalog(config)
    con = connect(db, now=NOW)
    store.sync_catalog(con, *catalog_rows(catalog))
    pages, rows = [], []
    for i in range(n):
        for source_id, url, text in zip(
            ("own", "roundup"),
            (f"https://p{i}.example/free", f"https://news.example/p{i}"),
            page(i, rng),
            strict=True,
        ):
            raw = f"<html><body><p>{text}</p></body></html>".encode()
            digest = f"{source_id}-{i}"
            pages.append(
                PageRow(
                    content_hash=digest,
                    body_z=zlib.compress(raw),
                    size=len(raw),
                    content_type="text/html",
                    encoding="utf-8",
                    title=None,
                    text=text,
                    extractor_version=EXTRACTOR_VERSION,
                    numbers=(),
                    statuses=(),
                )
            )
            rows.append(
                FetchRow(
                    record_id=f"programme-{i}",
                    source_id=source_id,
                    url=url,
                    started_at=NOW,
                    elapsed_ms=5,
                    outcome="ok",
                    http_status=200,
                    error=None,
                    via="live",
                    fetched_at=NOW,
                    content_hash=digest,
                )
            )
    store.write_fetches(con, "bench", pages, rows, {})
    os.environ["EVIDENCE_NOW"] = NOW.isoformat()
    check_claims(con)
    set_now(con, NOW)
    store.grade_all(con)
    con.close()


def timed(args: list[str], cwd: Path, runs: int) -> tuple[float, float, int, str]:
    """Median wall time and CPU time (user + system) of the process, exit code, stdout.
    On a shared machine the CPU time is the steadier figure."""
    walls, cpus, code, out = [], [], 0, ""
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=False)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        code, out = done.returncode, done.stdout
    return statistics.median(walls), statistics.median(cpus), code, out


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=b", "-c", "user.email=b@example.org", *args],
        check=True,
        capture_output=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--claims", type=int, default=3, choices=[1, 2, 3])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    evidence = str(Path(sys.executable).parent / "evidence")
    with tempfile.TemporaryDirectory(prefix="bench-check-") as tmp:
        repo = Path(tmp) / "catalog"
        config, db = repo / "config", Path(tmp) / "evidence.duckdb"
        write_catalog(config, args.records, args.claims)
        git(repo, "init", "-q", "-b", "main")
        git(repo, "add", ".")
        git(repo, "commit", "-q", "-m", "catalog")
        start = time.perf_counter()
        store_snapshots(config, db, args.records)
        print(f"stored {args.records * 2} snapshots in {time.perf_counter() - start:.1f} s")
        base = [evidence, "--config", str(config), "--db", str(db)]
        claims = args.records * args.claims

        check_s, check_cpu, code, out = timed([*base, "check"], repo, args.runs)
        print(
            f"check, as stored: {check_s:.2f} s ({check_cpu:.2f} s CPU; exit {code}): "
            f"{out.splitlines()[-1]}"
        )

        for path in sorted((config / "records").glob("*.yaml")):  # edit 10% of the quotes
            text = path.read_text().replace("0 GPU hours per month", "0 GPU hours a month")
            path.write_text(text)
        edited_s, edited_cpu, code, out = timed([*base, "check"], repo, args.runs)
        print(
            f"check, 10% of quotes edited: {edited_s:.2f} s ({edited_cpu:.2f} s CPU; "
            f"exit {code}): {out.splitlines()[-1]}"
        )
        plan_s, plan_cpu, code, out = timed([*base, "plan"], repo, args.runs)
        print(
            f"plan of that edit: {plan_s:.2f} s ({plan_cpu:.2f} s CPU; exit {code}): "
            f"{out.splitlines()[0]}"
        )
        version_s, version_cpu, _, _ = timed([evidence, "--version"], repo, args.runs)
        print(f"(`evidence --version`, start-up alone: {version_s:.2f} s, {version_cpu:.2f} s CPU)")
        print(
            json.dumps(
                {
                    "records": args.records,
                    "claims": claims,
                    "check_s": round(check_s, 3),
                    "check_cpu_s": round(check_cpu, 3),
                    "check_edited_s": round(edited_s, 3),
                    "check_edited_cpu_s": round(edited_cpu, 3),
                    "plan_s": round(plan_s, 3),
                    "plan_cpu_s": round(plan_cpu, 3),
                    "startup_s": round(version_s, 3),
                    "target_check_s": 3.0,
                }
            )
        )


if __name__ == "__main__":
    main()
