"""The figures grammar's cost: `extract_numbers` (subjects included) over the 181 corpus
reference texts on one core, best of several rounds; the target is 2.5 ms a page.

    .venv/bin/python bench/figures.py [--rounds 5]

Prints one line: `figures: ms_per_page=... pages=... figures=... target_ms=2.5`.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corpus import CORPUS

from extractors.numbers import extract_numbers

TARGET_MS = 2.5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    truth = json.loads((CORPUS / "ground-truth.json").read_text(encoding="utf-8"))
    texts = [page["articleBody"] for page in truth.values()]
    now = datetime(2026, 12, 1, tzinfo=UTC)
    figures = sum(len(extract_numbers(t, now)) for t in texts)  # warm the caches
    best = float("inf")
    for _ in range(args.rounds):
        start = time.process_time()
        for text in texts:
            extract_numbers(text, now)
        best = min(best, time.process_time() - start)
    per_page = best / len(texts) * 1000
    print(
        f"figures: ms_per_page={per_page:.2f} pages={len(texts)} figures={figures} "
        f"target_ms={TARGET_MS}"
    )


if __name__ == "__main__":
    main()
