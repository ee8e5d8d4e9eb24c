"""The memory a page's scripts take, watched: a page is someone else's program, and its
JavaScript can allocate without end. A browser launched here caps each renderer's V8
heap (V8_HEAP_MB, a launch flag); what the heap does not hold (array buffers, images the
page draws) is watched: a renderer process of this machine's browser past
RENDERER_MAX_MB is killed, and the page it rendered is `too_large`; when the whole
browser tree passes TREE_MAX_MB, its largest renderer goes.

The watch runs in a thread of its own, never on the event loop the pages are driven
from, from the first page rendered until the fetcher closes: idle tabs and pop-ups are
watched as pages in flight are. It finds each process once, when it appears (a new pid,
a child of one of ours), and reads only the renderers' sizes at each look.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time

import psutil

RENDERER_MAX_MB = 1024
V8_HEAP_MB = 1536  # a backstop above the watch: the watch sees a heap grow first
TREE_MAX_MB = 4096  # the whole browser's renderers together
# How often the renderers are looked at: a page can allocate a few hundred MB a second
# outside its heap, so a look every tenth of a second overshoots the limit by a fraction.
WATCH_S = 0.1
HEAP_ARGS = [f"--js-flags=--max-old-space-size={V8_HEAP_MB}"]
CLASSIFY_S = 3.0  # a new child is looked at this long for its renderer flag (a zygote's fork)


class MemoryWatch:
    """Kills this process's browser renderers that pass the limit; `killed_since(t)` says
    whether it killed one since monotonic time t; `cpu_s` is the watch's own CPU time
    (`spent_s`, every watch's of this process: what bench/render.py prints)."""

    spent_s = 0.0
    enabled = True  # bench/render.py --no-watch measures the fetcher without it

    def __init__(
        self,
        limit_mb: int = RENDERER_MAX_MB,
        tree_mb: int = TREE_MAX_MB,
        interval_s: float = WATCH_S,
    ) -> None:
        self.limit = limit_mb << 20
        self.tree_limit = tree_mb << 20
        self.interval = interval_s
        self.kills: list[float] = []
        self.cpu_s = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ours: set[int] = {os.getpid()}  # this process and its descendants
        self._seen: set[int] = set()  # every pid looked at once
        self._pending: dict[int, tuple[psutil.Process, float]] = {}  # ours, not yet known
        self.renderers: dict[int, psutil.Process] = {}

    def start(self) -> None:
        """Watch from now until close (once started, a second start does nothing)."""
        if self._thread is None and MemoryWatch.enabled:
            self._thread = threading.Thread(target=self._run, name="renderer-watch", daemon=True)
            self._thread.start()

    def killed_since(self, start: float) -> bool:
        return any(t >= start for t in self.kills)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    async def close(self) -> None:
        self.stop()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            started = time.thread_time()
            with contextlib.suppress(psutil.Error, OSError):
                self.look()
            spent = time.thread_time() - started
            self.cpu_s += spent
            MemoryWatch.spent_s += spent

    def look(self) -> None:
        """One look: new processes found, each renderer's size read, the limits kept."""
        self._discover()
        sizes: dict[int, int] = {}
        for pid, proc in list(self.renderers.items()):
            try:
                rss = proc.memory_info().rss
            except psutil.Error:
                del self.renderers[pid]
                continue
            if rss > self.limit:
                self._kill(pid, proc)
            else:
                sizes[pid] = rss
        if sum(sizes.values()) > self.tree_limit:
            largest = max(sizes, key=sizes.__getitem__)
            self._kill(largest, self.renderers[largest])

    def _kill(self, pid: int, proc: psutil.Process) -> None:
        with contextlib.suppress(psutil.Error):
            proc.kill()
        self.renderers.pop(pid, None)
        self.kills.append(time.monotonic())

    def _discover(self) -> None:
        now = time.monotonic()
        alive = set(psutil.pids())
        self._seen &= alive  # a pid that went is looked at again if it comes back
        self._ours &= alive | {os.getpid()}
        for pid in sorted(alive - self._seen):  # parents before children, mostly
            self._seen.add(pid)
            try:
                proc = psutil.Process(pid)
                if proc.ppid() not in self._ours:
                    continue
            except psutil.Error:
                continue
            self._ours.add(pid)
            self._pending[pid] = (proc, now + CLASSIFY_S)
        for pid, (proc, until) in list(self._pending.items()):
            try:
                if "--type=renderer" in proc.cmdline():
                    self.renderers[pid] = proc
                elif now < until:
                    continue
            except psutil.Error:
                pass
            del self._pending[pid]
