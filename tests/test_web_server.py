"""The tests' own HTTP server: quiet about clients that go away, loud about the rest."""

from __future__ import annotations

import socket
import struct
import time

import pytest
from servers import Page, WebServer


def _reset_mid_request(web: WebServer) -> None:
    """Send half a request line and close with a reset (SO_LINGER 0)."""
    with socket.create_connection(("127.0.0.1", web.httpd.server_address[1])) as sock:
        sock.sendall(b"GET /page HTTP/1.1\r\nHost: x")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    time.sleep(0.2)  # the server's thread reads, meets the reset, and ends


def test_a_client_that_resets_mid_request_prints_nothing(
    capfd: pytest.CaptureFixture[str],
) -> None:
    web = WebServer().start()
    try:
        web.routes["/page"] = Page("<p>hi</p>")
        _reset_mid_request(web)
        assert "Traceback" not in capfd.readouterr().err
    finally:
        web.stop()


def test_any_other_error_of_a_handler_is_still_printed(
    capfd: pytest.CaptureFixture[str],
) -> None:
    web = WebServer().start()
    try:
        web.httpd.handle_error(None, ("127.0.0.1", 0))  # outside any exception: not a reset
        assert "127.0.0.1" in capfd.readouterr().err
    finally:
        web.stop()
