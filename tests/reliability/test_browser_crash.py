"""A browser that crashes under a refresh costs only the page in flight.

The refresh renders four JavaScript-built pages one at a time and stops at a pause point
(evidence_base/pause.py) while the first of them renders: its script has asked for its text
and waits. There the test kills Chromium with SIGKILL (the whole browser, or only the
renderer processes), lets the refresh go on, and reads what it stored.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from servers import Page, WebServer
from support import processes, require_browser, wait_paused

from warehouse.db import connect

from .conftest import start_refresh
from .test_kill import browser_leftovers

PAGES = 4
SHELL = """<html><head><title>Programme {n}</title></head><body><div id="root"></div>
<script>fetch('/api/{n}').then(r => r.json()).then(j => {{
  document.getElementById('root').innerHTML = '<main><p>' + j.text + '</p></main>';
}});</script></body></html>"""


def write_catalog(root: Path, web: WebServer) -> Path:
    config = root / "config"
    (config / "records").mkdir(parents=True)
    (config / "settings.yaml").write_text(
        f"database: {root / 'w.duckdb'}\n"
        "fetch: {retries: 0, timeout_s: 60, browser_concurrency: 1}\n"
    )
    lines = []
    for n in range(PAGES):
        web.routes[f"/p{n}"] = Page(SHELL.format(n=n))
        web.routes[f"/api/{n}"] = Page(
            f'{{"text": "Programme {n} funds {n + 1}0 teams this year."}}',
            content_type="application/json",
        )
        lines.append(
            f'- {{id: r{n}, title: Programme {n}, sources: [{{id: s, url: "{web.url(f"/p{n}")}",'
            f' role: primary, render: browser}}], claims: [{{id: teams, quote: "Programme {n} '
            f'funds {n + 1}0 teams"}}]}}\n'
        )
    (config / "records" / "all.yaml").write_text("".join(lines))
    return config


def browser_tree(mark: bytes) -> dict[int, bytes]:
    """The refresh's Chromium processes by pid, with their command lines: the browser
    (its environment holds the mark) and all it started (a zygote's children keep no
    environment, so they are found by their parents)."""
    parents: dict[int, int] = {}
    commands: dict[int, bytes] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                commands[int(entry.name)] = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    tree = set(processes(lambda cmd, env: mark in env and b"chrom" in cmd[:100].lower()))
    grew = True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grew = bool(more)
    return {pid: commands[pid] for pid in tree if pid in commands}


def alive(pids: set[int]) -> set[int]:
    return {pid for pid in pids if Path(f"/proc/{pid}").exists()}


@pytest.mark.slow
@pytest.mark.parametrize("target", ["browser", "renderer"])
def test_a_crash_costs_the_page_in_flight_only(web: WebServer, tmp_path: Path, target: str) -> None:
    require_browser()
    config = write_catalog(tmp_path, web)
    pause = tmp_path / "pause"
    pause.mkdir()
    (pause / "render.armed").touch()
    mark = f"EVIDENCE_KILL_MARK={tmp_path.name}".encode()
    before_dirs = set(browser_leftovers(b"\0")[1])
    proc = start_refresh(config, EVIDENCE_PAUSE_DIR=str(pause), EVIDENCE_KILL_MARK=tmp_path.name)
    try:
        wait_paused(pause, "render", proc)
        asked = [p for p in (f"/api/{n}" for n in range(PAGES)) if web.hits[p]]
        assert asked == [], "the paused page's text was already served"
        tree = browser_tree(mark)
        kind = b"--type=renderer" if target == "renderer" else None
        victims = [
            pid
            for pid, cmd in tree.items()
            if (kind in cmd if kind else b"--type=" not in cmd and b"crashpad" not in cmd)
        ]
        assert victims, f"no {target} process to kill: {tree}"
        for pid in victims:
            os.kill(pid, signal.SIGKILL)
        (pause / "render.go").touch()
        _, err = proc.communicate(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    con = connect(tmp_path / "w.duckdb", read_only=True)
    try:
        outcomes = dict(
            con.execute("SELECT record_id, outcome FROM fetches ORDER BY record_id").fetchall()
        )
        errors = [
            e
            for (e,) in con.execute("SELECT error FROM fetches WHERE error IS NOT NULL").fetchall()
        ]
        grades = dict(con.execute("SELECT record_id, grade FROM record_status").fetchall())
    finally:
        con.close()
    failed = [r for r, o in outcomes.items() if o != "ok"]
    assert len(outcomes) == PAGES and len(failed) == 1, outcomes
    assert outcomes[failed[0]] == "browser_unavailable"
    said = "was lost" if target == "browser" else "renderer crashed"
    assert said in errors[0], errors
    assert [r for r, g in grades.items() if g == "documented"] == sorted(
        set(outcomes) - {failed[0]}
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and (browser_leftovers(mark)[0] or alive(set(tree))):
        time.sleep(0.2)
    procs, dirs = browser_leftovers(mark)
    assert procs == [] and alive(set(tree)) == set(), f"browser processes left behind: {procs}"
    assert set(dirs) - before_dirs == set(), "profile directories left behind"
