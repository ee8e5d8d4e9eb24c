"""Small helpers the tests share."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

if TYPE_CHECKING:
    from warehouse.queries import RecordSummary


EVIDENCE = Path(sys.executable).with_name("evidence")  # the console script itself


def evidence(
    *args: str,
    env: dict[str, str] | None = None,
    drop: tuple[str, ...] = (),
    cwd: Path | None = None,
    timeout: float = 300,
    script: bool = False,
) -> subprocess.CompletedProcess[str]:
    """`evidence ARGS` in a process of its own, as a user runs it (`script`: through the
    installed console script, not `python -m`), with `env` added to the environment and
    the variables in `drop` left out. Whatever it answers, never a traceback."""
    command = [str(EVIDENCE)] if script else [sys.executable, "-m", "evidence_cli"]
    full_env = {k: v for k, v in os.environ.items() if k not in drop} | (env or {})
    done = subprocess.run(
        [*command, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=full_env,
        cwd=cwd,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def write_config(root: Path, records: str, settings: str = "fetch: {retries: 0}\n") -> Path:
    """root/config with settings.yaml and records/r.yaml (both dedented); returns the dir."""
    config = root / "config"
    (config / "records").mkdir(parents=True, exist_ok=True)
    (config / "settings.yaml").write_text(textwrap.dedent(settings))
    (config / "records" / "r.yaml").write_text(textwrap.dedent(records))
    return config


def one_source_catalog(
    root: Path,
    url: str,
    quote: str,
    *,
    record_id: str = "r",
    title: str = "R",
    settings: str = "",
) -> tuple[Path, Path]:
    """A catalog of one record with one primary source `p` at url and one claim `c`, its
    database root/w.duckdb named in its settings (plus `settings`); (config dir, db)."""
    db = root / "w.duckdb"
    config = write_config(
        root,
        f"id: {record_id}\ntitle: {title}\n"
        f'sources: [{{id: p, url: "{url}", role: primary}}]\n'
        f"claims: [{{id: c, quote: {json.dumps(quote)}}}]\n",
        f"database: {db}\nfetch: {{retries: 0}}\n{settings}",
    )
    return config, db


def refresh_at(config: Path, db: Path, when: datetime, monkeypatch: object) -> list[RecordSummary]:
    """One refresh flow run, in this process, with the clock at `when`; its summary rows
    (one a record: its report's `records`)."""
    from flows.refresh import refresh_flow

    monkeypatch.setenv("EVIDENCE_NOW", when.isoformat())  # type: ignore[attr-defined]
    return refresh_flow(str(config), str(db), None).records


def wait_paused(pause: Path, name: str, proc: object = None, timeout: float = 120) -> int:
    """Until a process stops at pause point `name` (evidence_base/pause.py); its pid. With
    `proc` (a Popen), fail at once should it end first."""
    import time

    import pytest

    hit = pause / f"{name}.hit"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if hit.exists() and hit.read_text():
            return int(hit.read_text())
        if proc is not None and proc.poll() is not None:  # type: ignore[attr-defined]
            pytest.fail(f"ended before pause point {name}: {proc.communicate()[1]}")  # type: ignore[attr-defined]
        time.sleep(0.05)
    pytest.fail(f"nothing reached pause point {name} in {timeout} s")


def browser_found() -> bool:
    """Whether a Chromium for `render: browser` can be started here."""
    from flows.fetching import find_browser

    try:
        import playwright  # noqa: F401

        find_browser(None)
    except (ImportError, LookupError):
        return False
    return True


def require_browser() -> None:
    """Browser tests never skip in CI; elsewhere, with no browser, they say why they skip."""
    import os

    import pytest

    if browser_found():
        return
    if os.environ.get("CI") == "true":
        pytest.fail("CI must have a browser: make browser installs one")
    pytest.skip(
        "no browser here: `make browser` installs one (Playwright's or chromium)",
        allow_module_level=True,
    )


CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "article-extraction-benchmark"


def need_corpus() -> Path:
    """The corpus of real pages: its gates never skip in CI; elsewhere, without it, they
    say why they skip."""
    import os

    import pytest

    if not CORPUS.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must have the corpus at {CORPUS} (../shared beside the checkout)")
        pytest.skip(f"no corpus at {CORPUS}")
    return CORPUS


SHARED_LABELS = Path(__file__).resolve().parents[2] / "shared" / "labels"


def need_shared_labels(name: str) -> Path:
    """A hand-labelled set kept beside the corpus (../shared/labels): gated as the corpus
    is, never skipped in CI."""
    import os

    import pytest

    path = SHARED_LABELS / name
    if not path.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must have the labels at {path} (../shared beside the checkout)")
        pytest.skip(f"no labels at {path}")
    return path


def wait_for_line(proc, needle: str, timeout: float = 120) -> bool:
    """Read the refresh's stderr until a line holds needle (the moment to kill it)."""
    return read_until(proc.stderr, proc, needle, timeout) is not None


def read_until(stream, proc, needle: str, timeout: float = 120) -> str | None:
    """What the process wrote on stream up to and including needle; None if it ended or
    the time ran out first."""
    import os
    import select
    import time

    deadline = time.monotonic() + timeout
    buffer = ""
    fd = stream.fileno()
    while time.monotonic() < deadline and proc.poll() is None:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            chunk = os.read(fd, 4096).decode(errors="replace")
            buffer += chunk
            if needle in buffer:
                return buffer
    return None


def processes(match: Callable[[bytes, bytes], bool]) -> list[int]:
    """Live processes whose (command line, environment) match."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes()
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if match(cmd, environ):
            found.append(int(entry.name))
    return found


def prefect_api(api: str) -> httpx.Client:
    """An httpx client for a Prefect API this project started: each request carries the
    CSRF token the server issues (as Prefect's own client does); plain requests that
    change state are refused (flows/runtime/processes.py, server_env)."""
    import secrets

    client = secrets.token_hex(8)
    token = httpx.get(f"{api}/csrf-token", params={"client": client}, timeout=30).json()
    return httpx.Client(
        headers={"Prefect-Csrf-Token": token["token"], "Prefect-Csrf-Client": client},
        timeout=30,
    )


def git(repo: Path, *args: str) -> str:
    """git in `repo` as a person named Dana (a real process); its stdout."""
    import subprocess

    return subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=Dana", "-c", "user.email=dana@example.org",
         *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()  # fmt: skip
