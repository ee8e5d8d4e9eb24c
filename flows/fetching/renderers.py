"""The memory a page's scripts take, watched: a page is someone else's program, and its
JavaScript can allocate without end. A browser launched here caps each renderer's V8
heap (V8_HEAP_MB, a launch flag); what the heap does not hold (array buffers, images
the page draws) is watched: while a page renders, a renderer process of this machine's
browser past RENDERER_MAX_MB is killed, and the page it rendered is `too_large`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator

import psutil

RENDERER_MAX_MB = 1024
V8_HEAP_MB = 1536  # a backstop above the watch: the watch sees a heap grow first
WATCH_S = 0.05  # how often the renderers are looked at while a page renders
HEAP_ARGS = [f"--js-flags=--max-old-space-size={V8_HEAP_MB}"]


class MemoryWatch:
    """Kills this process's browser renderers that pass the limit while pages render;
    `killed_since(t)` says whether it killed one since monotonic time t."""

    def __init__(self, limit_mb: int = RENDERER_MAX_MB) -> None:
        self.limit = limit_mb << 20
        self.kills: list[float] = []
        self._rendering = 0
        self._task: asyncio.Task[None] | None = None

    @contextlib.asynccontextmanager
    async def rendering(self) -> AsyncIterator[None]:
        """Watch while the block renders a page."""
        self._rendering += 1
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._watch())
        try:
            yield
        finally:
            self._rendering -= 1

    def killed_since(self, start: float) -> bool:
        return any(t >= start for t in self.kills)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _watch(self) -> None:
        me = psutil.Process(os.getpid())
        while self._rendering > 0:
            for proc in _renderers(me):
                try:
                    if proc.memory_info().rss > self.limit:
                        proc.kill()
                        self.kills.append(time.monotonic())
                except psutil.Error:
                    continue
            await asyncio.sleep(WATCH_S)


def _renderers(me: psutil.Process) -> list[psutil.Process]:
    """The renderer processes of browsers this process started."""
    found: list[psutil.Process] = []
    try:
        children = me.children(recursive=True)
    except psutil.Error:
        return found
    for proc in children:
        try:
            if "--type=renderer" in proc.cmdline():
                found.append(proc)
        except psutil.Error:
            continue
    return found
