"""The renderer watch (flows/fetching/renderers.py) on processes of its own making: a
child that says it is a renderer and grows is killed past the limit, whether or not a
page renders; the whole tree past its limit loses its largest; others are left alone;
and the watch's own time is small."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from flows.fetching.renderers import MemoryWatch

pytestmark = pytest.mark.slow  # real child processes

GROW = """
import sys, time
kept = []
print("ready", flush=True)
while len(kept) < int(sys.argv[1]):
    kept.append(bytearray(1 << 20))
    time.sleep(0.005)
time.sleep(60)
"""


def child(megabytes: int, renderer: bool = True) -> subprocess.Popen[str]:
    flag = ["--type=renderer"] if renderer else ["--type=utility"]
    proc = subprocess.Popen(
        [sys.executable, "-c", GROW, str(megabytes), *flag], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def wait_for(condition: object, timeout: float = 20) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


def test_a_renderer_past_its_limit_is_killed_with_no_page_rendering() -> None:
    watch = MemoryWatch(limit_mb=80, tree_mb=10_000, interval_s=0.05)
    watch.start()
    grower, other = child(300), child(300, renderer=False)
    try:
        assert wait_for(lambda: grower.poll() is not None)
        assert grower.returncode == -9 and watch.killed_since(0)
        assert other.poll() is None  # not a renderer: not the watch's to kill
    finally:
        watch.stop()
        for proc in (grower, other):
            proc.kill()
            proc.wait()
    assert watch.cpu_s < 2.0


def test_a_tree_past_its_limit_loses_its_largest_renderer() -> None:
    watch = MemoryWatch(limit_mb=1000, tree_mb=100, interval_s=0.05)
    small, large = child(30), child(90)
    watch.start()
    try:
        assert wait_for(lambda: large.poll() is not None)
        assert small.poll() is None
    finally:
        watch.stop()
        for proc in (small, large):
            proc.kill()
            proc.wait()
