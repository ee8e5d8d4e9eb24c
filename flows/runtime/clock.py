"""The clock: EVIDENCE_NOW (ISO-8601 with a zone) replaces it for every command."""

from __future__ import annotations

import os
from datetime import UTC, datetime

from evidence_base.errors import EvidenceError


def now() -> datetime:
    """The current time in UTC, or EVIDENCE_NOW when it is set."""
    value = os.environ.get("EVIDENCE_NOW", "").strip()
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
