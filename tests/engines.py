"""Browser engines for the tests, started on 127.0.0.1 by the test itself: a Playwright
server (`playwright run-server`, as the Playwright package ships it) and a Chromium with
`--remote-debugging-port` (what browserless and sockpuppetbrowser expose), each in its
own process group, stopped with everything it started."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import playwright
from support import processes

from flows.fetching import find_browser


def chromium() -> str:
    """The Chromium the tests drive (Playwright's own, else the system's)."""
    found = find_browser(None)
    if found is not None:
        return found
    own = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or Path.home() / ".cache/ms-playwright")
    for name in ("chrome-linux64/chrome", "chrome-linux/chrome"):
        hits = sorted(own.glob(f"chromium-*/{name}"))
        if hits:
            return str(hits[-1])
    raise LookupError("no Chromium for the engine tests")


def _browsers_dir(root: Path) -> dict[str, str]:
    """The environment under which a Playwright server finds a browser: its own when
    installed, else the system's Chromium laid out where Playwright looks for its own."""
    if find_browser(None) is None:
        return {}
    listing = Path(playwright.__file__).parent / "driver/package/browsers.json"
    browsers = {b["name"]: b["revision"] for b in json.loads(listing.read_text())["browsers"]}
    for name, folder, exe in (
        ("chromium-headless-shell", "chrome-headless-shell-linux64", "chrome-headless-shell"),
        ("chromium", "chrome-linux64", "chrome"),
    ):
        target = root / f"{name.replace('-', '_')}-{browsers[name]}" / folder
        target.mkdir(parents=True, exist_ok=True)
        (target / exe).symlink_to(chromium())
    return {"PLAYWRIGHT_BROWSERS_PATH": str(root)}


class Engine:
    """A started engine process: its URL for `fetch.browser_endpoint`, and its group."""

    def __init__(self, args: list[str], env: dict[str, str], root: Path) -> None:
        self.root = root
        self.proc = subprocess.Popen(
            args,
            # the engine is another machine's: none of this process's marks
            env={**{k: v for k, v in os.environ.items() if "_MARK" not in k}, **env},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.url = ""

    @property
    def running(self) -> bool:
        return self.proc.poll() is None

    def stop(self) -> None:
        if self.running:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)
        if self.proc.stdout is not None:
            self.proc.stdout.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def playwright_server(root: Path, port: int = 0) -> Engine:
    """`playwright run-server` on 127.0.0.1: ws://127.0.0.1:PORT/."""
    port = port or _free_port()
    engine = Engine(
        [
            sys.executable,
            "-m",
            "playwright",
            "run-server",
            "--port",
            str(port),
            "--host",
            "127.0.0.1",
        ],
        _browsers_dir(root / "browsers"),
        root,
    )
    assert engine.proc.stdout is not None
    line = engine.proc.stdout.readline().decode()
    if "Listening on" not in line:
        engine.stop()
        raise RuntimeError(f"playwright run-server did not start: {line!r}")
    engine.url = f"ws://127.0.0.1:{port}/"
    return engine


def devtools_chromium(root: Path) -> Engine:
    """A headless Chromium with its DevTools endpoint on 127.0.0.1: cdp+http://..."""
    profile = Path(tempfile.mkdtemp(prefix="cdp-profile-", dir=root))
    engine = Engine(
        [
            chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-extensions",
            "--disable-dev-shm-usage",
            "--remote-debugging-address=127.0.0.1",
            "--remote-debugging-port=0",
            f"--user-data-dir={profile}",
        ],
        {},
        root,
    )
    active = profile / "DevToolsActivePort"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (active.exists() and active.read_text().strip()):
        time.sleep(0.05)
    if not active.exists():
        engine.stop()
        raise RuntimeError("Chromium gave no DevTools port")
    port = active.read_text().split()[0]
    # the port file comes before the endpoint answers: wait until it does
    import urllib.request

    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version", timeout=2):
                break
        except OSError:
            time.sleep(0.1)
    engine.url = f"cdp+http://127.0.0.1:{port}"
    return engine


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def marked_browsers(marker: str) -> list[int]:
    """Chromium processes whose environment holds `marker`: those this process, or a
    process it started, launched."""
    needle = marker.encode()
    return processes(lambda cmd, env: needle in env and b"chrom" in cmd.split(b"\0")[0].lower())
