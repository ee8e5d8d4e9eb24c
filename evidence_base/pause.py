"""Pause points for the tests that kill a refresh at a moment they can name.

Inert unless EVIDENCE_PAUSE_DIR is set and holds `<name>.armed`. Then the first process
to reach the point (one only: it claims `<name>.hit` atomically) writes its pid there and
waits, up to a minute, for `<name>.go`; every later arrival passes straight through.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from evidence_base import environment

WAIT_S = 60.0


def pause_point(name: str) -> None:
    folder = environment.get("EVIDENCE_PAUSE_DIR")
    if not folder:
        return
    root = Path(folder)
    if not (root / f"{name}.armed").exists():
        return
    try:
        fd = os.open(root / f"{name}.hit", os.O_WRONLY | os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        return
    with os.fdopen(fd, "w") as f:
        f.write(str(os.getpid()))
    deadline = time.monotonic() + WAIT_S
    while not (root / f"{name}.go").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
