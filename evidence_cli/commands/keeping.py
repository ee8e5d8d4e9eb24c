"""The keeper's commands: update, accept, suggest, check, plan, schema, ui."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from evidence_base import environment
from evidence_base.errors import EvidenceError, WarehouseError, WarehouseMissing
from evidence_base.words import Render, Role
from evidence_cli.registry import Run, arg, command, formats, settings_leniently
from flows.catalog import config_dir_from, resolve_db


@command(
    "update",
    "write a page's current wording into a claim in its file, then check and grade again",
    "evidence update icml-2026-repro-credits prize-pool --dry-run",
    arg("record_id", metavar="ID"),
    arg("claim_id", metavar="CLAIM"),
    arg("--source", metavar="SOURCE", help="take the wording of this source's page"),
    arg("--dry-run", action="store_true", help="print the change; write nothing"),
    arg("--quote", metavar="TEXT", help="write these words as the quote (where no page has them)"),
    requires=["catalog"],
)
def update(run: Run) -> int:
    from flows.commands.update import update_claim

    args = run.args
    done = update_claim(
        run.catalog,
        run.db,
        args.record_id,
        args.claim_id,
        args.source,
        dry_run=args.dry_run,
        scope=run.scope,
        quote=args.quote,
    )
    print(done.diff, end="")
    if not done.written:
        print(f"(dry run: {done.path} not written)")
        return 0
    print(
        f"took {'your words' if args.quote is not None else 'the wording of ' + done.source_id}"
        f" into {done.record_id}/{done.claim_id}; checked against the stored pages: "
        f"{done.regraded}"
    )
    return 0


@command(
    "accept",
    "let a source's page held for review count as evidence again",
    "evidence accept icml-2026-repro-credits hf-blog",
    arg("record_id", metavar="ID"),
    arg("source_id", metavar="SOURCE"),
)
def accept(run: Run) -> int:
    from flows.commands.accept import accept_held

    args = run.args
    done = accept_held(run.readable_db, args.record_id, args.source_id)
    gone = f"; absent from it now: {', '.join(done.absent)}" if done.absent else ""
    print(
        f"accepted {done.pages} page(s) of {args.record_id}/{args.source_id}{gone}; "
        f"{args.record_id}: {done.regraded}"
    )
    return 0


@command(
    "suggest",
    "fetch a page and print a record with candidate claims, ready to paste",
    "evidence suggest https://example.org/credits --role primary",
    arg("url", metavar="URL"),
    arg(
        "--role",
        choices=[r.value for r in Role],
        help="default: primary, or third-party with --record",
    ),
    arg("--render", choices=[r.value for r in Render], help="default: fetch.render"),
    arg(
        "--record",
        metavar="ID",
        help="add the page as a source of this record, in its file (comments kept)",
    ),
)
def suggest(run: Run) -> int:
    from flows.catalog import check_url
    from flows.commands.suggest import suggest

    args = run.args
    settings = run.settings
    try:
        url = check_url(args.url)
    except ValueError as e:
        raise EvidenceError(str(e)) from None
    if args.record is None:
        print(suggest(url, settings.fetch, Role(args.role or Role.PRIMARY), args.render), end="")
        return 0
    from flows.commands.suggest import add_to_record

    record = run.catalog.record(args.record)
    role = Role(args.role or Role.THIRD_PARTY)
    print(add_to_record(record, run.config_dir, url, settings.fetch, role, args.render), end="")
    return 0


@command(
    "check",
    "check the catalog offline: every config error, then each claim against the stored "
    "snapshots and its expect",
    "evidence check --format github",
    formats(
        "text",
        "json",
        "github",
        help="text (default), json (one object per problem), or github (workflow commands)",
    ),
    arg("--strict", action="store_true", help="warnings fail too (exit 1), as errors do"),
    arg(
        "files",
        metavar="FILE",
        nargs="*",
        help="report only on these catalog files (as pre-commit passes them); the config "
        "directory is the one they are in unless --config is given",
    ),
)
def check(run: Run) -> int:
    from evidence_cli.problems import no_database_note, render_check
    from flows.commands.check import run_check

    args = run.args
    files = [Path(f) for f in args.files]
    noted = args.config or _config_of(files)
    config_dir = config_dir_from(noted) if noted else run.config_dir
    settings = settings_leniently(config_dir)
    report = run_check(config_dir, resolve_db(args.db, settings), args.strict, files or None)
    out = render_check(report, args.format)
    if out:
        print(out)
    note = no_database_note(report)
    if note and args.format == "json":
        print(f"evidence: {note}", file=sys.stderr)
    return report.exit_code


def _config_of(files: list[Path]) -> str | None:
    """The config directory of catalog files: the one holding `records/` or settings.yaml."""
    for f in files:
        if f.parent.name == "records":
            return str(f.parent.parent)
        if f.name == "settings.yaml":
            return str(f.parent)
    return None


@command(
    "schema",
    "print the JSON Schema of a record file or of settings.yaml",
    "evidence schema records > records.schema.json",
    arg("kind", choices=["records", "settings"], nargs="?", default="records"),
)
def schema(run: Run) -> int:
    from flows.catalog import json_schema

    print(json.dumps(json_schema(run.args.kind), indent=2, ensure_ascii=False))
    return 0


@command(
    "plan",
    "what a change to the catalog does to claims and grades, from git REF to now",
    "evidence plan --base origin/main --format markdown",
    arg("--base", metavar="REF", default="HEAD", help="the git ref (default HEAD)"),
    formats("markdown", "json", help="markdown (default; a pull request comment) or json"),
)
def plan(run: Run) -> int:
    from evidence_cli.plan import render_plan
    from flows.commands.plan import run_plan

    settings = settings_leniently(run.config_dir)
    plan = run_plan(run.config_dir, resolve_db(run.args.db, settings), run.args.base)
    print(render_plan(plan, run.args.format))
    return 2 if plan.config_errors else 0


def other_accounts(passwd: Path = Path("/etc/passwd"), me: int | None = None) -> list[str]:
    """The login accounts of this machine besides the one running (a loopback desk
    answers them too)."""
    import os

    try:
        lines = passwd.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    if me is None:
        me = os.getuid() if hasattr(os, "getuid") else -1
    found = []
    for line in lines:
        parts = line.split(":")
        if len(parts) < 7 or not parts[2].isdigit():
            continue
        uid, shell = int(parts[2]), parts[6]
        if uid != me and 1000 <= uid < 60000 and not shell.endswith(("nologin", "false")):
            found.append(parts[0])
    return found


def desk_token(given: str | None, file: str | None) -> str | None:
    """The desk's token: from --token-file, EVIDENCE_UI_TOKEN or --token (which every
    account of the machine can read in the process list: said once)."""
    if file is not None:
        try:
            lines = Path(file).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as e:
            raise EvidenceError(f"--token-file {file}: cannot read it ({e})") from None
        token = lines[0].strip() if lines else ""
        if not token:
            raise EvidenceError(f"--token-file {file}: its first line is empty")
        return token
    if given is not None:
        print(
            "evidence: --token shows in the process list; EVIDENCE_UI_TOKEN or --token-file "
            "keep it out of it",
            file=sys.stderr,
        )
        return given
    return environment.get("EVIDENCE_UI_TOKEN")


@command(
    "propose",
    "write what pages settle into the record files on a git branch, as a pull request",
    "evidence propose --push --open",
    arg("--branch", default="evidence/updates", help="the branch (default evidence/updates)"),
    arg("--push", action="store_true", help="push the branch to origin"),
    arg(
        "--open",
        action="store_true",
        help="push, and open or update its pull request (GITHUB_TOKEN, GITHUB_REPOSITORY, "
        "GITHUB_API_URL)",
    ),
    arg("--body", metavar="FILE", help="also write the pull request's body to FILE"),
    requires=["catalog"],
)
def propose(run: Run) -> int:
    from evidence_cli.proposal import body, title
    from flows.commands.propose import propose as build
    from flows.commands.propose import publish
    from warehouse.db import session

    args = run.args
    db = run.readable_db
    done = build(run.catalog, db, args.branch, run.scope, forge=args.open)
    if done.declined:
        print(
            f"the last pull request was closed unmerged: its {done.declined} item(s) are "
            "not proposed again until their pages move"
        )
    if done.head is None:
        print(
            f"nothing to propose: no review item is settled by a page's own wording "
            f"({len(done.unsettled)} need a person: `evidence review`)"
        )
        return 0
    site = run.catalog.settings.site
    with session(db, read_only=True) as con:
        text = body(done, con, site.url, site.desk_url)
    if args.body:
        try:
            Path(args.body).write_text(text, encoding="utf-8")
        except OSError as e:
            raise EvidenceError(
                f"--body {args.body}: cannot write it ({e.strerror or e})"
            ) from None
    publish(done, db, title(done), text, args.push, args.open)
    said = "moved to" if done.moved else "already at"
    print(f"{done.branch} {said} {done.head[:10]}: {len(done.commits)} commit(s) on {done.base}")
    for subject in done.commits:
        print(f"  {subject}")
    if done.pushed:
        print(f"pushed {done.branch} to origin")
    if done.pull is not None:
        print(f"pull request #{done.pull.number}: {done.pull.url}")
    return 0


@command(
    "ui",
    "the keeper's desk: review and keep the catalog in the browser",
    "evidence ui --open",
    arg("--host", default="127.0.0.1", help="the address to serve on (127.0.0.1)"),
    arg("--port", type=int, default=8765, help="the port (8765; 0: a free one)"),
    arg(
        "--token",
        help="a token every request must carry (env EVIDENCE_UI_TOKEN); needed on any host "
        "but a loopback one",
    ),
    arg(
        "--token-file",
        metavar="FILE",
        help="read the token from FILE (its first line): kept out of the process list",
    ),
    arg("--open", action="store_true", help="open it in the web browser"),
    arg(
        "--public-url",
        metavar="URL",
        help="the address browsers use (through a reverse proxy, or a name of this machine): "
        "its host is served and printed",
    ),
    arg(
        "--allow-host",
        metavar="NAME",
        action="append",
        default=[],
        help="another host name browsers may send (repeatable)",
    ),
    requires=["catalog"],  # a config error stops here, before anything is served
)
def ui(run: Run) -> int:
    from evidence_cli.desk import serve_desk
    from evidence_cli.desk_guard import DeskConfig, allowed_hosts
    from flows.catalog import is_loopback
    from warehouse.db import peek
    from warehouse.release import refusal

    args = run.args
    db = run.readable_db
    if not db.exists():
        raise WarehouseMissing(f"no database at {db}: run `evidence refresh` first")
    found = peek(db)  # an earlier release is served, each page saying what to run
    if not found.writable:
        raise WarehouseError(refusal(found))
    token = desk_token(args.token, args.token_file)
    if not is_loopback(args.host) and token is None:
        raise EvidenceError(
            f"evidence ui on {args.host} needs --token (or EVIDENCE_UI_TOKEN): anyone who "
            "reaches that address could change the catalog"
        )
    if token is None and (others := other_accounts()):
        print(
            f"evidence: other accounts of this machine ({', '.join(others[:3])}) can reach a "
            "desk on loopback and change the catalog: give it a token (--token-file FILE or "
            "EVIDENCE_UI_TOKEN)",
            file=sys.stderr,
        )
    if not 0 <= args.port <= 65535:
        raise EvidenceError(f"--port {args.port}: give a port from 0 to 65535")
    cfg = DeskConfig(
        run.catalog.config_dir.resolve(),
        db.resolve(),
        args.host,
        args.port,
        token,
        allowed_hosts(args.allow_host, args.public_url),
        args.public_url,
    )
    return serve_desk(cfg, args.open)
