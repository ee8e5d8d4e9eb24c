"""`evidence ui`: the keeper's desk, a local web application over the catalog and its
database (docs/commands.md, "The keeper's desk").

`/` is the review queue, each item with the action that settles it (Update…, Accept,
Fix…), then every record, both filtered by Find; `/records/ID` is the record's page,
rendered with the static site's templates (one rendering of a card); `/update` and
`/source` show what an action writes before it does; `/compare`, `/check` and `/add`
compare snapshots, check a source now, add from a URL. Every request reads the database
as it is, in a short read-only session; while a refresh writes, the page says so and
reads again a moment later. The desk writes only the catalog's record files, through
the commands' own writer, and answers every action with Post/Redirect/Get.

Who may ask, and what may change the catalog: evidence_cli/desk_guard.py. What the
pages show beyond the site's (Find, a diff as HTML, Check now's run):
evidence_cli/desk_parts.py. Page and catalog text are always text (the templates
autoescape).
"""

from __future__ import annotations

import secrets
import socket
import threading
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from markupsafe import Markup
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from evidence_base.errors import (
    EvidenceError,
    UnknownRecord,
    UnknownSource,
    WarehouseBusy,
    WarehouseError,
)
from evidence_base.words import Role
from evidence_cli.desk_guard import (
    DeskConfig,
    Guard,
    cookie_names,
    forged,
    read_form,
    served_hosts,
)
from evidence_cli.desk_parts import CheckRun, Find, diff_run, marked
from evidence_cli.diff import diff_report
from evidence_cli.site import record_context, templates
from extractors.values import Grade
from flows.catalog import Catalog, ClaimConfig, Record, load_catalog, load_settings
from flows.commands import pages
from flows.runtime import clock, command_scope
from warehouse import queries
from warehouse.db import session, set_now

MAX_RESULTS = 100  # what the last actions did, each a page of its own
# Connections served at once (more answer 503 at once) and how long an idle one is kept:
# slow clients never hold every descriptor of the process.
MAX_CONNECTIONS = 64
KEEP_ALIVE_S = 5
READ_WAIT_S = 1.0  # a request waits this long for a refresh's write lock, then says so
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; style-src 'unsafe-inline'; "
    "img-src 'self' data:; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


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
        response = render("desk.html", status=503, busy=True)
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
        with session(cfg.db, read_only=True, now=now, wait_s=READ_WAIT_S) as con:
            try:
                page = pages.record_page(con, record_id)
            except (UnknownRecord, UnknownSource) as e:
                return render("desk_done.html", status=404, heading="No such record", error=str(e))
            # the pages that moved, and those held for review: what Accept decides on
            moved = {c.source_id for c in page.card.checks if c.outcome == "changed"}
            moved |= {s.source_id for s in page.card.sources if s.needs_review}
            page_diff = marked(
                "\n".join(
                    diff_report(con, record_id, source, None, None, colour=False)
                    for source in sorted(moved)
                )
            )
        held = [(s.source_id, s.needs_review) for s in page.card.sources if s.needs_review]
        return render("record.html", page_diff=page_diff, held=held, **record_context(page, now))

    # reads and writes block: they run on worker threads, never on the server's loop
    async def index(request: Request) -> Response:
        return await run_in_threadpool(read_index, Find.of(request.query_params))

    async def record(request: Request) -> Response:
        return await run_in_threadpool(read_record, request.path_params["record_id"])

    async def guarded(request: Request) -> dict[str, str] | Response:
        """A POST's form, when it is our own page's (else the refusal)."""
        form = await read_form(request)
        return forged(request, form.get("csrf"), page_token, hosts) or form

    both = ["GET", "POST"]

    def page(
        read: Callable[[dict[str, str]], Response],
        do: Callable[[dict[str, str]], dict[str, Any]],
        not_done: str,
    ) -> Callable[[Request], Awaitable[Response]]:
        """A route whose GET shows what an action will do and whose POST does it."""

        async def route(request: Request) -> Response:
            if request.method == "GET":
                return await run_in_threadpool(read, dict(request.query_params))
            return await act(request, not_done, do)

        return route

    async def act(
        request: Request, not_done: str, action: Callable[[dict[str, str]], dict[str, Any]]
    ) -> Response:
        """A keeper's action: refused unless the request is the page's own; run on a worker
        thread; what it did, or why not (`not_done`), on the page that follows."""
        form = await guarded(request)
        if isinstance(form, Response):
            return form
        try:
            said = await run_in_threadpool(one_at_a_time, action, form)
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
    writing = threading.Lock()  # actions write record files: one at a time, two tabs or not

    def one_at_a_time(
        action: Callable[[dict[str, str]], dict[str, Any]], form: dict[str, str]
    ) -> dict[str, Any]:
        with writing:
            return action(form)

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
            expect_words=None if "quote" in form else form.get("words"),
        )
        taken = "your words" if "quote" in form else f"the wording of {done.source_id}"
        return {
            "heading": f"Updated {done.record_id}/{done.claim_id}",
            "said": f"Took {taken} into {done.path}; checked against the stored pages: "
            f"{done.regraded}.",
            "diff": done.diff,
            "record_id": done.record_id,
        }

    def claim_of(record_id: str, claim_id: str) -> tuple[Catalog, Record, ClaimConfig] | Response:
        """The catalog, the record and its claim a page is about; or the page saying why
        not (a catalog with a mistake, no such claim)."""
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
        return catalog, record, claim

    def read_decision(query: dict[str, str]) -> Response:
        """What Update would write, with the evidence in view, then Confirm; or why it
        cannot, and a quote to write by hand."""
        from flows.commands.update import update_claim

        record_id, claim_id = query.get("record_id", ""), query.get("claim_id", "")
        found = claim_of(record_id, claim_id)
        if isinstance(found, Response):
            return found
        catalog, _, claim = found
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
            settings = load_settings(cfg.config_dir)
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

    def read_scope(query: dict[str, str]) -> Response:
        """Primaries that disagree (or a page that never carried a claim): keep one."""
        record_id, claim_id = query.get("record_id", ""), query.get("claim_id", "")
        found = claim_of(record_id, claim_id)
        if isinstance(found, Response):
            return found
        _, record, claim = found
        return render(
            "desk_scope.html",
            record_id=record_id,
            claim=claim,
            sources=record.config.sources,
            what=query.get("what", ""),
        )

    def do_scope(form: dict[str, str]) -> dict[str, Any]:
        from flows.commands.sources import scope_claim

        record_id, claim_id = form.get("record_id", ""), form.get("claim_id", "")
        done = scope_claim(
            load_catalog(cfg.config_dir), record_id, claim_id, form.get("source_id", ""), scope
        )
        return {
            "heading": f"{record_id}/{claim_id} on {done.source_id} only",
            "said": done.said,
            "diff": done.diff,
            "record_id": record_id,
        }

    runs: OrderedDict[str, CheckRun] = OrderedDict()  # Check now, by key

    def start_check(form: dict[str, str]) -> str:
        """A refresh of one source, as `evidence refresh --source` runs it, in a process
        of its own; its key. Refused at once while another refresh holds the database."""
        from warehouse.lock import ensure_no_refresh

        record_id, source_id = form.get("record_id", ""), form.get("source_id", "")
        load_catalog(cfg.config_dir).source(record_id, source_id)  # or one line why not
        ensure_no_refresh(cfg.db)
        run = CheckRun.start(record_id, source_id, cfg)
        key = secrets.token_urlsafe(12)
        runs[key] = run
        while len(runs) > MAX_RESULTS:
            runs.popitem(last=False)[1].stop()
        return key

    async def check(request: Request) -> Response:
        form = await guarded(request)
        if isinstance(form, Response):
            return form
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
        with session(cfg.db, read_only=True, now=now, wait_s=READ_WAIT_S) as con:
            snapshots = queries.snapshot_history(con, record_id, source_id or None)
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
            inline=Markup("").join(diff_run(op, text, "=+-") for op, text in runs),
            before=Markup("").join(diff_run(op, text, "=-") for op, text in runs),
            after=Markup("").join(diff_run(op, text, "=+") for op, text in runs),
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
            record = catalog.record(record_id)
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

    async def compare(request: Request) -> Response:
        return await run_in_threadpool(read_compare, dict(request.query_params))

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

    # the database as it stands, said once for every route: busy while a refresh writes,
    # or what to run when it cannot be read
    async def on_busy(request: Request, exc: Exception) -> Response:
        return busy()

    async def on_unusable(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, WarehouseError)
        return unusable(exc)

    return Starlette(
        routes=[
            Route("/", index),
            Route("/records/{record_id}", record),
            Route(
                "/update", page(read_decision, do_update, "Not updated"), methods=["GET", "POST"]
            ),
            Route("/accept", accept, methods=["POST"]),
            Route("/source", page(read_source, do_source, "Not changed"), methods=both),
            Route("/scope", page(read_scope, do_scope, "Not changed"), methods=both),
            Route("/check", check, methods=["POST"]),
            Route("/compare", compare),
            Route("/add", page(read_add, do_add, "Not added"), methods=both),
            Route("/check/{key}", check_progress),
            Route("/done/{key}", done),
        ],
        middleware=[Middleware(Guard, hosts=hosts, token=cfg.token)],
        exception_handlers={WarehouseBusy: on_busy, WarehouseError: on_unusable},
    )


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
