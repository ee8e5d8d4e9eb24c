"""A stand-in for a forge's pull-request API on 127.0.0.1: the calls `evidence propose
--open` makes (list a branch's pull requests, open one, update one), answered as GitHub's
REST API answers them, and every request kept for the test to read."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import parse_qs, urlsplit

from servers import QuietServer


class Forge:
    def __init__(self, repository: str = "acme/catalog", token: str = "t0ken") -> None:
        self.repository = repository
        self.token = token
        self.pulls: list[dict[str, Any]] = []
        self.calls: list[tuple[str, str, dict[str, Any] | None]] = []
        forge = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                forge._answer(self, "GET")

            def do_POST(self) -> None:
                forge._answer(self, "POST")

            def do_PATCH(self) -> None:
                forge._answer(self, "PATCH")

        self.server = QuietServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/api/v3"

    def start(self) -> Forge:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def posted(self, method: str) -> list[dict[str, Any]]:
        return [body or {} for m, _, body in self.calls if m == method]

    def _answer(self, h: BaseHTTPRequestHandler, method: str) -> None:
        parts = urlsplit(h.path)
        length = int(h.headers.get("Content-Length") or 0)
        body = json.loads(h.rfile.read(length)) if length else None
        self.calls.append((method, h.path, body))
        if h.headers.get("Authorization") != f"Bearer {self.token}":
            return self._send(h, 401, {"message": "Bad credentials"})
        pulls = f"/api/v3/repos/{self.repository}/pulls"
        if method == "GET" and parts.path == pulls:
            head = parse_qs(parts.query).get("head", [""])[0]
            branch = head.partition(":")[2]
            return self._send(h, 200, [p for p in self.pulls if p["head"]["ref"] == branch])
        if method == "POST" and parts.path == pulls:
            assert body is not None
            if any(p["head"]["ref"] == body["head"] and p["state"] == "open" for p in self.pulls):
                return self._send(h, 422, {"message": "A pull request already exists"})
            number = len(self.pulls) + 1
            pull = {
                "number": number,
                "html_url": f"https://forge.example/{self.repository}/pull/{number}",
                "state": "open",
                "merged_at": None,
                "title": body["title"],
                "body": body["body"],
                "head": {"ref": body["head"], "sha": ""},
                "base": {"ref": body["base"]},
            }
            self.pulls.append(pull)
            return self._send(h, 201, pull)
        if method == "PATCH" and parts.path.startswith(pulls + "/"):
            number = int(parts.path.rsplit("/", 1)[1])
            pull = next((p for p in self.pulls if p["number"] == number), None)
            if pull is None:
                return self._send(h, 404, {"message": "Not Found"})
            pull.update({k: v for k, v in (body or {}).items() if k in ("title", "body")})
            return self._send(h, 200, pull)
        return self._send(h, 404, {"message": "Not Found"})

    @staticmethod
    def _send(h: BaseHTTPRequestHandler, status: int, data: object) -> None:
        raw = json.dumps(data).encode()
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(raw)))
        h.end_headers()
        h.wfile.write(raw)
