"""Moved to evidence_base.pause; kept for one release, for code that imports it here."""

from evidence_base.pause import WAIT_S, pause_point

__all__ = ["WAIT_S", "pause_point"]
