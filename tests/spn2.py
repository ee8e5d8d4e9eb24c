"""A stand-in for the Wayback Machine's Save Page Now 2 API on 127.0.0.1, with its
request and answer shapes: `POST /save` (form `url=...`) answered `{"url", "job_id"}`;
`GET /save/status/<job_id>` answered `{"status": "pending"}`, then `{"status":
"success", "timestamp", "original_url", ...}` or `{"status": "error", "status_ext",
"message"}`. A URL can be made to fail, stay pending, or the server to answer 429."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs

from servers import POLL_S, QuietServer


@dataclass
class Job:
    url: str
    asked: int = 0


@dataclass
class SaveServer:
    polls_before_done: int = 1  # status answers "pending" this many times first
    errors: set[str] = field(default_factory=set)  # URLs whose job ends in error
    stuck: set[str] = field(default_factory=set)  # URLs whose job stays pending
    too_many: int = 0  # the next N POSTs are answered 429
    retry_after: str = "120"
    timestamp: str = "20261201061503"  # what a finished job says it was captured at
    posts: list[tuple[float, str, str | None]] = field(default_factory=list)  # when, url, auth
    jobs: dict[str, Job] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        server = self

        class _H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                form = parse_qs(self.rfile.read(length).decode())
                if self.path != "/save" or "url" not in form:
                    return self._answer(400, {"status": "error", "message": "bad request"})
                url = form["url"][0]
                with server._lock:
                    if server.too_many > 0:
                        server.too_many -= 1
                        return self._answer(
                            429, {"message": "too many"}, {"Retry-After": server.retry_after}
                        )
                    server.posts.append((time.time(), url, self.headers.get("Authorization")))
                    job_id = f"spn2-{len(server.posts):04d}"
                    server.jobs[job_id] = Job(url)
                self._answer(200, {"url": url, "job_id": job_id})

            def do_GET(self) -> None:
                job_id = self.path.removeprefix("/save/status/")
                with server._lock:
                    job = server.jobs.get(job_id)
                    if job is None:
                        return self._answer(404, {"status": "error", "message": "no such job"})
                    job.asked += 1
                    pending = job.url in server.stuck or job.asked <= server.polls_before_done
                if pending:
                    return self._answer(200, {"status": "pending", "job_id": job_id})
                if job.url in server.errors:
                    return self._answer(200, {
                        "status": "error", "status_ext": "error:service-unavailable",
                        "job_id": job_id, "message": "Service unavailable.",
                    })  # fmt: skip
                self._answer(200, {
                    "status": "success", "job_id": job_id, "original_url": job.url,
                    "timestamp": server.timestamp, "duration_sec": 6.2,
                })  # fmt: skip

            def _answer(self, status: int, body: dict, headers: dict | None = None) -> None:
                raw = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(raw)

        self.httpd = QuietServer(("127.0.0.1", 0), _H)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, args=(POLL_S,), daemon=True).start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def sent(self) -> list[str]:
        with self._lock:
            return [url for _, url, _ in self.posts]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
