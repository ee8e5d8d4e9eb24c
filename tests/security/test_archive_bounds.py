"""A Save Page Now endpoint is someone else's server: the sender never follows its
redirects (a 307 would carry the POST to another address), reads its answers within a
byte limit however they are compressed, and spends a bounded time on it however slowly
it drips. Each trouble is the capture's, retried later; the step returns."""

from __future__ import annotations

import gzip
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from servers import POLL_S, Page, QuietServer, WebServer
from support import refresh_at, write_config

from flows.catalog import ArchiveSettings, FetchSettings
from flows.fetching import capture
from flows.fetching.capture import send_captures
from warehouse.db import connect

pytestmark = pytest.mark.slow

T0 = datetime(2026, 12, 1, 6, 0, tzinfo=UTC)
BOMB = gzip.compress(b"{" + b" " * 50_000_000 + b"}")  # 50 MB of JSON in about 50 KB


class Archive:
    """A hostile archive on 127.0.0.1: `mode` is redirect, bomb or drip."""

    def __init__(self, mode: str, inside: str) -> None:
        self.mode = mode
        self.stop = threading.Event()
        archive = self

        class _H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if archive.mode == "redirect":
                    self.send_response(307)
                    self.send_header("Location", inside)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                elif archive.mode == "bomb":
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Encoding", "gzip")
                    self.send_header("Content-Length", str(len(BOMB)))
                    self.end_headers()
                    self.wfile.write(BOMB)
                else:  # a byte every 3 s, for ever
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", "1000")
                    self.end_headers()
                    while not archive.stop.wait(3):
                        self.wfile.write(b" ")
                        self.wfile.flush()

        self.httpd = QuietServer(("127.0.0.1", 0), _H)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, args=(POLL_S,), daemon=True).start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.stop.set()
        self.httpd.shutdown()


@pytest.fixture
def confirmed(
    prefect_harness: None, web: WebServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """A database whose one claim was just confirmed (a capture to queue)."""
    web.routes["/p"] = Page("<html><main><p>We offer 40 seats this year.</p></main></html>")
    db = tmp_path / "w.duckdb"
    config = write_config(
        tmp_path,
        f'id: r\ntitle: R\nsources: [{{id: p, url: "{web.url("/p")}", role: primary}}]\n'
        "claims: [{id: seats, quote: We offer 40 seats}]\n",
        f"database: {db}\nfetch: {{retries: 0}}\n",
    )
    refresh_at(config, db, T0, monkeypatch)
    return db


@pytest.fixture
def inside() -> Iterator[WebServer]:
    """A server the archive's redirect points at: nothing may reach it."""
    server = WebServer().start()
    yield server
    server.stop()


def _errors(db: Path) -> list[str]:
    con = connect(db, read_only=True)
    try:
        return [e for (e,) in con.execute("SELECT last_error FROM store.captures").fetchall()]
    finally:
        con.close()


@pytest.mark.parametrize("mode", ["redirect", "bomb", "drip"])
def test_a_hostile_archive_costs_its_capture_and_bounded_time(
    confirmed: Path, inside: WebServer, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(capture, "TIMEOUT_S", 4.0)
    archive = Archive(mode, inside.url("/admin/delete"))
    try:
        started = time.monotonic()
        report = send_captures(confirmed, ArchiveSettings(save=archive.base), FetchSettings(), T0)
        took = time.monotonic() - started
    finally:
        archive.close()
    assert report.queued == 1 and report.sent == 0
    assert took < 4.0 + 5, took  # one answer's time, not the drip's minutes
    (error,) = _errors(confirmed)
    assert (
        error
        and {
            "redirect": "redirect, not followed",
            "bomb": "larger than",
            "drip": "no whole answer",
        }[mode]
        in error
    )
    assert inside.hits == {} and inside.posts == []  # the redirect led nowhere
