"""The clock: EVIDENCE_NOW (ISO-8601 with a zone) replaces it for every command; `at`
sets it for a block of this process (the demo's two days)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from evidence_base import environment
from evidence_base.errors import EvidenceError

_set: list[datetime] = []  # the times `at` holds, innermost last


def now() -> datetime:
    """The current time in UTC: the one `at` holds, else EVIDENCE_NOW when it is set."""
    if _set:
        return _set[-1]
    value = (environment.get("EVIDENCE_NOW") or "").strip()
    if not value:
        return datetime.now(UTC)
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        parsed = None
    if parsed is None or parsed.tzinfo is None:
        raise EvidenceError(
            f"EVIDENCE_NOW={value!r} is not an ISO-8601 timestamp with a zone, "
            "e.g. 2026-11-04T06:00:00+00:00"
        )
    return parsed.astimezone(UTC)


@contextmanager
def at(when: datetime) -> Iterator[None]:
    """The clock stands at `when` for the block, in this process."""
    if when.tzinfo is None:
        raise ValueError("the clock is set to timezone-aware times only")
    _set.append(when.astimezone(UTC))
    try:
        yield
    finally:
        _set.pop()
