"""The `evidence` command: each command parses its options, calls one function below
it and formats the result. Read commands never import Prefect; refresh, serve and demo do.

Expected errors (config, database, a refresh already running) print one line
on stderr and exit 2; a crash exits 1 with its traceback.
"""

from __future__ import annotations

import argparse
import faulthandler
import gc
import json
import os
import signal
import sys
from collections.abc import Sequence
from contextlib import AbstractContextManager
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import NoReturn, TextIO

from evidence_cli.render import as_csv, as_json, table
from extractors.printable import printable
from extractors.values import AlertKind, Render, Role
from flows.catalog import (
    Catalog,
    Settings,
    __version__,
    config_dir_from,
    load_catalog,
    load_settings,
    resolve_db,
)
from flows.runtime import clock, mark_start
from warehouse import queries
from warehouse.db import Connection, check_database_file, session
from warehouse.errors import (
    ConfigError,
    EvidenceError,
    UnknownRecord,
    WarehouseMissing,
    first_line,
)
from warehouse.lock import ensure_no_refresh

EXIT_USER_ERROR = 2


EXAMPLES = {
    "refresh": "evidence refresh --due",
    "status": "evidence status --format json",
    "show": "evidence show icml-2026-repro-credits",
    "sql": 'evidence sql "SELECT record_id, grade FROM record_status" --format csv',
    "sources": "evidence sources --due",
    "alerts": "evidence alerts --all --kind changed --since 2026-11-01",
    "server": "evidence server stop",
    "reextract": "evidence reextract --all",
    "suggest": "evidence suggest https://example.org/credits --role primary",
    "site": "evidence site --out site --with-data",
    "export": "evidence export --warc evidence.warc.gz --record icml-2026-repro-credits",
    "diff": "evidence diff icml-2026-repro-credits hf-blog --from 2026-11-01",
    "gc": "evidence gc --fetches-before 2026-10-01",
    "accept": "evidence accept icml-2026-repro-credits hf-blog",
    "review": "evidence review --format json",
    "update": "evidence update icml-2026-repro-credits prize-pool --dry-run",
    "check": "evidence check --format github",
    "schema": "evidence schema records > records.schema.json",
    "plan": "evidence plan --base origin/main --format markdown",
    "serve": "evidence serve --config config",
    "ui": "evidence ui --open",
    "demo": "evidence demo",
}


class _Parser(argparse.ArgumentParser):
    """Bad arguments are one line and exit 2, as every other mistake of the user's."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"evidence: {message} (see `{self.prog} --help`)\n")


def _common(default: object) -> _Parser:
    """--config and --db: the same before the command or after it (after it wins)."""
    common = _Parser(add_help=False)
    common.add_argument(
        "--config",
        metavar="DIR",
        default=default,
        help="config directory (default ./config, env EVIDENCE_CONFIG)",
    )
    common.add_argument(
        "--db",
        metavar="PATH",
        default=default,
        help="database file (env EVIDENCE_DB; default from settings.yaml)",
    )
    return common


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="evidence",
        description="Keep a catalog of facts true: fetch sources, check claims, grade evidence.",
        epilog="`evidence COMMAND --help` for one command; the README has them all.",
        parents=[_common(None)],
    )
    parser.add_argument("--version", action="version", version=f"evidence {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    # (a subcommand's copy of the flags sets them only when given, so that a flag given
    # before the command is kept)
    common = _common(argparse.SUPPRESS)

    def command(name: str, summary: str) -> argparse.ArgumentParser:
        return sub.add_parser(
            name,
            parents=[common],
            help=summary,
            description=summary[0].upper() + summary[1:] + ".",
            epilog=f"example:\n  {EXAMPLES[name]}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    p = command("refresh", "run the refresh flow once: fetch, snapshot, extract, check, grade")
    p.add_argument(
        "--record", action="append", metavar="ID", help="refresh only this record (repeatable)"
    )
    p.add_argument(
        "--due",
        action="store_true",
        help="fetch only the sources that are due (freshness, change rate, failures, new)",
    )
    p.add_argument(
        "--source",
        action="append",
        metavar="[RECORD/]SOURCE",
        help="fetch this source (repeatable); with --due, besides those due",
    )
    p.add_argument(
        "--prune",
        action="store_true",
        help="let the catalog lack records the database holds: they leave the views "
        "(their history is kept, and comes back with them)",
    )
    p.add_argument(
        "--verbose",
        action="store_true",
        help="list every record in the summary, and show Prefect's own logs",
    )

    p = command("status", "one row per record: grade, sources confirming, freshness")
    _format_option(p)

    p = command("show", "the record card of one record")
    p.add_argument("record_id", metavar="ID")

    p = command("sql", "run a read-only SQL query on the warehouse")
    p.add_argument("query", metavar="QUERY")
    _format_option(p)
    p.add_argument(
        "--limit",
        type=_limit_arg,
        default=SQL_LIMIT,
        metavar="N",
        help=f"print at most N rows, with a note on stderr when cut (default {SQL_LIMIT:,}; "
        "0: every row)",
    )

    p = command("sources", "source health, one row per source")
    p.add_argument("--failing", action="store_true", help="only sources whose last attempt failed")
    p.add_argument(
        "--due",
        action="store_true",
        help="what the next scheduled run (schedule.cron) will fetch, and why",
    )
    p.add_argument(
        "--at",
        type=_date_arg,
        metavar="TIME",
        help="with --due: what a run at TIME would fetch (ISO-8601 with zone, or a date)",
    )
    _format_option(p)

    p = command(
        "alerts", "open unreachable alerts, then the alerts of the newest run (--all: every one)"
    )
    p.add_argument("--all", action="store_true", help="every alert kept, newest first")
    p.add_argument(
        "--kind",
        choices=[k.value for k in AlertKind],
        help="only alerts of this kind",
    )
    p.add_argument(
        "--since", type=_date_arg, metavar="DATE", help="only alerts raised from DATE on"
    )
    _format_option(p)

    p = command("server", "the local Prefect server refreshes share: where it is, or stop it")
    p.add_argument("action", choices=["status", "stop"], nargs="?", default="status")

    p = command("reextract", "read stored pages again after an extractor change (fetches nothing)")
    p.add_argument("--all", action="store_true", help="every stored page, not only older ones")

    p = command("suggest", "fetch a page and print a record with candidate claims, ready to paste")
    p.add_argument("url", metavar="URL")
    p.add_argument(
        "--role",
        choices=[r.value for r in Role],
        help="default: primary, or third-party with --record",
    )
    p.add_argument("--render", choices=[r.value for r in Render], help="default: fetch.render")
    p.add_argument(
        "--record",
        metavar="ID",
        help="add the page as a source of this record, in its file (comments kept)",
    )

    p = command(
        "site", "write the catalog as a static site (index, record pages, sources, Atom feed)"
    )
    p.add_argument("--out", metavar="DIR", required=True, help="the directory to write")

    p.add_argument(
        "--with-data",
        action="store_true",
        help="also write the stable views (Parquet and CSV, with datapackage.json) under DIR/data",
    )

    p = command(
        "export",
        "take the evidence away: the kept raw pages as WARC, or the views as Parquet, CSV, JSON",
    )
    p.add_argument("--warc", metavar="FILE", help="write the kept raw pages as a WARC 1.1 file")
    p.add_argument("--record", metavar="ID", help="--warc: only this record's pages")
    p.add_argument(
        "--format", choices=["parquet", "csv", "json"], help="write each stable view in DIR"
    )
    p.add_argument("dir", metavar="DIR", nargs="?", help="--format: the directory to write")

    p = command("diff", "what changed in a source's main text between two snapshots, word by word")
    p.add_argument("record_id", metavar="ID")
    p.add_argument("source_id", metavar="SOURCE", nargs="?", help="one source (default: each)")
    p.add_argument(
        "--from", dest="since", metavar="DATE", type=_day_arg, help="the snapshot current then"
    )
    p.add_argument(
        "--to", dest="until", metavar="DATE", type=_day_arg, help="the snapshot current then"
    )

    p = command(
        "gc", "drop old fetch rows and raw pages no longer kept, then compact the database file"
    )
    p.add_argument(
        "--fetches-before",
        metavar="DATE",
        type=_date_arg,
        help="drop fetch rows started before DATE (YYYY-MM-DD, UTC) that nothing rests on",
    )

    p = command("accept", "let a source's page held for review count as evidence again")
    p.add_argument("record_id", metavar="ID")
    p.add_argument("source_id", metavar="SOURCE")

    p = command(
        "review", "what needs a person, most urgent first, each with the command that settles it"
    )
    _format_option(p)

    p = command(
        "update",
        "write a page's current wording into a claim in its file, then check and grade again",
    )
    p.add_argument("record_id", metavar="ID")
    p.add_argument("claim_id", metavar="CLAIM")
    p.add_argument("--source", metavar="SOURCE", help="take the wording of this source's page")
    p.add_argument("--dry-run", action="store_true", help="print the change; write nothing")

    p = command(
        "check",
        "check the catalog offline: every config error, then each claim against the stored "
        "snapshots and its expect",
    )
    p.add_argument(
        "--format",
        choices=["text", "json", "github"],
        default="text",
        help="text (default), json (one object per problem), or github (workflow commands)",
    )
    p.add_argument("--strict", action="store_true", help="warnings fail too (exit 1), as errors do")
    p.add_argument(
        "files",
        metavar="FILE",
        nargs="*",
        help="report only on these catalog files (as pre-commit passes them); the config "
        "directory is the one they are in unless --config is given",
    )

    p = command("schema", "print the JSON Schema of a record file or of settings.yaml")
    p.add_argument("kind", choices=["records", "settings"], nargs="?", default="records")

    p = command(
        "plan", "what a change to the catalog does to claims and grades, from git REF to now"
    )
    p.add_argument("--base", metavar="REF", default="HEAD", help="the git ref (default HEAD)")
    p.add_argument(
        "--format",
        choices=["markdown", "json"],
        default="markdown",
        help="markdown (default; a pull request comment) or json",
    )

    p = command("serve", "run the refresh on schedule.cron until stopped")
    p.add_argument("--verbose", action="store_true", help="show Prefect's own logs")

    p = command("ui", "the keeper's desk: review and keep the catalog in the browser")
    p.add_argument("--host", default="127.0.0.1", help="the address to serve on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="the port (8765; 0: a free one)")
    p.add_argument(
        "--token",
        help="a token every request must carry (env EVIDENCE_UI_TOKEN); needed on any host "
        "but a loopback one",
    )
    p.add_argument("--open", action="store_true", help="open it in the web browser")

    p = command("demo", "the whole cycle offline against bundled pages on 127.0.0.1")
    p.add_argument("--verbose", action="store_true", help="show Prefect's own logs")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # `evidence` alone
        parser.print_help()
        return 0
    try:
        return COMMANDS[args.command](args)
    except EvidenceError as e:
        print(f"evidence: {printable(str(e))}", file=sys.stderr)
        return EXIT_USER_ERROR
    except Exception as e:
        if not type(e).__module__.startswith(("duckdb", "_duckdb")):
            raise
        # a database that is not ours to trust (a failing view, a file of another
        # make): one line, never a traceback that shows what it read
        print(
            f"evidence: the database could not be read: {printable(first_line(e))}", file=sys.stderr
        )
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        from flows.runtime import interrupted

        if not interrupted():  # (said already when a refresh was interrupted)
            print("evidence: interrupted", file=sys.stderr)
        return 130


def _db_for_reading(args: argparse.Namespace) -> Path:
    from warehouse.db import limit_readers

    config_dir = config_dir_from(args.config)
    if (args.config or os.environ.get("EVIDENCE_CONFIG")) and not config_dir.is_dir():
        # a directory named and missing is a mistake, as it is to `refresh`; only the
        # default ./config may be absent (a database read with --db alone)
        raise ConfigError(str(config_dir), "no such config directory: pass --config DIR")
    settings = load_settings(config_dir) if config_dir.is_dir() else Settings()
    limit_readers(settings.memory_limit)
    db = resolve_db(args.db, settings)
    if not db.exists():
        from evidence_cli.demo import DEMO_DB

        if Path(DEMO_DB).exists() and db != Path(DEMO_DB):
            raise WarehouseMissing(
                f"no database at {db}; the demo's is {DEMO_DB}: add `--db {DEMO_DB}` "
                "(or run `evidence refresh` for your own catalog)"
            )
    return db


def _reading(
    args: argparse.Namespace, folders: Sequence[Path] = ()
) -> AbstractContextManager[Connection]:
    """A read-only connection for the block, closed after it (reaching no file but those
    in `folders`)."""
    return session(_db_for_reading(args), read_only=True, now=clock.now(), folders=folders)


def cmd_refresh(args: argparse.Namespace) -> int:
    config_dir = config_dir_from(args.config)
    db = resolve_db(args.db, load_settings(config_dir))
    if (args.db or os.environ.get("EVIDENCE_DB")) and not db.parent.is_dir():
        # a typo in a path given is said, not made into a new warehouse; the
        # catalog's own errors come first, as they do with a directory there
        load_catalog(config_dir)
        raise EvidenceError(f"no directory {db.parent} for the database {db}: make it first")
    check_database_file(db)
    ensure_no_refresh(db)  # a second refresh exits at once, before Prefect starts
    from evidence_cli.report import report_text
    from flows.commands.run import run_refresh

    report = run_refresh(
        config_dir, db, args.record, args.verbose, args.due, args.source, prune=args.prune
    )
    print(report_text(report, args.verbose))
    return 0


def _catalog(args: argparse.Namespace) -> Catalog:
    return load_catalog(config_dir_from(args.config))


def cmd_status(args: argparse.Namespace) -> int:
    with _reading(args) as con:
        columns, rows = queries.status(con)
    print(_formatted(args.format, columns, rows, max_width=60))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from evidence_cli.card import render_card

    with _reading(args) as con:
        data = queries.card(con, args.record_id)
        known = queries.record_ids(con) if data is None else []
    if data is None:
        raise UnknownRecord(args.record_id, known, "the database")
    print(render_card(data))
    return 0


def cmd_sql(args: argparse.Namespace) -> int:
    from evidence_cli.render import write_rows

    with _reading(args) as con:
        rows = queries.stream_user_query(con, args.query, args.limit or None)
        # rows go out as they are read: memory follows a batch, not the result
        out = _TerminalSafe(sys.stdout) if args.format == "csv" and sys.stdout.isatty() else None
        write_rows(out or sys.stdout, args.format, rows.columns, rows.batches())
    if rows.cut:
        print(
            f"evidence: showing the first {args.limit:,} rows; more are left "
            "(--limit N for more, --limit 0 for every row)",
            file=sys.stderr,
        )
    return 0


SQL_LIMIT = 10_000  # rows `evidence sql` prints unless told otherwise


def _limit_arg(value: str) -> int:
    try:
        limit = int(value)
    except ValueError:
        limit = -1
    if limit < 0:
        raise argparse.ArgumentTypeError(f"{value!r} is not a row count: give N >= 0")
    return limit


class _TerminalSafe:
    """A text stream to a terminal: what goes through it has its control characters
    escaped."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(printable(text))


def cmd_sources(args: argparse.Namespace) -> int:
    if args.at is not None and not args.due:
        raise EvidenceError("--at goes with --due: `evidence sources --due --at TIME`")
    if args.due:
        return _due_sources(args)
    with _reading(args) as con:
        columns, rows = queries.sources(con, failing=args.failing)
    if not rows and args.format == "table":
        print("no failing source" if args.failing else "no sources")
        return 0
    print(_formatted(args.format, columns, rows, max_width=70))
    return 0


def _due_sources(args: argparse.Namespace) -> int:
    """What the next scheduled run (or one at --at) fetches: the due rule asked at that
    time, against what is stored now."""
    config_dir = config_dir_from(args.config)
    settings = load_settings(config_dir) if config_dir.is_dir() else Settings()
    at = args.at or settings.schedule.next_run(clock.now())
    with session(_db_for_reading(args), read_only=True, now=at) as con:
        due = [d for d in queries.due_sources(con) if d.why is not None]
    columns = ["record_id", "source_id", "reason", "next_due", "change_rate", "url"]
    rows: list[tuple[object, ...]] = [
        (d.record_id, d.source_id, d.reason, d.next_due, d.change_rate, d.url) for d in due
    ]
    when = f"{'the run at' if args.at else 'the next scheduled run,'} {at:%Y-%m-%d %H:%M %Z}"
    if not rows and args.format == "table":
        print(f"no source is due at {when}")
        return 0
    if args.format == "table":
        print(f"{len(rows)} source(s) due at {when}:")
    print(_formatted(args.format, columns, rows, max_width=70))
    return 0


ALERT_COLUMNS = ["raised_at", "kind", "record_id", "source_id", "title", "delivered_at"]


def cmd_alerts(args: argparse.Namespace) -> int:
    with _reading(args) as con:
        columns, rows = queries.alerts(con, args.all, args.kind, args.since)
    if args.format != "table":
        print(_formatted(args.format, columns, rows))
        return 0
    if not rows:
        filtered = [f"of kind {args.kind}"] if args.kind else []
        if args.since:
            since = args.since.astimezone(UTC)
            shown = f"{since:%Y-%m-%d}" if since.time() == time() else f"{since:%Y-%m-%d %H:%M} UTC"
            filtered.append(f"since {shown}")
        said = f" {' and '.join(filtered)}" if filtered else ""
        print(
            f"no alerts kept{said}"
            if args.all
            else f"no open alert{said}, and none{said} raised by the newest run"
            + (" (--kind and --since filter what is shown)" if filtered else "")
            + " (--all: every one kept)"
        )
        return 0
    at = [columns.index(c) for c in ALERT_COLUMNS]
    print(table(ALERT_COLUMNS, [[r[i] for i in at] for r in rows], max_width=100))
    return 0


def _format_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--format",
        choices=["table", "csv", "json"],
        default="table",
        help="output format (default table)",
    )


def _formatted(
    fmt: str, columns: list[str], rows: list[tuple[object, ...]], max_width: int = 80
) -> str:
    if fmt == "json":
        return as_json(columns, rows)
    if fmt == "csv":
        text = as_csv(columns, rows)
        return printable(text) if sys.stdout.isatty() else text  # exact when piped
    return table(columns, rows, max_width=max_width)


def cmd_server(args: argparse.Namespace) -> int:
    from flows.runtime import shared_server

    if args.action == "stop":
        stopped = shared_server.stop()
        print(
            f"stopped the local Prefect server at {stopped.ui_url} (pid {stopped.pid})"
            if stopped
            else "no local Prefect server is running"
        )
        return 0
    running = shared_server.find()
    if running is None:
        print("no local Prefect server is running (the next refresh starts one)")
    else:
        print(
            f"local Prefect server at {running.ui_url} (pid {running.pid}, Prefect "
            f"{running.prefect}); it stops after {running.idle} idle"
        )
    return 0


def cmd_reextract(args: argparse.Namespace) -> int:
    from flows.commands.reextract import reextract

    db = _db_for_reading(args)
    count, unkept = reextract(db, everything=args.all)
    print(f"re-extracted {count} stored page(s) of {db}")
    if unkept:
        print(f"could not read {unkept} page(s) again: their raw page is no longer kept")
    return 0


def cmd_suggest(args: argparse.Namespace) -> int:
    from flows.catalog import check_url
    from flows.commands.suggest import suggest

    config_dir = config_dir_from(args.config)
    settings = load_settings(config_dir) if config_dir.is_dir() else Settings()
    try:
        url = check_url(args.url)
    except ValueError as e:
        raise EvidenceError(str(e)) from None
    if args.record is None:
        print(suggest(url, settings.fetch, Role(args.role or Role.PRIMARY), args.render), end="")
        return 0
    from flows.commands.suggest import add_to_record

    catalog = load_catalog(config_dir)
    record = next((r for r in catalog.records if r.id == args.record), None)
    if record is None:
        raise UnknownRecord(args.record, (r.id for r in catalog.records), str(config_dir))
    role = Role(args.role or Role.THIRD_PARTY)
    print(add_to_record(record, config_dir, url, settings.fetch, role, args.render), end="")
    return 0


def cmd_site(args: argparse.Namespace) -> int:
    from evidence_cli.site import write_site

    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise EvidenceError(f"--out {out} is a file: give a directory (made if missing)")
    config_dir = config_dir_from(args.config)
    settings = load_settings(config_dir) if config_dir.is_dir() else Settings()
    with _reading(args, [out / "data"] if args.with_data else []) as con:
        try:
            index = write_site(
                con, out, clock.now(), license=settings.site.license, with_data=args.with_data
            )
        except OSError as e:
            raise EvidenceError(f"cannot write the site to {out}: {e.strerror or e}") from None
    print(f"wrote the site: {index.absolute()}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from evidence_cli.site import SITE_TITLE
    from flows.commands.export import write_tables, write_warc
    from warehouse.exports import kept_pages

    if bool(args.warc) == bool(args.format):
        raise EvidenceError("export: give --warc FILE, or --format parquet|csv|json DIR")
    if args.format and not args.dir:
        raise EvidenceError(f"export --format {args.format}: give the directory to write")
    if args.record and not args.warc:
        raise EvidenceError("export: --record goes with --warc")
    target = Path(args.warc or args.dir)
    if args.warc and target.is_dir():
        raise EvidenceError(f"--warc {target} is a directory: give a file name")
    if args.format and target.exists() and not target.is_dir():
        raise EvidenceError(f"{target} is a file: give a directory (made if missing)")
    config_dir = config_dir_from(args.config)
    settings = load_settings(config_dir) if config_dir.is_dir() else Settings()
    with _reading(args, [target] if args.format else []) as con:
        if args.record and not queries.has_record(con, args.record):
            raise UnknownRecord(args.record, queries.record_ids(con), "the database")
        try:
            if args.warc:
                count = write_warc(
                    kept_pages(con, args.record), target, settings.fetch.user_agent, clock.now()
                )
                said = sys.stderr if args.warc == "-" else sys.stdout  # stdout is the file
                print(f"wrote {count} kept page(s) to {target}", file=said)
            else:
                resources = write_tables(con, target, args.format, SITE_TITLE, clock.now())
                print(
                    f"wrote {len(resources)} view(s) as {args.format} and datapackage.json "
                    f"to {target}"
                )
        except OSError as e:
            raise EvidenceError(f"cannot write {target}: {e.strerror or e}") from None
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    from evidence_cli.diff import diff_report

    with _reading(args) as con:
        print(diff_report(con, args.record_id, args.source_id, args.since, args.until))
    return 0


def _day_arg(value: str) -> date:
    """A DATE option of `diff`: YYYY-MM-DD."""
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date: use YYYY-MM-DD") from None


def cmd_gc(args: argparse.Namespace) -> int:
    from flows.commands.gc import collect

    config_dir = config_dir_from(args.config)
    settings = load_settings(config_dir) if config_dir.is_dir() else Settings()
    db = resolve_db(args.db, settings)
    done = collect(db, settings.history.keep_pages, args.fetches_before)
    print(
        f"dropped {done.fetches_dropped} fetch row(s) and {done.pages_dropped} raw page(s); "
        f"{db}: {_size(done.bytes_before)} -> {_size(done.bytes_after)}"
    )
    return 0


def _size(n: int) -> str:
    return f"{n / 2**20:.1f} MB" if n >= 2**20 else f"{n / 2**10:.0f} KB"


def _date_arg(value: str) -> datetime:
    """A DATE option: YYYY-MM-DD (midnight UTC) or an ISO-8601 time with zone."""
    try:
        if len(value) == 10:
            return datetime.combine(date.fromisoformat(value), time(0), tzinfo=UTC)
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date: use YYYY-MM-DD") from None
    if parsed.tzinfo is None:
        raise argparse.ArgumentTypeError(f"{value!r} has no time zone: add one, or give a date")
    return parsed


def cmd_accept(args: argparse.Namespace) -> int:
    from flows.commands.accept import accept_held

    accepted = accept_held(_db_for_reading(args), args.record_id, args.source_id)
    print(f"accepted {accepted} page(s) of {args.record_id}/{args.source_id}; grades recomputed")
    return 0


def _scope(args: argparse.Namespace) -> str:
    """The ` --config DIR --db PATH` in force, for the commands a command prints."""
    from flows.runtime import command_scope

    config_dir = config_dir_from(args.config)
    settings = load_settings(config_dir) if config_dir.is_dir() else Settings()
    return command_scope(config_dir, resolve_db(args.db, settings))


def cmd_review(args: argparse.Namespace) -> int:
    from flows.commands.review import review_items
    from warehouse.keeping import QUEUE_COLUMNS

    with _reading(args) as con:
        items = review_items(con, clock.now(), _scope(args))
    rows = [tuple(getattr(i, c) for c in QUEUE_COLUMNS) for i in items]
    if not rows and args.format == "table":
        print("nothing to review: every claim holds, every source answers, no record is due")
        return 0
    print(_formatted(args.format, QUEUE_COLUMNS, rows, max_width=90))
    return 0


def cmd_update(args: argparse.Namespace) -> int:
    from flows.commands.update import update_claim

    catalog = _catalog(args)
    db = resolve_db(args.db, catalog.settings)
    done = update_claim(
        catalog,
        db,
        args.record_id,
        args.claim_id,
        args.source,
        dry_run=args.dry_run,
        scope=_scope(args),
    )
    print(done.diff, end="")
    if not done.written:
        print(f"(dry run: {done.path} not written)")
        return 0
    was = f"{done.before[0]}, {done.before[1]}" if done.before else "not graded"
    now = f"{done.after[0]}, {done.after[1]}" if done.after else "not graded"
    print(
        f"took the wording of {done.source_id} into {done.record_id}/{done.claim_id}; "
        f"checked against the stored pages: {was} -> {now}"
    )
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from evidence_cli.problems import no_database_note, render_check
    from flows.commands.check import run_check

    files = [Path(f) for f in args.files]
    config_dir = config_dir_from(args.config or _config_of(files))
    settings = _settings_leniently(config_dir)
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


def _settings_leniently(config_dir: Path) -> Settings:
    """The settings, or the defaults when settings.yaml has a mistake (`check` reports it)."""
    from warehouse.errors import ConfigError

    try:
        return load_settings(config_dir) if config_dir.is_dir() else Settings()
    except ConfigError:
        return Settings()


def cmd_schema(args: argparse.Namespace) -> int:
    from flows.catalog import json_schema

    print(json.dumps(json_schema(args.kind), indent=2, ensure_ascii=False))
    return 0


def cmd_plan(args: argparse.Namespace) -> int:
    from evidence_cli.plan import render_plan
    from flows.commands.plan import run_plan

    config_dir = config_dir_from(args.config)
    settings = _settings_leniently(config_dir)
    plan = run_plan(config_dir, resolve_db(args.db, settings), args.base)
    print(render_plan(plan, args.format))
    return 2 if plan.config_errors else 0


def cmd_ui(args: argparse.Namespace) -> int:
    from evidence_cli.desk import DeskConfig, is_loopback, serve_desk

    catalog = _catalog(args)  # a config error stops here, before anything is served
    db = _db_for_reading(args)
    if not db.exists():
        raise WarehouseMissing(f"no database at {db}: run `evidence refresh` first")
    token = args.token or os.environ.get("EVIDENCE_UI_TOKEN") or None
    if not is_loopback(args.host) and token is None:
        raise EvidenceError(
            f"evidence ui on {args.host} needs --token (or EVIDENCE_UI_TOKEN): anyone who "
            "reaches that address could change the catalog"
        )
    if not 0 <= args.port <= 65535:
        raise EvidenceError(f"--port {args.port}: give a port from 0 to 65535")
    cfg = DeskConfig(catalog.config_dir.resolve(), db.resolve(), args.host, args.port, token)
    return serve_desk(cfg, args.open)


def cmd_serve(args: argparse.Namespace) -> int:
    catalog = _catalog(args)
    db = resolve_db(args.db, catalog.settings)
    from flows.catalog import check_served
    from flows.commands.serve import serve

    check_served(catalog, db if check_database_file(db) else None, prune=False)

    return serve(catalog.config_dir, db, catalog.settings.schedule.cron, args.verbose)


def cmd_demo(args: argparse.Namespace) -> int:
    from evidence_cli.demo import run_demo

    return run_demo(args.db, args.verbose)


COMMANDS = {
    "refresh": cmd_refresh,
    "status": cmd_status,
    "show": cmd_show,
    "sql": cmd_sql,
    "sources": cmd_sources,
    "export": cmd_export,
    "alerts": cmd_alerts,
    "server": cmd_server,
    "reextract": cmd_reextract,
    "suggest": cmd_suggest,
    "site": cmd_site,
    "diff": cmd_diff,
    "gc": cmd_gc,
    "accept": cmd_accept,
    "review": cmd_review,
    "update": cmd_update,
    "check": cmd_check,
    "schema": cmd_schema,
    "plan": cmd_plan,
    "serve": cmd_serve,
    "ui": cmd_ui,
    "demo": cmd_demo,
}


EXIT_BROKEN_PIPE = 141  # as a shell says a process SIGPIPE ended: 128 + 13


def run() -> None:
    """The `evidence` command: main(), then an exit that skips the collector's last pass.

    At exit Python collects every object still alive, which takes a while after a large
    refresh, for memory the OS takes back anyway. Frozen, the objects are left to it (the
    exit handlers still run: the pool, Prefect and the temporary server were stopped).
    """
    mark_start()  # a refresh's `time:` counts from the process's start
    # SIGUSR1 prints every thread's stack on stderr: what a command that hangs waits on
    faulthandler.register(signal.SIGUSR1, all_threads=True)
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:
        # the reader went away (`evidence sql ... | head -1`): nothing more to say, and
        # nothing said at exit either (stdout points at /dev/null from here)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = EXIT_BROKEN_PIPE
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
