"""What a refresh's report costs as the catalog grows: `record_moves` (every record's
grade move with its claim moves) on a first refresh of N records, 3 claims each.

    .venv/bin/python bench/moves.py [--records 2000 20000]

Prints `moves: records=N seconds=S` per size: the time should grow with N, not faster.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from extractors.values import CheckOutcome, Freshness, Grade
from flows.alerting.moves import ClaimMove, record_moves
from warehouse.alerts import CheckState, EvidenceState


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, nargs="+", default=[2000, 20000])
    args = parser.parse_args()
    for n in args.records:
        graded = {f"r{i}": (Grade.DOCUMENTED, Freshness.FRESH) for i in range(n)}
        confirmed = CheckState(CheckOutcome.CONFIRMED, ())
        checks = {(f"r{i}", f"c{j}", "s0"): confirmed for i in range(n) for j in range(3)}
        after = EvidenceState(records=graded, checks=checks, held={}, shells={})
        before = EvidenceState(records={}, checks={}, held={}, shells={})
        claims = [  # half the records' claims moved; the others moved by no claim
            ClaimMove(f"r{i}", f"c{j}", "s0", "u", "unchecked", CheckOutcome.CONFIRMED)
            for i in range(0, n, 2)
            for j in range(3)
        ]
        start = time.perf_counter()
        moved = record_moves(before, after, claims)
        print(f"moves: records={n} moved={len(moved)} seconds={time.perf_counter() - start:.3f}")


if __name__ == "__main__":
    main()
