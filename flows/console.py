"""Progress for people: one line per step on stderr, prefixed like every CLI message."""

from __future__ import annotations

import sys


def progress(message: str) -> None:
    print(f"evidence: {message}", file=sys.stderr, flush=True)
