"""Ctrl-C during a one-off run: one line, exit 130, at once, nothing stored lost.

The first SIGINT says so on stderr, silences logging (Prefect's "Crash detected!" and
its traceback tell the user nothing they did not do), runs what was registered to stop
(the pool's workers) and raises KeyboardInterrupt in the main thread, so that an open
transaction rolls back and the lock is let go. Whatever still holds the process after
GRACE_S (fetches in flight, Prefect's own shutdown) is cut short with exit 130; a second
Ctrl-C exits at once. Every write is its own committed transaction, so what is stored
stays stored, as it does when a refresh is killed.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

EXIT_INTERRUPTED = 130
GRACE_S = 1.0  # for the main thread to unwind before the process is ended
_on_interrupt: list[Callable[[], None]] = []
_said = threading.Event()


def on_interrupt(stop: Callable[[], None]) -> None:
    """Call stop (once, quickly, from the signal handler) when the run is interrupted."""
    _on_interrupt.append(stop)


def interrupted() -> bool:
    """Whether Ctrl-C was pressed, and said, during the run."""
    return _said.is_set()


def _end() -> None:
    if "multiprocessing" in sys.modules:
        # the pool's semaphores are unlinked here, else the resource tracker left behind
        # warns of them on the terminal
        from multiprocessing import util

        try:
            util._run_finalizers(0)  # type: ignore[attr-defined]
        except Exception:  # ending regardless
            pass
    sys.stderr.flush()
    os._exit(EXIT_INTERRUPTED)


def _handler(signum: int, frame: FrameType | None) -> None:
    if _said.is_set():
        _end()
    _said.set()
    print("evidence: interrupted; what was stored is kept", file=sys.stderr, flush=True)
    logging.disable(logging.CRITICAL)
    for stop in _on_interrupt:
        try:
            stop()
        except Exception:  # best effort: the exit below ends all
            pass
    timer = threading.Timer(GRACE_S, _end)
    timer.daemon = True
    timer.start()
    raise KeyboardInterrupt


@contextmanager
def stop_on_interrupt() -> Iterator[None]:
    """Handle Ctrl-C as above for the block (main thread only; elsewhere a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, _handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
