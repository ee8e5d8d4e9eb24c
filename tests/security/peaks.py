"""Memory peaks of a probe run in a fresh process: its own high-water mark (which, unlike
`ru_maxrss`, does not start from the parent's) and its process tree's, sampled."""

from __future__ import annotations

import subprocess
import sys

# Prepended to a probe: `own_mb()` and `tree_mb()` (the peak so far of this process and
# its children together, sampled every 20 ms).
SAMPLER = """
import threading, psutil

def own_mb():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmHWM")) // 1024

_peak = [0]

def _sample():
    me = psutil.Process()
    while True:
        total = 0
        for p in [me, *me.children(recursive=True)]:
            try:
                total += p.memory_info().rss
            except psutil.Error:
                pass
        _peak[0] = max(_peak[0], total)
        threading.Event().wait(0.02)

threading.Thread(target=_sample, daemon=True).start()

def tree_mb():
    return _peak[0] >> 20
"""


def run_probe(code: str, *args: str) -> list[str]:
    """The words of the probe's last line (it fails the test when the probe fails)."""
    done = subprocess.run(
        [sys.executable, "-c", SAMPLER + code, *args], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-1].split()
