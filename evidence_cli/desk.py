"""`evidence ui`: the keeper's desk, a local web application over the catalog and its
database (docs/commands.md, "The keeper's desk").

`/` is the review queue, each item with the action that settles it as a button (Update,
as `evidence update`; Accept, as `evidence accept`), then every record; `/records/ID` is
the record's page, rendered with the static site's templates (one rendering of a card).
Every request reads the database as it is, in a short read-only session; while a refresh
writes, the page says so and reads again a moment later. The desk writes only the
catalog's record files, through the commands' own writer.

Safety, for a server that can change a catalog:
- page and catalog text are always text (the templates autoescape);
- a request whose Host is not the served one is refused (DNS rebinding);
- actions are POSTs carrying the page's token, which is also a SameSite=Strict cookie
  (a cross-site request has neither), and an Origin other than ours is refused;
- any host but a loopback one needs a token (--token, or EVIDENCE_UI_TOKEN): then every
  request carries it (`?token=` once, which sets a cookie, or `Authorization: Bearer`).
"""

from __future__ import annotations

import asyncio
import hmac
import os
import re
import secrets
import socket
import subprocess
import sys
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from evidence_base.errors import (
    EvidenceError,
    UnknownRecord,
    UnknownSource,
    WarehouseBusy,
    WarehouseError,
)
from evidence_base.words import Role
from evidence_cli.diff import diff_report
from evidence_cli.site import record_context, templates
from extractors.printable import one_line
from extractors.values import Grade
from flows.catalog import is_loopback, load_catalog
from flows.commands import pages
from flows.runtime import clock, command_scope
from warehouse import queries
from warehouse.db import session, set_now
from warehouse.keeping import QueueItem

MAX_FORM = 256 << 10  # a desk form: a few ids, a token, a quote or a record's file
MAX_RESULTS = 100  # what the last actions did, each a page of its own
BODY_WAIT_S = 10.0  # a form's body arrives within this, or the form is empty (refused)
# Connections served at once (more answer 503 at once) and how long an idle one is kept:
# slow clients never hold every descriptor of the process.
MAX_CONNECTIONS = 64
KEEP_ALIVE_S = 5
READ_WAIT_S = 1.0  # a request waits this long for a refresh's write lock, then says so
COOKIE = "evidence_desk"  # the page token's cookie
TOKEN_COOKIE = "evidence_token"  # the --token's, once given as ?token=
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; style-src 'unsafe-inline'; "
    "img-src 'self' data:; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


@dataclass(frozen=True, slots=True)
class DeskConfig:
    config_dir: Path
    db: Path
    host: str
    port: int
    token: str | None
    allow_hosts: tuple[str, ...] = ()  # host names (with a port, or any) browsers may send
    public_url: str | None = None  # the address browsers use, printed


_NAME = re.compile(r"^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$")
WILDCARDS = frozenset({"0.0.0.0", "::", "[::]"})


def allowed_hosts(names: list[str], public_url: str | None) -> tuple[str, ...]:
    """--allow-host names and --public-url's host, checked: one line for a bad one."""
    hosts = list(names)
    if public_url is not None:
        parts = urlsplit(public_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise EvidenceError(f"--public-url {public_url!r}: give an http(s) URL with a host")
        hosts.append(parts.netloc.rpartition("@")[2])
    for name in hosts:
        if not _NAME.match(name):
            raise EvidenceError(f"--allow-host {name!r}: give a host name, optionally :PORT")
    return tuple(h.lower() for h in hosts)


def served_hosts(cfg: DeskConfig) -> set[str]:
    """The Host headers the desk answers: the address it serves, loopback names on a
    loopback one, this machine's names on a wildcard one, and the names allowed."""
    port = cfg.port
    hosts = {f"[{cfg.host}]:{port}" if ":" in cfg.host else f"{cfg.host}:{port}"}
    if is_loopback(cfg.host):
        hosts |= {f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}"}
    if cfg.host in WILDCARDS:
        hosts |= {f"{socket.gethostname().lower()}:{port}", f"{socket.getfqdn().lower()}:{port}"}
    for name in cfg.allow_hosts:
        # a name with its port, or a bare one: behind a proxy on its default port
        hosts |= {name} if _has_port(name) else {name, f"{name}:{port}"}
    return hosts


def _has_port(name: str) -> bool:
    return name.rpartition(":")[2].isdigit() and not name.endswith("]")


@dataclass(frozen=True, slots=True)
class Find:
    """What the desk's index shows: the queue and the records, filtered by a grade, an
    item's kind, failing sources and words (in an id, a title or what happened)."""

    grade: str = ""
    kind: str = ""
    failing: bool = False
    text: str = ""

    @classmethod
    def of(cls, query: Mapping[str, str]) -> Find:
        def given(name: str) -> str:
            return " ".join(str(query.get(name) or "").split())[:200]

        return cls(given("grade"), given("kind"), given("failing") in ("1", "on"), given("q"))

    def _has(self, *texts: object) -> bool:
        words = self.text.casefold()
        return not words or any(words in str(t or "").casefold() for t in texts)

    def takes_item(self, q: QueueItem) -> bool:
        failing = q.kind in ("dead", "unreachable")
        return (
            (not self.kind or q.kind == self.kind)
            and (not self.failing or failing)
            and self._has(q.record_id, q.item, q.what)
        )

    def takes_record(self, r: pages.IndexRow) -> bool:
        return (
            (not self.grade or r.grade == self.grade)
            and (not self.failing or r.unreachable > 0)
            and self._has(r.record_id, r.title)
        )


def desk_app(cfg: DeskConfig) -> Starlette:
    """The desk's application, for one served host and port."""
    env = templates()
    page_token = secrets.token_urlsafe(24)  # this server's: forms carry it, as its cookie
    hosts = served_hosts(cfg)
    page_cookie = cookie_names(cfg.port)[0]
    scope = command_scope(cfg.config_dir, cfg.db)

    def render(name: str, status: int = 200, **values: Any) -> HTMLResponse:
        now = clock.now()
        body = env.get_template(name).render(
            desk=True,
            root="/",
            csrf=page_token,
            site_title=pages.SITE_TITLE,
            generated=now.strftime("%Y-%m-%d %H:%M:%S UTC"),
            **values,
        )
        response = HTMLResponse(body, status_code=status, headers=HEADERS)
        response.set_cookie(page_cookie, page_token, httponly=True, samesite="strict")
        return response

    def busy() -> HTMLResponse:
        response = render("desk.html", status=503, busy=True, queue=[], records=[], grades=[])
        response.headers["Refresh"] = "2"
        response.headers["Retry-After"] = "2"
        return response

    def unusable(error: WarehouseError) -> HTMLResponse:
        """A database the desk cannot read as it is (missing, of another release, not
        ours): what to run, on a page of its own."""
        return render(
            "desk_done.html", status=503, heading="The database cannot be read", error=str(error)
        )

    reader = ThreadPoolExecutor(1, thread_name_prefix="desk-queue")

    def read_index(find: Find) -> Response:
        now = clock.now()
        try:
            with session(cfg.db, read_only=True, now=now, wait_s=READ_WAIT_S) as con:
                # the queue on a second cursor beside the records: DuckDB reads both at once
                cursor = con.cursor()
                try:
                    set_now(cursor, now)
                    queued = reader.submit(pages.queue, cursor, now, scope)
                    catalog = pages.catalog_pages(con, now)
                    queue = queued.result()
                finally:
                    cursor.close()
        except WarehouseBusy:
            return busy()
        except WarehouseError as e:
            return unusable(e)
        counts = Counter(r.grade for r in catalog.records)
        return render(
            "desk.html",
            queue=[q for q in queue if find.takes_item(q)],
            queued=len(queue),
            kinds=sorted({q.kind for q in queue}),
            records=[r for r in catalog.records if find.takes_record(r)],
            find=find,
            grade=find.grade or None,
            grades=[g.value for g in Grade if counts[g]],
        )

    def read_record(record_id: str) -> Response:
        now = clock.now()
        try:
            with session(cfg.db, read_only=True, now=now, wait_s=READ_WAIT_S) as con:
                try:
                    page = pages.record_page(con, record_id)
                except EvidenceError as e:
                    return render(
                        "desk_done.html", status=404, heading="No such record", error=str(e)
                    )
                # the pages that moved, and those held for review: what Accept decides on
                moved = {c.source_id for c in page.card.checks if c.outcome == "changed"}
                moved |= {s.source_id for s in page.card.sources if s.needs_review}
                page_diff = marked(
                    "\n".join(
                        diff_report(con, record_id, source, None, None, colour=False)
                        for source in sorted(moved)
                    )
                )
        except WarehouseBusy:
            return busy()
        except WarehouseError as e:
            return unusable(e)
        held = [(s.source_id, s.needs_review) for s in page.card.sources if s.needs_review]
        return render("record.html", page_diff=page_diff, held=held, **record_context(page, now))

    # reads and writes block: they run on worker threads, never on the server's loop
    async def index(request: Request) -> Response:
        return await run_in_threadpool(read_index, Find.of(request.query_params))

    async def record(request: Request) -> Response:
        return await run_in_threadpool(read_record, request.path_params["record_id"])

    async def act(
        request: Request, not_done: str, action: Callable[[dict[str, str]], dict[str, Any]]
    ) -> Response:
        """A keeper's action: refused unless the request is the page's own; run on a worker
        thread; what it did, or why not (`not_done`), on the page that follows."""
        form = await _form(request)
        refused = _refused(request, form.get("csrf"), page_token, hosts)
        if refused is not None:
            return refused
        try:
            said = await run_in_threadpool(action, form)
        except WarehouseBusy:
            return busy()
        except EvidenceError as e:
            record_id = form.get("record_id", "")
            return render(
                "desk_done.html", status=409, heading=not_done, error=str(e), record_id=record_id
            )
        # Post/Redirect/Get: what it did is a page of its own, and a reload re-sends nothing
        key = secrets.token_urlsafe(12)
        results[key] = said
        while len(results) > MAX_RESULTS:
            results.popitem(last=False)
        return RedirectResponse(f"/done/{key}", status_code=303, headers=HEADERS)

    results: OrderedDict[str, dict[str, Any]] = OrderedDict()  # what each action did

    async def done(request: Request) -> Response:
        said = results.get(request.path_params["key"])
        if said is None:
            return render(
                "desk_done.html",
                status=404,
                heading="Nothing to show",
                error="This page is gone: the desk keeps what its last actions did until it stops.",
            )
        return render("desk_done.html", **said)

    def do_update(form: dict[str, str]) -> dict[str, Any]:
        from flows.commands.update import update_claim

        done = update_claim(
            load_catalog(cfg.config_dir),
            cfg.db,
            form.get("record_id", ""),
            form.get("claim_id", ""),
            form.get("source_id") or None,
            scope=scope,
            quote=form.get("quote"),
        )
        taken = "your words" if "quote" in form else f"the wording of {done.source_id}"
        return {
            "heading": f"Updated {done.record_id}/{done.claim_id}",
            "said": f"Took {taken} into {done.path}; checked against the stored pages: "
            f"{done.regraded}.",
            "diff": done.diff,
            "record_id": done.record_id,
        }

    def read_decision(query: dict[str, str]) -> Response:
        """What Update would write, with the evidence in view, then Confirm; or why it
        cannot, and a quote to write by hand."""
        from flows.commands.update import update_claim

        record_id, claim_id = query.get("record_id", ""), query.get("claim_id", "")
        try:
            catalog = load_catalog(cfg.config_dir)
        except EvidenceError as e:
            return render("desk_done.html", status=409, heading="The catalog", error=str(e))
        record = next((r for r in catalog.records if r.id == record_id), None)
        claim = next(
            (c for c in (record.config.claims if record else []) if c.id == claim_id), None
        )
        if record is None or claim is None:
            return render(
                "desk_done.html",
                status=404,
                heading="No such claim",
                error=f"no claim {claim_id!r} of record {record_id!r} in {cfg.config_dir}",
            )
        try:
            preview = update_claim(
                catalog,
                cfg.db,
                record_id,
                claim_id,
                query.get("source_id") or None,
                dry_run=True,
                scope=scope,
            )
            error = None
        except WarehouseBusy:
            return busy()
        except EvidenceError as e:
            preview, error = None, str(e)
        return render(
            "desk_decide.html",
            record_id=record_id,
            claim_id=claim_id,
            quote=claim.quote,
            preview=preview,
            error=error,
        )

    def read_source(query: dict[str, str]) -> Response:
        """A failing source, and what settles it: another url, its removal, or its
        archived copy."""
        record_id, source_id = query.get("record_id", ""), query.get("source_id", "")
        now = clock.now()
        try:
            with session(cfg.db, read_only=True, now=now, wait_s=READ_WAIT_S) as con:
                page = pages.record_page(con, record_id)
            settings = load_catalog(cfg.config_dir).settings
        except WarehouseBusy:
            return busy()
        except EvidenceError as e:
            return render("desk_done.html", status=404, heading="No such source", error=str(e))
        health = next((h for h in page.card.sources if h.source_id == source_id), None)
        if health is None:
            return render(
                "desk_done.html",
                status=404,
                heading="No such source",
                error=f"record {record_id!r} has no source {source_id!r}",
            )
        return render(
            "desk_source.html",
            record_id=record_id,
            health=health,
            archive=settings.fetch.archive_fallback,
        )

    def do_source(form: dict[str, str]) -> dict[str, Any]:
        from flows.commands.sources import edit_source

        record_id, source_id = form.get("record_id", ""), form.get("source_id", "")
        url = form.get("url") if form.get("action") == "replace" else None
        if form.get("action") not in ("replace", "remove"):
            raise EvidenceError("no action: replace its url, or remove it")
        done = edit_source(load_catalog(cfg.config_dir), record_id, source_id, url, scope)
        return {
            "heading": f"{'Replaced' if url is not None else 'Removed'} {record_id}/{source_id}",
            "said": done.said,
            "diff": done.diff,
            "record_id": record_id,
        }

    async def source(request: Request) -> Response:
        if request.method == "GET":
            return await run_in_threadpool(read_source, dict(request.query_params))
        return await act(request, "Not changed", do_source)

    runs: OrderedDict[str, CheckRun] = OrderedDict()  # Check now, by key

    def start_check(form: dict[str, str]) -> str:
        """A refresh of one source, as `evidence refresh --source` runs it, in a process
        of its own; its key. Refused at once while another refresh holds the database."""
        from warehouse.lock import ensure_no_refresh

        record_id, source_id = form.get("record_id", ""), form.get("source_id", "")
        catalog = load_catalog(cfg.config_dir)
        record = next((r for r in catalog.records if r.id == record_id), None)
        if record is None:
            raise UnknownRecord(record_id, (r.id for r in catalog.records), "the catalog")
        known = [s.source_id for s in record.config.sources]
        if source_id not in known:
            raise UnknownSource(source_id, known, owner=record_id)
        ensure_no_refresh(cfg.db)
        run = CheckRun.start(record_id, source_id, cfg)
        key = secrets.token_urlsafe(12)
        runs[key] = run
        while len(runs) > MAX_RESULTS:
            runs.popitem(last=False)[1].stop()
        return key

    async def check(request: Request) -> Response:
        form = await _form(request)
        refused = _refused(request, form.get("csrf"), page_token, hosts)
        if refused is not None:
            return refused
        try:
            key = await run_in_threadpool(start_check, form)
        except EvidenceError as e:
            return render(
                "desk_done.html",
                status=409,
                heading="Not checked",
                error=str(e),
                record_id=form.get("record_id", ""),
            )
        return RedirectResponse(f"/check/{key}", status_code=303, headers=HEADERS)

    async def check_progress(request: Request) -> Response:
        run = runs.get(request.path_params["key"])
        if run is None:
            return render(
                "desk_done.html", status=404, heading="Nothing to show", error="No such check."
            )
        response = render("desk_check.html", run=run, lines=run.lines())
        if run.code is None:
            response.headers["Refresh"] = "1"  # read again until it ends
        return response

    def read_compare(query: dict[str, str]) -> Response:
        """Any two snapshots of a source, compared inline and side by side."""
        from extractors.textdiff import word_diff

        record_id, source_id = query.get("record_id", ""), query.get("source_id", "")
        now = clock.now()
        try:
            with session(cfg.db, read_only=True, now=now, wait_s=READ_WAIT_S) as con:
                snapshots = queries.snapshot_history(con, record_id, source_id or None)
        except WarehouseBusy:
            return busy()
        except WarehouseError as e:
            return unusable(e)
        shots = snapshots.get(source_id, [])
        if not shots:
            return render(
                "desk_done.html",
                status=404,
                heading="Nothing to compare",
                error=f"no snapshot of {record_id}/{source_id}",
                record_id=record_id,
            )
        by_id = {str(s.snapshot_id): s for s in shots}
        old = by_id.get(query.get("a", "")) or shots[max(0, len(shots) - 2)]
        new = by_id.get(query.get("b", "")) or shots[-1]
        runs = word_diff(old.text, new.text)
        return render(
            "desk_compare.html",
            record_id=record_id,
            source_id=source_id,
            shots=shots,
            old=old,
            new=new,
            inline=Markup("").join(_run(op, text, "=+-") for op, text in runs),
            before=Markup("").join(_run(op, text, "=-") for op, text in runs),
            after=Markup("").join(_run(op, text, "=+") for op, text in runs),
        )

    def read_add(query: dict[str, str]) -> Response:
        try:
            catalog = load_catalog(cfg.config_dir)
        except EvidenceError as e:
            return render("desk_done.html", status=409, heading="The catalog", error=str(e))
        return render(
            "desk_add.html",
            records=[r.id for r in catalog.records],
            record_id=query.get("record_id", ""),
            url=query.get("url", ""),
        )

    def do_add(form: dict[str, str]) -> dict[str, Any]:
        """Suggest (nothing written), write the suggested record as a file of its own, or
        add the page as a source of a record."""
        from flows.catalog import check_url
        from flows.commands.suggest import add_to_record, suggest, write_record

        catalog = load_catalog(cfg.config_dir)
        action, record_id = form.get("action", ""), form.get("record_id", "")
        if action == "write":
            path = write_record(catalog, form.get("yaml", ""))
            return {
                "heading": f"Wrote {path.name}",
                "said": f"A new record file, {path}: the next refresh fetches its pages.",
                "record_id": "",
            }
        try:
            url = check_url(form.get("url", "").strip())
        except ValueError as e:
            raise EvidenceError(str(e)) from None
        fetch = catalog.settings.fetch
        if record_id:
            record = next((r for r in catalog.records if r.id == record_id), None)
            if record is None:
                raise UnknownRecord(record_id, (r.id for r in catalog.records), "the catalog")
            claims = add_to_record(record, cfg.config_dir, url, fetch, Role.THIRD_PARTY)
            return {
                "heading": f"Added a source to {record_id}",
                "said": f"{url} is now a third-party source of {record_id}. Its candidate "
                "claims, to paste under the record's claims: if you want them:",
                "diff": claims,
                "record_id": record_id,
            }
        return {
            "heading": "A record from " + url,
            "said": "Keep the claims you want (delete the others), then write it.",
            "suggested": suggest(url, fetch, Role.PRIMARY),
            "record_id": "",
        }

    async def add(request: Request) -> Response:
        if request.method == "GET":
            return await run_in_threadpool(read_add, dict(request.query_params))
        return await act(request, "Not added", do_add)

    async def compare(request: Request) -> Response:
        return await run_in_threadpool(read_compare, dict(request.query_params))

    async def update(request: Request) -> Response:
        if request.method == "GET":
            return await run_in_threadpool(read_decision, dict(request.query_params))
        return await act(request, "Not updated", do_update)

    def do_accept(form: dict[str, str]) -> dict[str, Any]:
        from flows.commands.accept import accept_held

        record_id, source_id = form.get("record_id", ""), form.get("source_id", "")
        done = accept_held(cfg.db, record_id, source_id)
        gone = f" Absent from it now: {', '.join(done.absent)}." if done.absent else ""
        return {
            "heading": f"Accepted {record_id}/{source_id}",
            "said": f"Accepted {done.pages} held page(s) of {record_id}/{source_id}.{gone} "
            f"{record_id}: {done.regraded}.",
            "record_id": record_id,
        }

    async def accept(request: Request) -> Response:
        return await act(request, "Not accepted", do_accept)

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/records/{record_id}", record),
            Route("/update", update, methods=["GET", "POST"]),
            Route("/accept", accept, methods=["POST"]),
            Route("/source", source, methods=["GET", "POST"]),
            Route("/check", check, methods=["POST"]),
            Route("/compare", compare),
            Route("/add", add, methods=["GET", "POST"]),
            Route("/check/{key}", check_progress),
            Route("/done/{key}", done),
        ]
    )
    return _Guard(app, hosts, cfg.token)  # type: ignore[return-value]


# A word diff's marks (`[-gone-]`, `{+new+}`), each within its line: bounded, so a page
# full of unclosed marks costs a line's length per mark at most.
_MARK = re.compile(r"\[-([^\n]{0,4000}?)-\]|\{\+([^\n]{0,4000}?)\+\}")


def _run(op: str, text: str, shown: str) -> Markup:
    """A run of a word diff as HTML, when its side shows it: kept text as text, removed
    text as <del>, added as <ins>."""
    if op not in shown:
        return Markup("")
    if op == "-":
        return Markup("<del>{}</del>").format(text)
    if op == "+":
        return Markup("<ins>{}</ins>").format(text)
    return Markup("{}").format(text)


def marked(diff: str) -> Markup:
    """A word diff as HTML: deletions and insertions as <del> and <ins>, all else text."""
    out: list[str] = []
    pos = 0
    for m in _MARK.finditer(diff):
        out.append(escape(diff[pos : m.start()]))
        gone, new = m.group(1), m.group(2)
        out.append(Markup("<del>{}</del>").format(gone) if gone is not None else "")
        out.append(Markup("<ins>{}</ins>").format(new) if new is not None else "")
        pos = m.end()
    out.append(escape(diff[pos:]))
    return Markup("").join(out)


class CheckRun:
    """`evidence refresh --source RECORD/SOURCE` in a process of its own, its output kept
    line by line as it comes (the desk's page reads it again each second until it ends)."""

    MAX_LINES = 200

    def __init__(self, record_id: str, source_id: str, proc: subprocess.Popen[str]) -> None:
        self.record_id, self.source_id, self.proc = record_id, source_id, proc
        self._lines: list[str] = []
        self._lock = threading.Lock()
        self.code: int | None = None
        threading.Thread(target=self._read, daemon=True, name="desk-check").start()

    @classmethod
    def start(cls, record_id: str, source_id: str, cfg: DeskConfig) -> CheckRun:
        env = {k: v for k, v in os.environ.items() if k != "EVIDENCE_UI_TOKEN"}
        command = [sys.executable, "-m", "evidence_cli", "refresh", "--source"]
        command += [f"{record_id}/{source_id}", "--config", str(cfg.config_dir)]
        command += ["--db", str(cfg.db)]
        proc = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
            errors="replace",
            env=env,
        )
        return cls(record_id, source_id, proc)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._lock:
                self._lines.append(one_line(line.rstrip("\n")))
                del self._lines[: -self.MAX_LINES]
        self.code = self.proc.wait()

    def lines(self) -> list[str]:
        with self._lock:
            return list(self._lines)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()


async def _form(request: Request) -> dict[str, str]:
    """The desk's forms are URL-encoded and small; anything else is an empty form (and so
    refused for want of its token)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        return {}
    try:  # a client that sends its body a byte a minute holds nothing for long
        body = await asyncio.wait_for(_body(request), BODY_WAIT_S)
    except TimeoutError:
        return {}
    if body is None:
        return {}
    try:
        fields = parse_qs(
            body.decode("utf-8", "replace"), keep_blank_values=True, max_num_fields=20
        )
    except ValueError:
        return {}
    return {k: v[0] for k, v in fields.items()}


async def _body(request: Request) -> bytes | None:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM:
            return None
    return body


def same(given: object, secret: str) -> bool:
    """Constant-time equality of a token given (any text: a header, a cookie, a form) and
    the secret, compared as UTF-8 bytes (hmac refuses text that is not ASCII)."""
    text = str(given or "")
    return bool(text) and hmac.compare_digest(
        text.encode("utf-8", "surrogatepass"), secret.encode("utf-8", "surrogatepass")
    )


def cookie_names(port: int) -> tuple[str, str]:
    """The page token's cookie and the --token's, named for the port: a browser sends a
    host's cookies to every port of it, and each desk keeps its own."""
    return f"{COOKIE}_{port}", f"{TOKEN_COOKIE}_{port}"


def _refused(
    request: Request, form_token: object, page_token: str, hosts: set[str]
) -> Response | None:
    """A POST must come from our own page: its token in the form and in its cookie, and
    no Origin but ours."""
    origin = request.headers.get("origin")
    if origin is not None and urlsplit(origin).netloc.lower() not in hosts:
        return PlainTextResponse("refused: a request from another site", status_code=403)
    cookie = request.cookies.get(cookie_names(_port(request))[0], "")
    if not (same(form_token, page_token) and same(cookie, page_token)):
        return PlainTextResponse(
            "refused: no token of this desk's page (reload the page and try again)",
            status_code=403,
        )
    return None


def _port(request: Request) -> int:
    """The port the desk serves this request on (the socket's, whatever the Host says)."""
    server = request.scope.get("server") or (None, 0)
    return int(server[1] or 0)


class _Guard:
    """Every request: the served Host only (DNS rebinding), and the token where one is
    set (`?token=` once sets its cookie, or `Authorization: Bearer`)."""

    def __init__(self, app: Starlette, hosts: set[str], token: str | None) -> None:
        self.app = app
        self.hosts = hosts
        self.token = token

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        if request.headers.get("host", "").lower() not in self.hosts:
            response: Response = PlainTextResponse(
                "refused: not the host this desk serves", status_code=400
            )
            await response(scope, receive, send)
            return
        if self.token is not None:
            name = cookie_names(_port(request))[1]
            if same(request.query_params.get("token"), self.token):
                redirect = RedirectResponse(request.url.remove_query_params("token"), 303)
                redirect.set_cookie(name, self.token, httponly=True, samesite="strict")
                await redirect(scope, receive, send)
                return
            bearer = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
            if not (same(bearer, self.token) or same(request.cookies.get(name), self.token)):
                response = PlainTextResponse(
                    "this desk needs its token: open the URL it printed (?token=...)",
                    status_code=401,
                    headers={"WWW-Authenticate": "Bearer"},
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def serve_desk(cfg: DeskConfig, open_browser: bool = False) -> int:
    """Serve the desk until Ctrl-C (exit 130); its first line says where."""
    import uvicorn

    family = socket.AF_INET6 if ":" in cfg.host.strip("[]") else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((cfg.host.strip("[]"), cfg.port))
    except OSError as e:
        sock.close()
        raise EvidenceError(f"cannot serve on {cfg.host}:{cfg.port}: {e.strerror or e}") from None
    sock.listen(64)
    port = sock.getsockname()[1]
    served = replace(cfg, port=port)
    shown = f"[{cfg.host.strip('[]')}]" if family == socket.AF_INET6 else cfg.host
    base = cfg.public_url.rstrip("/") + "/" if cfg.public_url else f"http://{shown}:{port}/"
    url = base + (f"?token={cfg.token}" if cfg.token else "")
    print(f"serving on {url}", flush=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    server = uvicorn.Server(
        uvicorn.Config(
            desk_app(served),
            log_level="warning",
            lifespan="off",
            access_log=False,
            limit_concurrency=MAX_CONNECTIONS,
            timeout_keep_alive=KEEP_ALIVE_S,
            h11_max_incomplete_event_size=16 << 10,  # a request's head: 16 KB at most
        )
    )
    server.run(sockets=[sock])
    return 130  # stopped by Ctrl-C (or a TERM): the one way it ends
