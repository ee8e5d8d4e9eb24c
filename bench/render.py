"""Benchmark: pages built by JavaScript, rendered in headless Chromium.

    python bench/render.py [--shells N] [--shell-concurrency C] [--pages N]
                           [--concurrency C] [--no-watch]

One run, four measures, side by side:

- shells: N application shells shaped like JavaScript-built primary pages (a few KB of
  HTML, a 100 KB script bundle, the text fetched from a JSON endpoint 0.3 s after the
  script runs), through the refresh's browser fetcher at C pages at once;
- heavy: N corpus pages served as shells (an empty root element and a script that
  fetches the page's 100-400 KB document and writes it in) through the fetcher at the
  default `browser_concurrency`, with the browser tree's peak PSS (Playwright's driver
  and Chromium: PSS because Chromium's processes share most of their pages);
- bare: the same heavy shells rendered by Playwright alone (no routing, no guard), with
  the same isolation rule (one context per host) and concurrency;
- remote: the shells again through a `playwright run-server` started on 127.0.0.1;

and the memory watch's own CPU time over the run (`--no-watch`: the fetcher without it).

Nothing leaves this machine: the corpus pages' scripts are removed, and every request
a page makes to another address is refused. The last line is machine-readable.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corpus import load_corpus
from refresh import TreeRss

from evidence_base.words import Render
from extractors.encoding import decode_body
from extractors.values import Outcome
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
    Chromium's processes share most of their pages, which RSS counts once per process.
    (Only the descendants' memory maps are read: reading every process's would take the
    CPU the browser is measured on.)"""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    total = 0
    for pid in parents:
        p = parents.get(pid, 0)
        while p and p != root:
            p = parents.get(p, 0)
        if p != root:
            continue
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            continue
        kb = re.search(r"^Pss:\s+(\d+)", rollup, re.M)
        total += int(kb[1]) if kb else 0
    return total


class LocalOnly(AddressGuard):
    """Every request to the benchmark's own server, none anywhere else."""

    def __init__(self, netloc: str) -> None:
        super().__init__()
        self.netloc = netloc

    async def allows(self, origin: str, target: str) -> bool:
        return urlsplit(target).netloc == self.netloc


BUNDLE = (
    "".join(
        f"function part{n}(xs) {{ return xs.map((x, i) => x * {n} + i).filter(x => x % 7); }}\n"
        for n in range(1400)
    )
    + "window.ready = true;\n"
).encode()
APP = (
    "<!doctype html><html><head><title>Pricing</title>"
    '<script src="/static/bundle.js"></script></head><body>'
    '<nav><a href="/">Home</a> <a href="/docs">Docs</a></nav><div id="root">Loading…</div>'
    "<script>setTimeout(() => fetch('/api/{n}').then(r => r.json()).then(j => {{"
    "document.getElementById('root').innerHTML = '<main><h1>' + j.title + '</h1><p>' +"
    " j.text + '</p></main>'; }}), 300);</script>" + "<!-- padding -->" * 120 + "</body></html>"
)


def serve(contents: list[bytes]) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            kind, _, n = self.path.strip("/").partition("/")
            kind_of = "text/html; charset=utf-8"
            if kind == "shell" and n.isdigit():
                body = SHELL.format(n=n).encode()
            elif kind == "content" and n.isdigit():
                body = contents[int(n) % len(contents)]
            elif kind == "app" and n.isdigit():
                body = APP.format(n=n).encode()
            elif kind == "static":
                body, kind_of = BUNDLE, "application/javascript"
            elif kind == "api" and n.isdigit():
                text = f"Plan {n} includes {int(n) % 50 + 5} GPU hours per month for students."
                body = json.dumps({"title": f"Plan {n}", "text": text}).encode()
                kind_of = "application/json"
            else:
                body = b""
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", kind_of)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@dataclass
class Run:
    pages: int
    seconds: float
    ok: int
    filled: int  # pages whose script wrote their text in
    peak_mb: float = 0.0

    @property
    def per_s(self) -> float:
        return self.pages / self.seconds


def filled(html: str | None) -> bool:
    """Whether the page's script wrote its text in (the shells all say Loading… till then)."""
    return bool(html) and "Loading…" not in (html or "")


def through_fetcher(
    urls: list[str],
    netloc: str,
    concurrency: int,
    endpoint: str | None = None,
    memory: bool = False,
) -> Run:
    requests = [FetchRequest(u, render=Render.BROWSER, obey_robots=False) for u in urls]
    limits = FetchSettings(
        timeout_s=30,
        concurrency=64,
        per_host=64,
        retries=0,
        browser_concurrency=concurrency,
        browser_endpoint=endpoint,
    )
    started = time.monotonic()
    sampler = TreeRss(os.getpid(), descendants_pss_kb)
    with sampler if memory else contextlib.nullcontext():
        results = fetch_batch(requests, limits, lambda: datetime.now(UTC), LocalOnly(netloc))
    seconds = time.monotonic() - started
    finals = [attempts[-1] for attempts in results.values()]
    return Run(
        len(urls),
        seconds,
        sum(a.outcome is Outcome.OK for a in finals),
        sum(filled(a.text) for a in finals),
        sampler.peak_kb / 1024,
    )


def bare_playwright(urls: list[str], concurrency: int) -> Run:
    """Playwright alone: a context per host, `concurrency` pages at once, networkidle."""
    from playwright.async_api import Error, Route, async_playwright

    from flows.fetching.browser import NOT_LOADED

    local = urlsplit(urls[0]).netloc

    from flows.fetching import find_browser

    async def run() -> tuple[int, int]:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=find_browser(None),
                args=["--disable-gpu", "--disable-dev-shm-usage"],
            )
            contexts: dict[str, object] = {}
            slots = asyncio.Semaphore(concurrency)

            async def here_only(route: Route) -> None:
                """This machine's server only, and no images, fonts or media: the browser
                fetches the rest itself."""
                request = route.request
                if request.resource_type in NOT_LOADED or urlsplit(request.url).netloc != local:
                    await route.abort()
                else:
                    await route.continue_()

            async def one(url: str) -> tuple[bool, bool]:
                async with slots:
                    host = urlsplit(url).netloc
                    if host not in contexts:
                        contexts[host] = await browser.new_context()
                    page = await contexts[host].new_page()  # type: ignore[attr-defined]
                    await page.route("**/*", here_only)
                    try:
                        await page.goto(url, wait_until="networkidle", timeout=30_000)
                        html = await page.content()
                        return True, filled(html)
                    except Error:
                        return False, False
                    finally:
                        await page.close()

            done = await asyncio.gather(*(one(u) for u in urls))
            await browser.close()
            return sum(ok for ok, _ in done), sum(f for _, f in done)

    started = time.monotonic()
    ok, written = asyncio.run(run())
    return Run(len(urls), time.monotonic() - started, ok, written)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shells", type=int, default=120)
    parser.add_argument("--shell-concurrency", type=int, default=16)
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=FetchSettings().browser_concurrency)
    parser.add_argument(
        "--no-watch", action="store_true", help="without the renderers' memory watch (to cost it)"
    )
    args = parser.parse_args()
    from flows.fetching.renderers import MemoryWatch

    MemoryWatch.enabled = not args.no_watch
    contents = [_LOADS.sub("", decode_body(p.html, None)[0] or "").encode() for p in load_corpus()]
    server = serve(contents)
    netloc = f"127.0.0.1:{server.server_address[1]}"
    apps = [f"http://{netloc}/app/{n}" for n in range(args.shells)]
    heavy_urls = [f"http://{netloc}/shell/{n}" for n in range(args.pages)]
    c, sc = args.concurrency, args.shell_concurrency

    shells = through_fetcher(apps, netloc, sc)
    watch_s = MemoryWatch.spent_s
    print(
        f"shells: {shells.pages} app shells at {sc} at once: {shells.ok} ok, "
        f"{shells.filled} filled, {shells.seconds:.1f} s, {shells.per_s:.2f} pages/s; the "
        f"memory watch's CPU {watch_s:.2f} s ({watch_s / shells.seconds:.1%} of one core)"
    )
    heavy = through_fetcher(heavy_urls, netloc, c, memory=True)
    print(
        f"heavy: {heavy.pages} corpus shells at {c} at once: {heavy.ok} ok, {heavy.filled} filled, "
        f"{heavy.seconds:.1f} s, {heavy.per_s:.2f} pages/s; browser tree peak "
        f"{heavy.peak_mb:.0f} MB (PSS)"
    )
    bare = bare_playwright(heavy_urls, c)
    print(
        f"bare Playwright: the same {bare.pages} at {c} at once: {bare.ok} ok, "
        f"{bare.filled} filled, "
        f"{bare.seconds:.1f} s, {bare.per_s:.2f} pages/s; heavy / bare "
        f"{heavy.per_s / bare.per_s:.2f}"
    )
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from engines import playwright_server

    with tempfile.TemporaryDirectory() as root, playwright_server(Path(root)) as engine:
        remote = through_fetcher(apps, netloc, sc, engine.url)
    print(
        f"remote: the {remote.pages} shells through {engine.url}: {remote.ok} ok, "
        f"{remote.seconds:.1f} s, {remote.per_s:.2f} pages/s; remote / local "
        f"{remote.per_s / shells.per_s:.2f}"
    )
    server.shutdown()
    print(
        f"render: shell_pages_per_s={shells.per_s:.2f} heavy_pages_per_s={heavy.per_s:.2f} "
        f"bare_pages_per_s={bare.per_s:.2f} heavy_vs_bare={heavy.per_s / bare.per_s:.2f} "
        f"peak_pss_mb={heavy.peak_mb:.0f} remote_vs_local={remote.per_s / shells.per_s:.2f} "
        f"watch_cpu_s={MemoryWatch.spent_s:.2f}"
    )


if __name__ == "__main__":
    main()
