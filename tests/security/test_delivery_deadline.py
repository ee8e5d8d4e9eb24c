"""A notification endpoint that answers one byte every 3 s costs a refresh seconds, not
minutes: each message has a deadline, a run's deliveries have one in all, and what is
left is retried next run."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from servers import POLL_S, Page, QuietServer, WebServer
from support import write_config

from flows.alerting.delivery import (
    DELIVERY_BUDGET_S,
    SEND_TIMEOUT_S,
    channel_key,
    deliver,
    mask_url,
)
from warehouse import alerts
from warehouse.alerts import Message
from warehouse.db import connect

NOW = datetime(2026, 12, 1, 6, 0, tzinfo=UTC)


class Drip:
    """A webhook on 127.0.0.1 that answers one byte every 3 s (or at once when `fast`)."""

    def __init__(self) -> None:
        self.fast = False
        self.received: list[str] = []
        self.arrived = threading.Event()  # a message reached it
        self.stop = threading.Event()
        drip = self

        class _H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                drip.arrived.set()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "100")
                self.end_headers()
                if drip.fast:
                    drip.received.append(self.path)
                    self.wfile.write(b" " * 100)
                    return
                for _ in range(100):
                    if drip.stop.wait(3):
                        return
                    self.wfile.write(b" ")
                    self.wfile.flush()

        self.httpd = QuietServer(("127.0.0.1", 0), _H)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, args=(POLL_S,), daemon=True).start()

    def url(self, path: str) -> str:
        return f"json://127.0.0.1:{self.httpd.server_address[1]}{path}"


@pytest.fixture
def drip() -> Iterator[Drip]:
    server = Drip()
    yield server
    server.stop.set()
    server.httpd.shutdown()


def queue(db: Path, urls: list[str], count: int) -> None:
    con = connect(db, now=NOW)
    messages = [Message("unreachable", "r", f"unreachable: r {i}", "body") for i in range(count)]
    alerts.keep(con, messages, [(channel_key(u), mask_url(u)) for u in urls], NOW)
    con.close()


def attempts(db: Path) -> list[tuple[int, bool]]:
    con = connect(db, read_only=True)
    try:
        return [
            (n, sent)
            for n, sent in con.execute(
                "SELECT attempts, sent_at IS NOT NULL FROM store.deliveries ORDER BY delivery_id"
            ).fetchall()
        ]
    finally:
        con.close()


@pytest.mark.slow
def test_a_dripping_endpoint_costs_one_message_deadline(drip: Drip, tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    url = drip.url("/hook")
    queue(db, [url], 3)
    started = time.monotonic()
    assert deliver(db, [url], NOW) == 0
    assert time.monotonic() - started < SEND_TIMEOUT_S + 3
    # the first timed out (one attempt); the other two were not tried: next run's
    assert attempts(db) == [(1, False), (0, False), (0, False)]


@pytest.mark.slow
def test_every_channel_dripping_costs_at_most_the_run_budget(drip: Drip, tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    urls = [drip.url(f"/hook{i}") for i in range(5)]
    queue(db, urls, 2)
    started = time.monotonic()
    assert deliver(db, urls, NOW) == 0
    assert time.monotonic() - started < DELIVERY_BUDGET_S + 3
    tried = [a for a, _ in attempts(db)]
    assert sum(tried) <= DELIVERY_BUDGET_S / SEND_TIMEOUT_S


@pytest.mark.slow
def test_what_ran_out_of_time_is_delivered_next_run(drip: Drip, tmp_path: Path) -> None:
    db = tmp_path / "w.duckdb"
    url = drip.url("/hook")
    queue(db, [url], 3)
    deliver(db, [url], NOW)
    drip.fast = True
    assert deliver(db, [url], NOW) == 3
    assert [sent for _, sent in attempts(db)] == [True, True, True]
    assert len(drip.received) == 3


@pytest.mark.slow
def test_a_refresh_with_a_dripping_endpoint_exits_once_its_work_is_done(
    drip: Drip, web: WebServer, tmp_path: Path
) -> None:
    """The whole process: nothing of a delivery (the notifier's thread pool included)
    outlives the message's deadline, so `evidence refresh` exits in seconds, not after
    the endpoint's five minutes of drip."""
    web.routes["/gone"] = Page("no", status=404)
    db = tmp_path / "w.duckdb"
    config = write_config(
        tmp_path,
        f'id: r\ntitle: R\nsources: [{{id: s, url: "{web.url("/gone")}", role: primary}}]\n',
        f"database: {db}\nfetch: {{retries: 0}}\n"
        f"alerts: {{after_failures: 1, notify: ['{drip.url('/hook')}']}}\n",
    )
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "evidence_cli", "refresh", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=240,
    )
    took = time.monotonic() - started
    assert done.returncode == 0, done.stderr[-2000:]
    assert "not delivered" in done.stderr or "left for the next run" in done.stderr
    # Prefect's start-up and the run, then one message's deadline: far from the drip's
    assert took < 90, took
    assert attempts(db) == [(1, False)]


@pytest.mark.slow
def test_a_notifier_that_dies_on_a_message_is_said_as_such_not_as_a_timeout(
    drip: Drip,
) -> None:
    """The child dies while it sends (killed here; a crash or the OOM killer): the
    message failed because the notifier stopped, at once, not after its deadline."""
    import os
    import signal

    from flows.alerting.courier import Courier

    with Courier() as courier:

        def kill_when_sending() -> None:
            drip.arrived.wait(30)
            assert courier.proc is not None
            os.kill(courier.proc.pid, signal.SIGKILL)

        threading.Thread(target=kill_when_sending, daemon=True).start()
        start = time.monotonic()
        said = courier.send(drip.url("/hook"), "t", "b", limit_s=60)
    assert said == (False, "the notifier stopped (exit -9)", False)
    assert time.monotonic() - start < 30
