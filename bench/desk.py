"""Time the keeper's desk: `/` of `evidence ui` over a large catalog (N records, about
N/5 review items: figures moved on their primary, sources answering 404, review_by dates
reached), served as a subprocess on 127.0.0.1 and asked over HTTP. Prints the queue's
size, the page's size and the median, min and max seconds of `/` and of a record page;
the last line is machine-readable. The targets: `/` for 1,000 records and 200 review
items in under 300 ms at the median, a decision page under 500 ms.

    .venv/bin/python bench/desk.py --records 1000
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from review import T0, store_day, write_catalog  # noqa: E402

EVERY = 15  # one record in 15 per kind of item: 200 items in 1,000 records


def timed(client: httpx.Client, url: str, repeat: int) -> tuple[float, list[float], httpx.Response]:
    """The first request's seconds (templates compiled, wordings read for the first time),
    then those of `repeat` more, sorted."""
    started = time.monotonic()
    client.get(url).raise_for_status()
    first = time.monotonic() - started
    seconds = []
    for _ in range(repeat):
        started = time.monotonic()
        response = client.get(url)
        seconds.append(time.monotonic() - started)
        response.raise_for_status()
    return first, sorted(seconds), response


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=21, help="timed requests per page")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        config, db = root / "config", root / "w.duckdb"
        write_catalog(config, args.records, EVERY)
        states: dict = {}
        built = time.monotonic()
        for day in (0, 1):
            store_day(db, config, args.records, day, states, EVERY)
        print(f"built {args.records} records in {time.monotonic() - built:.1f} s", file=sys.stderr)
        env = {**os.environ, "EVIDENCE_NOW": (T0 + timedelta(days=1, hours=1)).isoformat()}
        proc = subprocess.Popen(
            [str(ROOT / ".venv/bin/evidence"), "ui", "--port", "0", "--config", str(config),
             "--db", str(db)],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )  # fmt: skip
        try:
            assert proc.stdout is not None
            url = proc.stdout.readline().strip().removeprefix("serving on ")
            with httpx.Client(timeout=60) as client:
                index_first, index_s, index = timed(client, url, args.repeat)
                _, record_s, _ = timed(client, url + "records/r0", args.repeat)
                decide = url + "update?record_id=r0&claim_id=prize"
                _, decide_s, decided = timed(client, decide, args.repeat)
                assert "The page's words" in decided.text, "r0/prize has nothing to update"
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=30)
    result = {
        "records": args.records,
        "review_items": index.text.split(" item(s) need a person")[0].rsplit(">", 1)[-1],
        "buttons": index.text.count('<form class="act"'),
        "index_kb": round(len(index.content) / 1024),
        "index_first_s": round(index_first, 3),
        "index_median_s": round(index_s[len(index_s) // 2], 3),
        "index_min_s": round(index_s[0], 3),
        "index_max_s": round(index_s[-1], 3),
        "record_median_s": round(record_s[len(record_s) // 2], 3),
        "decision_median_s": round(decide_s[len(decide_s) // 2], 3),
    }
    print(
        f"/ of {args.records} records and {result['review_items']} review items "
        f"({result['buttons']} with a button; {result['index_kb']} KB): first "
        f"{result['index_first_s']} s, then median {result['index_median_s']} s "
        f"(min {result['index_min_s']}, max {result['index_max_s']}); "
        f"/records/r0: median {result['record_median_s']} s; the decision page of an "
        f"Update: median {result['decision_median_s']} s; {args.repeat} requests each"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
