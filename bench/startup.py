"""Start-up of a small refresh, as a user meets it: `evidence refresh` of one source,
run several times in a row, each a new process.

    python bench/startup.py [--runs N] [--mode shared|temporary]

For each run it prints the time to the first line on stderr, to the page's first
request (what the refresh waited for before doing any work) and to the process's end,
all from the moment the process was started. The first run starts with no Prefect
server of this bench's own (a fresh PREFECT_HOME); with the shared server (the default)
the later runs find the one the first started. The bench stops it at the end.
BENCH_KEEP_API=1 keeps PREFECT_API_URL: the runs use that server instead.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

ROOT = Path(__file__).resolve().parent.parent
PAGE = (
    b"<html><head><title>Credits</title></head><body><main><p>Each team gets 500 GPU "
    b"hours per month on A100 nodes, for the whole of the programme.</p></main></body></html>"
)


class Page(BaseHTTPRequestHandler):
    first: ClassVar[list[float]] = []  # when each request for the page came

    def do_GET(self) -> None:
        if self.path == "/p":
            self.first.append(time.monotonic())
            body, status = PAGE, 200
        else:
            body, status = b"not here", 404
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--mode", choices=["shared", "temporary"], default="shared")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/p"
    work = Path(tempfile.mkdtemp(prefix="evidence-startup-"))
    config = work / "config"
    (config / "records").mkdir(parents=True)
    (config / "settings.yaml").write_text(
        f"database: {work / 'e.duckdb'}\nfetch: {{retries: 0, obey_robots: false}}\n"
    )
    (config / "records" / "r.yaml").write_text(
        f'id: r\ntitle: R\nsources: [{{id: p, url: "{url}", role: primary}}]\n'
        'claims: [{id: c, quote: "500 GPU hours per month on A100 nodes"}]\n'
    )
    env = {
        **os.environ,
        "PREFECT_HOME": str(work / "prefect-home"),
        "EVIDENCE_PREFECT_SERVER": args.mode,
    }
    if not os.environ.get("BENCH_KEEP_API"):
        env.pop("PREFECT_API_URL", None)
    # A user's Python keeps the bytecode it compiles: the runs after the first read it.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    print(f"bench: startup, mode {args.mode}, work dir {work}", file=sys.stderr)
    print(f"{'run':>4} {'first line s':>13} {'first request s':>16} {'wall s':>8}")
    walls: list[float] = []
    try:
        for n in range(1, args.runs + 1):
            Page.first.clear()
            t0 = time.monotonic()
            proc = subprocess.Popen(
                [sys.executable, "-m", "evidence_cli", "refresh", "--config", str(config)],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
            assert proc.stderr is not None
            first_line = None
            lines = []
            for line in proc.stderr:
                if first_line is None:
                    first_line = time.monotonic() - t0
                lines.append(line)
            proc.wait()
            wall = time.monotonic() - t0
            if proc.returncode != 0:
                sys.exit(f"bench: run {n} failed:\n{''.join(lines)[-2000:]}")
            request = Page.first[0] - t0 if Page.first else float("nan")
            print(f"{n:>4} {first_line or 0:>13.2f} {request:>16.2f} {wall:>8.2f}")
            walls.append(wall)
            print(f"bench: run {n}: {lines[0].strip()}", file=sys.stderr)
        if len(walls) > 1:  # the first run starts the server; the others find it
            later = sorted(walls[1:])
            print(f"with the server running: median {later[len(later) // 2]:.2f} s, ", end="")
            print(f"min {later[0]:.2f} s, max {later[-1]:.2f} s over {len(later)} runs")
    finally:
        subprocess.run(
            [sys.executable, "-m", "evidence_cli", "server", "stop"], cwd=ROOT, env=env, check=False
        )
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
