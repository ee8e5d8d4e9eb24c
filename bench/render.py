"""Benchmark: pages built by JavaScript, rendered in headless Chromium.

    python bench/render.py [--pages N] [--concurrency C]

Serves N corpus pages from 127.0.0.1 as application shells: each page is an empty root
element and a script that fetches the page's content from the same server and writes it
into the document. Renders them all through the refresh's browser fetcher (one browser,
`fetch.browser_concurrency` pages at a time) and prints pages per second and the peak
resident memory of the browser's process tree (Playwright's driver and Chromium).
Nothing leaves this machine: the corpus pages' scripts are removed, and every request
a page makes to another address is refused. The last line is machine-readable.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import threading
import time
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corpus import load_corpus
from refresh import TreeRss

from extractors.encoding import decode_body
from extractors.values import Outcome, Render
from flows.catalog import FetchSettings
from flows.fetching import AddressGuard, FetchRequest, fetch_batch

_LOADS = re.compile(
    r"<script\b.*?</script\s*>|<(?:link|iframe|embed|object|source|meta)\b[^>]*>",
    re.I | re.S,
)
SHELL = (
    "<!doctype html><html><head><title>Loading</title></head><body>"
    '<div id="root">Loading…</div><script>'
    "fetch('/content/{n}').then(r => r.text()).then(t => "
    "{{ document.open(); document.write(t); document.close(); }});"
    "</script></body></html>"
)


def descendants_pss_kb(root: int) -> int:
    """Memory of root's descendants (Playwright's driver and Chromium), counted as PSS:
    Chromium's processes share most of their pages, which RSS counts once per process."""
    parents, pss = {}, {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            rollup = (entry / "smaps_rollup").read_text()
        except OSError:
            continue
        ppid = re.search(r"^PPid:\s+(\d+)", status, re.M)
        kb = re.search(r"^Pss:\s+(\d+)", rollup, re.M)
        parents[int(entry.name)] = int(ppid[1]) if ppid else 0
        pss[int(entry.name)] = int(kb[1]) if kb else 0
    total = 0
    for pid, kb in pss.items():
        p = parents.get(pid, 0)
        while p and p != root:
            p = parents.get(p, 0)
        total += kb if p == root else 0
    return total


class LocalOnly(AddressGuard):
    """Every request to the benchmark's own server, none anywhere else."""

    def __init__(self, netloc: str) -> None:
        super().__init__()
        self.netloc = netloc

    async def allows(self, origin: str, target: str) -> bool:
        return urlsplit(target).netloc == self.netloc


def serve(contents: list[bytes]) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            kind, _, n = self.path.strip("/").partition("/")
            if kind == "shell" and n.isdigit():
                body = SHELL.format(n=n).encode()
            elif kind == "content" and n.isdigit():
                body = contents[int(n) % len(contents)]
            else:
                body = b""
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=2)
    args = parser.parse_args()
    contents = [_LOADS.sub("", decode_body(p.html, None)[0] or "").encode() for p in load_corpus()]
    server = serve(contents)
    netloc = f"127.0.0.1:{server.server_address[1]}"
    requests = [
        FetchRequest(f"http://{netloc}/shell/{n}", render=Render.BROWSER, obey_robots=False)
        for n in range(args.pages)
    ]
    limits = FetchSettings(
        timeout_s=30,
        concurrency=16,
        per_host=16,
        retries=0,
        browser_concurrency=args.concurrency,
    )
    started = time.monotonic()
    with TreeRss(os.getpid(), descendants_pss_kb) as memory:
        results = fetch_batch(requests, limits, lambda: datetime.now(UTC), LocalOnly(netloc))
    seconds = time.monotonic() - started
    server.shutdown()
    outcomes = [attempts[-1].outcome for attempts in results.values()]
    ok = sum(o is Outcome.OK for o in outcomes)
    filled = sum(
        "Loading…" not in (attempts[-1].text or "Loading…") for attempts in results.values()
    )
    print(f"{args.pages} pages, {ok} ok, {filled} filled in by their script, {seconds:.1f} s")
    mb = memory.peak_kb / 1024
    print(f"{args.pages / seconds:.1f} pages/s; browser tree peak {mb:.0f} MB (PSS)")
    print(
        f"bench: pages={args.pages} concurrency={args.concurrency} "
        f"pages_per_s={args.pages / seconds:.2f} browser_pss_mb={mb:.0f} ok={ok}"
    )


if __name__ == "__main__":
    main()
