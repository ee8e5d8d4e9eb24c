"""`evidence serve` for real: a local Prefect server, a schedule that fires, a clean stop."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from servers import Page, WebServer
from support import prefect_api, read_until, wait_for_line

from evidence_base.errors import WarehouseError
from warehouse.db import connect

if TYPE_CHECKING:
    from conftest import SessionPrefect

# tests of the server code itself: the commands here start servers of their own
pytestmark = [pytest.mark.slow, pytest.mark.own_prefect]


def processes_with(marker: str) -> list[int]:
    """PIDs whose environment holds marker (the test's own PREFECT_HOME)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if marker.encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def serve_config(web: WebServer, tmp_path: Path) -> tuple[Path, Path]:
    """A catalog of one record refreshed every minute; (config dir, database)."""
    web.routes["/p"] = Page("<html><main><p>Applications are open for 300 seats.</p></main></html>")
    config = tmp_path / "config"
    (config / "records").mkdir(parents=True)
    db = tmp_path / "w.duckdb"
    (config / "settings.yaml").write_text(
        f'database: {db}\nschedule:\n  cron: "* * * * *"\nfetch: {{retries: 0}}\n'
    )
    (config / "records" / "r.yaml").write_text(
        textwrap.dedent(f"""\
        id: seats
        title: Seats
        sources: [{{id: official, url: "{web.url("/p")}", role: primary}}]
        claims: [{{id: seats, quote: "300 seats"}}]
        """)
    )
    return config, db


def start_serve(config: Path, home: str, **extra: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_API")}
    # a run asked for through the API is picked up within a second, not Prefect's ten
    env.update(PREFECT_HOME=home, PREFECT_RUNNER_POLL_FREQUENCY="1", **extra)
    return subprocess.Popen(
        [sys.executable, "-m", "evidence_cli", "serve", "--config", str(config)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def run_now(api: str, config: Path) -> None:
    """Once serve has put up this catalog's deployment on its schedule, ask for a run of
    it through Prefect's API (what the cron does at the next minute)."""
    deadline = time.monotonic() + 120
    while True:
        found = [
            d
            for d in prefect_api(api).post(f"{api}/deployments/filter", json={}).json()
            if d["parameters"].get("config_dir") == str(config.resolve())
        ]
        if found:
            break
        assert time.monotonic() < deadline, "serve put up no deployment within two minutes"
        time.sleep(0.5)
    (deployment,) = found
    assert [s["schedule"]["cron"] for s in deployment["schedules"]] == ["* * * * *"]
    url = f"{api}/deployments/{deployment['id']}/create_flow_run"
    for _ in range(10):  # a busy server (its database locked by serve's own writes) says 503
        asked = prefect_api(api).post(url, json={})
        if asked.status_code != 503:
            break
        time.sleep(1)
    asked.raise_for_status()


def wait_landed(serve: subprocess.Popen, db: Path) -> None:
    """Until a run has graded the record."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and serve.poll() is None:
        time.sleep(2)
        try:
            con = connect(db, read_only=True, wait_s=0)
        except WarehouseError:
            continue
        try:
            if con.execute(
                "SELECT count(*) FROM record_status WHERE grade = 'documented'"
            ).fetchone() == (1,):
                return
        finally:
            con.close()
    said = serve.communicate()[1] if serve.poll() is not None else ""
    pytest.fail(f"no refresh landed within three minutes: {serve.poll()} {said}")


def stop(serve: subprocess.Popen, how: signal.Signals) -> tuple[str, str]:
    """Send `how`; serve must end by itself, promptly and cleanly; its stdout and stderr."""
    serve.send_signal(how)
    try:
        out, err = serve.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        serve.send_signal(signal.SIGUSR1)  # its threads' stacks, on stderr (faulthandler)
        time.sleep(2)
        serve.kill()
        _, err = serve.communicate()
        pytest.fail(f"serve ignored {how.name} for a minute:\n{err[-6000:]}")
    # Ctrl-C is 130, as every command says it; a TERM is a stop asked for
    assert serve.returncode == (130 if how == signal.SIGINT else 0), err
    assert "Traceback" not in err and err.rstrip().endswith("stopped"), err
    assert "Still processing items" not in err  # Prefect's shutdown is not the user's
    return out, err


def gone(home: str) -> bool:
    for _ in range(30):
        if not processes_with(home):
            return True
        time.sleep(1)
    return False


@pytest.mark.slow
def test_serve_puts_up_its_schedule_runs_and_stops_cleanly(
    web: WebServer, tmp_path: Path, migrated_prefect_home: Path
) -> None:
    config, db = serve_config(web, tmp_path)
    home = str(migrated_prefect_home)
    serve = start_serve(config, home)
    out = ""
    try:
        said = read_until(serve.stderr, serve, "; cron")
        assert said, "the local server never started"
        assert re.search(
            r"; cron '\* \* \* \* \*'; next run at \d{4}-\d\d-\d\d \d\d:\d\d UTC", said
        )
        run_now(said.split("Prefect server at ")[1].split(";")[0] + "/api", config)
        wait_landed(serve, db)
        # the run says what moved after it graded: until it has
        out = read_until(serve.stdout, serve, "URL(s) fetched") or ""
    finally:
        if serve.poll() is None:
            rest, _ = stop(serve, signal.SIGTERM)
            out += rest
    assert gone(home), "serve left processes behind"
    # each run says what moved, as `evidence refresh` does
    assert "seats: documented (fresh), first graded\n" in out, out
    assert "1 URL(s) fetched: 1 with a new snapshot, 0 unchanged, 0 failed" in out, out


@pytest.mark.slow
def test_serve_killed_takes_its_prefect_server_with_it(
    web: WebServer, tmp_path: Path, migrated_prefect_home: Path
) -> None:
    config, _ = serve_config(web, tmp_path)
    home = str(migrated_prefect_home)
    serve = start_serve(config, home)
    try:
        assert wait_for_line(serve, "Prefect server at"), "the local server never started"
        assert len(processes_with(home)) >= 2  # serve and its server
        serve.send_signal(signal.SIGKILL)
        serve.wait(timeout=30)
    finally:
        if serve.poll() is None:
            serve.kill()
    assert serve.returncode == -signal.SIGKILL
    assert gone(home), f"left behind: {processes_with(home)}"


@pytest.mark.slow
def test_serve_uses_a_configured_api_and_stops_on_ctrl_c(
    web: WebServer, tmp_path: Path, session_prefect: SessionPrefect
) -> None:
    from flows.runtime.processes import healthy

    config, db = serve_config(web, tmp_path)
    api = session_prefect.start()  # the test session's server, as a user's own
    serve = start_serve(config, str(tmp_path / "serve-home"), PREFECT_API_URL=api)
    err = ""
    try:
        assert wait_for_line(serve, f"serving on {api}"), "serve never said where it serves"
        run_now(api, config)
        wait_landed(serve, db)
    finally:
        if serve.poll() is None:
            _, err = stop(serve, signal.SIGINT)
    assert "starting a local Prefect server" not in err  # it used the one it was given
    assert healthy(api)  # and left it running
