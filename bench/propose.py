"""Time `evidence propose` on a large catalog: N records (bench/review.py's, in files of
100), two days of pages stored, every 20th record's primary moved (50 items a page
settles at 1,000 records), the catalog committed in a git repository. Prints the seconds
of the first proposal (the branch built, one commit per record, the body), of a second
with nothing new, the commits and the body's size; the last line is machine-readable.

    .venv/bin/python bench/propose.py --records 1000
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from review import T0, store_day, write_catalog  # noqa: E402

EVERY = 20


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=b", "-c", "user.email=b@example.org", *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        config, db = root / "config", root / "w.duckdb"
        write_catalog(config, args.records, every=EVERY)
        states: dict = {}
        for day in (0, 1):
            store_day(db, config, args.records, day, states, every=EVERY)
        (root / ".gitignore").write_text("w.duckdb*\n")
        git(root, "init", "-q", "-b", "main")
        git(root, "add", ".")
        git(root, "commit", "-q", "-m", "catalog")
        env = {
            **os.environ,
            "EVIDENCE_NOW": (T0 + timedelta(days=1, hours=1)).isoformat(),
            "GIT_CEILING_DIRECTORIES": str(root.parent),
        }
        command = [str(ROOT / ".venv/bin/evidence"), "propose", "--config", str(config)]
        command += ["--db", str(db), "--body", str(root / "body.md")]
        timed = []
        for _ in range(2):
            started = time.monotonic()
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
            timed.append(round(time.monotonic() - started, 2))
            if done.returncode != 0:
                sys.exit(f"propose failed: {done.stderr.strip()}")
        commits = len(git(root, "log", "--format=%H", "main..evidence/updates").splitlines())
        body = (root / "body.md").read_text()
        result = {
            "records": args.records,
            "commits": commits,
            "first_s": timed[0],
            "again_s": timed[1],
            "body_chars": len(body),
        }
        print(
            f"{args.records} records: the first proposal {timed[0]} s ({commits} commits, a "
            f"body of {len(body):,} characters), again with nothing new {timed[1]} s"
        )
        print(json.dumps(result))


if __name__ == "__main__":
    main()
