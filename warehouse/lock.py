"""One refresh per database: an OS file lock beside it, released by the kernel if the
holder dies."""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from evidence_base.errors import OutputRefused, RefreshRunning

# Locks this process holds, by lock file: taking one again is a no-op, so that the CLI can
# hold the lock from before Prefect starts while the flow it runs takes it as well.
_held: set[Path] = set()
_held_guard = threading.Lock()
PID_WAIT_S = 1.0


def lock_path(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".lock")


@contextmanager
def refresh_lock(db_path: Path) -> Iterator[None]:
    """Hold `<db>.lock` for the block; RefreshRunning at once if another process holds it."""
    key = lock_path(db_path).absolute()
    with _held_guard:
        nested = key in _held
    if nested:
        yield  # the outer holder releases it
        return
    db_path.parent.mkdir(parents=True, exist_ok=True)
    fd = _open_lock(key, os.O_RDWR | os.O_CREAT)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise _running(db_path, fd) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        with _held_guard:
            _held.add(key)
        try:
            yield
        finally:
            with _held_guard:
                _held.discard(key)
            os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def ensure_no_refresh(db_path: Path) -> None:
    """Fail fast when another process holds the lock now.

    Creates nothing: without a lock file no refresh is running. Only a hint: the lock
    itself is what keeps a second refresh out.
    """
    path = lock_path(db_path)
    try:
        fd = _open_lock(path, os.O_RDONLY)
    except FileNotFoundError:
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            raise _running(db_path, fd) from None
        fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _open_lock(path: Path, flags: int) -> int:
    """The lock file, opened never through a symlink and only when it is a regular file of
    its own: the lock truncates what it opens, which must never be another file."""
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)
    except FileNotFoundError:
        raise
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise OutputRefused(
                f"{path} is a symlink: remove it (the lock file is made anew)"
            ) from None
        raise OutputRefused(f"cannot open the lock file {path}: {e.strerror}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_nlink > 1:
        os.close(fd)
        raise OutputRefused(
            f"{path} is not a lock file of its own (a link to another file, or not a "
            "regular file): remove it"
        )
    return fd


def _running(db_path: Path, fd: int) -> RefreshRunning:
    # The holder writes its pid just after it takes the lock: a moment to wait for it.
    deadline = time.monotonic() + PID_WAIT_S
    while not (holder := os.pread(fd, 32, 0).decode(errors="replace").strip()):
        if time.monotonic() > deadline:
            holder = "unknown"
            break
        time.sleep(0.01)
    return RefreshRunning(
        f"a refresh is already running on {db_path} (pid {holder}); wait for it to finish"
    )
