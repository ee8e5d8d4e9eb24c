"""Benchmark: the memory peak of a refresh against each decompression or size bomb.

    python bench/bombs.py [--only NAME ...]

Serves each bomb from 127.0.0.1 and runs one whole `evidence refresh` (Prefect's start-up
included) of a one-source catalog against it under `/usr/bin/time -v`; prints the
outcome recorded and the largest resident set of any process of the refresh's tree
(Maximum resident set size). The bombs:

- gzip2: `Content-Encoding: gzip, gzip`, 1 GiB of decoded body in about 1 KB on the wire;
- zstd: `Content-Encoding: zstd` (sent whether asked for or not), 1 GiB in about 32 KB;
- browser-gzip: a `render: browser` source whose page is 512 MiB behind gzip;
- robots: a robots.txt of 1.5 GB (its rules first, then comments), the page small.

Run it on two checkouts to compare; the last line is machine-readable.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import duckdb
import zstandard

ROOT = Path(__file__).resolve().parent.parent
GIB = 1 << 30
PAGE = b"<html><head><title>Small</title></head><body><main><p>Small page, 5 seats.</p></main>"


def gzip_zeros(size: int) -> bytes:
    out = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    block = b"0" * (1 << 20)
    return b"".join([*(out.compress(block) for _ in range(size >> 20)), out.flush()])


def zstd_zeros(size: int) -> bytes:
    out = zstandard.ZstdCompressor(level=19).compressobj(size=size)
    block = b"0" * (1 << 20)
    return b"".join([*(out.compress(block) for _ in range(size >> 20)), out.flush()])


class Bombs(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    bodies: ClassVar[dict[str, tuple[bytes, str]]] = {}

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        try:
            if path == "/robots-host/robots.txt" or (
                path == "/robots.txt" and self.server.server_address[1] == ROBOTS_PORT[0]
            ):
                self._robots()
            elif path in self.bodies:
                body, encoding = self.bodies[path]
                self._send(body, encoding)
            elif path == "/robots.txt":
                self._send(b"", "", status=404)
            else:
                self._send(PAGE, "")
        except OSError:
            pass

    def _send(self, body: bytes, encoding: str, status: int = 200) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        if encoding:
            self.send_header("Content-Encoding", encoding)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _robots(self) -> None:
        size = 1_500_000_000
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(size))
        self.end_headers()
        rules = b"User-agent: *\nDisallow: /nothing-here/\n"
        line = b"# " + b"x" * 1020 + b"\n"
        self.wfile.write(rules)
        sent = len(rules)
        block = line * 1024
        while sent + len(block) <= size:
            self.wfile.write(block)
            sent += len(block)
        self.wfile.write(b"#" * (size - sent))


ROBOTS_PORT = [0]


def serve() -> tuple[ThreadingHTTPServer, ThreadingHTTPServer]:
    pages = ThreadingHTTPServer(("127.0.0.1", 0), Bombs)
    robots = ThreadingHTTPServer(("127.0.0.1", 0), Bombs)
    ROBOTS_PORT[0] = robots.server_address[1]
    for s in (pages, robots):
        s.daemon_threads = True
        threading.Thread(target=s.serve_forever, daemon=True).start()
    return pages, robots


def refresh(name: str, url: str, render: str, work: Path) -> dict[str, object]:
    """One refresh of a one-source catalog at url; its outcome and peak."""
    config = work / name / "config"
    (config / "records").mkdir(parents=True)
    db = work / name / "w.duckdb"
    (config / "settings.yaml").write_text(f"database: {db}\nfetch: {{retries: 0}}\n")
    record = {
        "id": "bomb",
        "title": "Bomb",
        "sources": [{"id": "p", "url": url, "role": "primary", "render": render}],
        "claims": [{"id": "c", "quote": "5 seats"}],
    }
    (config / "records" / "r.yaml").write_text(json.dumps(record))
    env = {**os.environ, "EVIDENCE_PREFECT_SERVER": "temporary"}
    done = subprocess.run(
        [
            "/usr/bin/time",
            "-v",
            sys.executable,
            "-m",
            "evidence_cli",
            "refresh",
            "--config",
            str(config),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=900,
    )
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    outcome = None
    if db.exists():
        with duckdb.connect(str(db), read_only=True) as con:
            row = con.execute("SELECT outcome FROM fetches ORDER BY started_at DESC").fetchone()
            outcome = row[0] if row else None
    return {
        "bomb": name,
        "exit": done.returncode,
        "outcome": outcome,
        "peak_mb": int(peak.group(1)) // 1024 if peak else None,
        "traceback": "Traceback" in done.stderr,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    wanted = args.only or ["gzip2", "zstd", "browser-gzip", "robots"]
    Bombs.bodies = {}
    if "gzip2" in wanted:
        Bombs.bodies["/gzip2"] = (gzip.compress(gzip_zeros(GIB)), "gzip, gzip")
    if "zstd" in wanted:
        Bombs.bodies["/zstd"] = (zstd_zeros(GIB), "zstd")
    if "browser-gzip" in wanted:
        Bombs.bodies["/browser-gzip"] = (gzip_zeros(512 << 20), "gzip")
    pages, robots = serve()
    base = f"http://127.0.0.1:{pages.server_address[1]}"
    targets = {
        "gzip2": (f"{base}/gzip2", "http"),
        "zstd": (f"{base}/zstd", "http"),
        "browser-gzip": (f"{base}/browser-gzip", "browser"),
        "robots": (f"http://127.0.0.1:{robots.server_address[1]}/page", "http"),
    }
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in wanted:
            url, render = targets[name]
            result = refresh(name, url, render, Path(tmp))
            print(
                f"{name:13} outcome {result['outcome']}, exit {result['exit']}, "
                f"peak RSS {result['peak_mb']} MB",
                flush=True,
            )
            results.append(result)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
