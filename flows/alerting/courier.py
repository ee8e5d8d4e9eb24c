"""Alert messages sent from a process of their own, which is killed at its deadline.

A notify endpoint is someone's server and may answer a byte at a time for ever. A send
in a thread of this process cannot be stopped, and the notifier's own thread pool is
joined when the interpreter exits: one slow endpoint kept `evidence refresh` alive long
after its work was done. The courier is a child interpreter that reads one message a
line on stdin and answers one line each; a message past its time kills the child (a new
one is started for the next), so nothing of a send outlives its deadline.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time

# The child: apprise and json only (the project's packages are not imported there).
_CHILD = """
import json, logging, sys
import apprise
logging.getLogger("apprise").setLevel(logging.CRITICAL)  # its logs can name the URL
print("ready", flush=True)
for line in sys.stdin:
    url, title, body = json.loads(line)
    try:
        sender = apprise.Apprise()
        if not sender.add(url):
            said = [False, "not a notify URL apprise understands"]
        elif sender.notify(title=title, body=body):
            said = [True, None]
        else:
            said = [False, "failed"]
    except Exception as e:
        said = [False, "failed: " + type(e).__name__]
    print(json.dumps(said), flush=True)
"""
START_S = 20.0  # for the child to import its notifier, apart from any message's time


class _Gone(Exception):
    """The child ended (its output closed) before it answered."""


class Courier:
    """Sends messages one at a time in a child process; use as a context manager."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None

    def __enter__(self) -> Courier:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(
        self, url: str, title: str, body: str, limit_s: float
    ) -> tuple[bool, str | None, bool]:
        """(delivered, what went wrong, timed out): at most `limit_s` for this message."""
        proc = self._started()
        if proc is None:
            return False, "the notifier did not start", True
        assert proc.stdin is not None
        try:
            proc.stdin.write(json.dumps([url, title, body]) + "\n")
            proc.stdin.flush()
        except OSError:
            self.close(kill=True)
            return False, "the notifier stopped", False
        try:
            line = self._line(limit_s)
        except _Gone:  # it died on this message (a crash, the OOM killer): no timeout
            code = self.proc.wait() if self.proc is not None else None
            self.close(kill=True)
            return False, f"the notifier stopped (exit {code})", False
        if line is None:
            self.close(kill=True)
            return False, f"took longer than {limit_s:g} s", True
        try:
            ok, error = json.loads(line)
        except ValueError:
            self.close(kill=True)
            return False, "the notifier stopped", False
        return bool(ok), error, False

    def close(self, kill: bool = False) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if not kill:
            try:
                assert proc.stdin is not None
                proc.stdin.close()
                proc.wait(timeout=2)
                return
            except (OSError, subprocess.TimeoutExpired):
                pass
        try:
            os.killpg(proc.pid, 9)
        except OSError:
            proc.kill()
        proc.wait()

    def _started(self) -> subprocess.Popen[str] | None:
        if self.proc is not None and self.proc.poll() is None:
            return self.proc
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _CHILD],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            start_new_session=True,  # its own group: killed whole, never by our Ctrl-C
        )
        try:
            ready = self._line(START_S)
        except _Gone:
            ready = None
        if ready != "ready":
            self.close(kill=True)
            return None
        return self.proc

    def _line(self, limit_s: float) -> str | None:
        """The child's next line within `limit_s`, or None; _Gone when it ended."""
        assert self.proc is not None and self.proc.stdout is not None
        deadline = time.monotonic() + limit_s
        out = self.proc.stdout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([out], [], [], left)
            if ready:
                line = out.readline()
                if not line:
                    raise _Gone
                return line.strip()
