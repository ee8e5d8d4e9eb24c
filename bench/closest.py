"""Benchmark: what the closest passage of an absent claim costs, on its own.

    python bench/closest.py [--repeat R]

Reads the 181 corpus pages once, then times on one core, per page: (a) reading it
(`extract_page`, what a refresh does for each new page); (b) checking the three quotes of
its record as bench/refresh.py's catalog has them (its own sentence and two from other
pages: mostly absent), with the closest passage and (c) without it; and (d) the worst
case, a quote of the page itself with one word changed (absent, and close: the search
runs in full every time). Prints each in ms per page and (b - c) as a share of (a).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corpus import load_corpus
from refresh import quote_of

from extractors import claims
from extractors.claims import match_claim, normalize_text
from extractors.page import extract_page


def reworded(quote: str) -> str:
    """The quote with its longest word replaced: absent from the page, yet close."""
    longest = max(re.findall(r"[A-Za-z]{4,}", quote) or [quote], key=len)
    return quote.replace(longest, "zzzz" + longest[::-1], 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    pages = load_corpus()
    at = datetime(2026, 12, 1, tzinfo=UTC)
    started = time.perf_counter()
    texts = [extract_page(p.html.decode("utf-8", "replace"), None, at).text for p in pages]
    read_ms = (time.perf_counter() - started) * 1000 / len(pages)
    normalized = [normalize_text(t) for t in texts]
    quotes = [quote_of(p) for p in pages]
    n = len(pages)
    workload = [
        (normalized[i], [quotes[i], quotes[(i + 1) % n], quotes[(i + 2) % n]]) for i in range(n)
    ]
    worst = [(normalized[i], [reworded(quotes[i])]) for i in range(n)]

    def timed(jobs: list, closest: bool) -> tuple[float, int]:
        original = claims.closest_passage
        if not closest:
            claims.closest_passage = lambda *_: None  # type: ignore[assignment]
        try:
            best, hints = float("inf"), 0
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                hints = sum(
                    match_claim(q, page).closest_text is not None for page, qs in jobs for q in qs
                )
                best = min(best, time.perf_counter() - t0)
            return best * 1000 / n, hints
        finally:
            claims.closest_passage = original

    with_ms, hints = timed(workload, True)
    without_ms, _ = timed(workload, False)
    worst_with, worst_hints = timed(worst, True)
    worst_without, _ = timed(worst, False)
    print(f"pages: {n}; reading a page: {read_ms:.2f} ms")
    print(
        f"checking its record's 3 quotes: {with_ms:.3f} ms with the closest passage "
        f"({hints} hints), {without_ms:.3f} ms without: +{with_ms - without_ms:.3f} ms, "
        f"{(with_ms - without_ms) / read_ms:.2%} of reading the page"
    )
    print(
        f"worst case, one reworded quote of the page itself: {worst_with:.3f} ms with "
        f"({worst_hints} hints), {worst_without:.3f} ms without: "
        f"+{worst_with - worst_without:.3f} ms, {(worst_with - worst_without) / read_ms:.2%}"
    )


if __name__ == "__main__":
    main()
