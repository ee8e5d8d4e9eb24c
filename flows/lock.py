"""One refresh per database: an OS file lock, released by the kernel if the holder dies."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from flows.errors import RefreshRunning


@contextmanager
def refresh_lock(db_path: Path) -> Iterator[None]:
    """Hold `<db>.lock` for the whole refresh; a second refresh fails at once."""
    db_path.parent.mkdir(parents=True, exist_ok=True)
    lock_path = db_path.with_name(db_path.name + ".lock")
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            raise RefreshRunning(
                f"a refresh is already running on {db_path} (pid {holder}); wait for it to finish"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def ensure_no_refresh(db_path: Path) -> None:
    """Fail fast, before Prefect starts, when a refresh already holds the lock.

    Creates nothing: without a lock file no refresh is running (a config error found
    after this check still leaves no trace)."""
    if not db_path.with_name(db_path.name + ".lock").exists():
        return
    with refresh_lock(db_path):
        pass
