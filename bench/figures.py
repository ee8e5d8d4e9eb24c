"""The figures grammar: how well it reads the hand-labelled domain batches
(../shared/labels/figures_domain_dev*.json), and its cost: `extract_numbers` (subjects
included) over the 181 corpus reference texts on one core, best of several rounds, the
median page's time (the target is 2.5 ms a page) and the mean.

    .venv/bin/python bench/figures.py [--batch dev|dev2|both] [--part tune|check|all]
                                      [--errors] [--rounds 5]

Prints precision and recall per kind for each batch and part (`--part`: the sites tuned
on, the sites scored last, or both; tests/figure_scoring.py), every miss and figure read
where none is labelled with `--errors` (each named by the rule that read it), then
`figures: median_ms=... mean_ms=... pages=... figures=... target_ms=2.5`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from corpus import CORPUS
from figure_scoring import DOMAIN_BATCHES, domain_pages, score_domain
from support import SHARED_LABELS

from extractors.numbers import extract_numbers

TARGET_MS = 2.5
FETCHED_AT = datetime(2026, 12, 1, tzinfo=UTC)  # as the tests score them


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", choices=(*DOMAIN_BATCHES, "both"), default="both")
    parser.add_argument("--part", choices=("tune", "check", "all"), default=None)
    parser.add_argument("--errors", action="store_true", help="print every miss and extra")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    batches = list(DOMAIN_BATCHES) if args.batch == "both" else [args.batch]
    parts = [args.part] if args.part else ["tune", "check", "all"]
    for batch in batches:
        path = SHARED_LABELS / DOMAIN_BATCHES[batch]
        if not path.is_file():
            print(f"no labels at {path}: scores left out")
            continue
        for part in parts:
            scored = score_domain(domain_pages(path, part), FETCHED_AT)
            print(scored.report(f"{batch}, part {part}"))
            if args.errors:
                print("\n".join(f"    {m}" for m in scored.misses))
    truth = json.loads((CORPUS / "ground-truth.json").read_text(encoding="utf-8"))
    texts = [page["articleBody"] for page in truth.values()]
    now = FETCHED_AT
    figures = sum(len(extract_numbers(t, now)) for t in texts)  # warm the caches
    best = [float("inf")] * len(texts)
    for _ in range(args.rounds):
        for i, text in enumerate(texts):
            start = time.process_time()
            extract_numbers(text, now)
            best[i] = min(best[i], time.process_time() - start)
    ms = [b * 1000 for b in best]
    print(
        f"figures: median_ms={statistics.median(ms):.2f} mean_ms={statistics.mean(ms):.2f} "
        f"pages={len(texts)} figures={figures} target_ms={TARGET_MS}"
    )


if __name__ == "__main__":
    main()
