"""The status reader: how well it reads the hand-labelled development set, and what it
costs on the 181 corpus reference texts (one core, each page timed alone, best of several
rounds; the target is 1 ms a page at the median).

    .venv/bin/python bench/statuses.py [--part tune|check|all] [--errors] [--rounds 5]

Prints the page-level and sentence-level precision and recall per status and overall,
the traps taken by kind, then `statuses: median_ms=... p90_ms=... pages=... target_ms=1`.
`--part`: the sites tuned on, the sites scored last, or both (tests/status_scoring.py).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from corpus import CORPUS
from status_scoring import PARTS, load_pages, score

from extractors.statuses import extract_statuses

LABELS = Path(__file__).resolve().parents[2] / "shared" / "labels" / "statuses_dev.json"
TARGET_MS = 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=PARTS, default="all")
    parser.add_argument("--errors", action="store_true", help="print every miss and false read")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    scores = score(load_pages(LABELS, args.part), extract_statuses)
    print(scores.report(f"statuses_dev.json, part {args.part}"))
    if args.errors:
        print("\n".join(scores.errors))
    truth = json.loads((CORPUS / "ground-truth.json").read_text(encoding="utf-8"))
    texts = [page["articleBody"] for page in truth.values()]
    found = sum(len(extract_statuses(t)) for t in texts)  # warm the caches
    best = [float("inf")] * len(texts)
    for _ in range(args.rounds):
        for i, text in enumerate(texts):
            start = time.process_time()
            extract_statuses(text)
            best[i] = min(best[i], time.process_time() - start)
    ms = sorted(b * 1000 for b in best)
    print(
        f"statuses: median_ms={statistics.median(ms):.3f} p90_ms={ms[int(len(ms) * 0.9)]:.3f} "
        f"pages={len(texts)} statuses={found} target_ms={TARGET_MS:g}"
    )


if __name__ == "__main__":
    main()
