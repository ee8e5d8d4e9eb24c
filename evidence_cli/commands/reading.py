"""The commands that read the database: status, show, sql, sources, alerts, review, diff."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, time

from evidence_base.errors import EvidenceError, UnknownRecord
from evidence_base.words import AlertKind
from evidence_cli.registry import Run, arg, command, date_arg, day_arg, formats
from evidence_cli.render import TerminalSafe, fields_of, formatted_rows, table
from extractors.printable import one_line
from flows.runtime import clock
from warehouse import queries

SQL_LIMIT = 10_000  # rows `evidence sql` prints unless told otherwise


def _limit_arg(value: str) -> int:
    try:
        limit = int(value)
    except ValueError:
        limit = -1
    if limit < 0:
        raise argparse.ArgumentTypeError(f"{value!r} is not a row count: give N >= 0")
    return limit


@command(
    "status",
    "one row per record: grade, sources confirming, freshness",
    "evidence status --format json",
    formats(),
)
def status(run: Run) -> int:
    with run.reading() as con:
        rows = queries.status(con)
    print(formatted_rows(run.args.format, rows, fields_of(queries.StatusRow), max_width=60))
    return 0


@command(
    "show",
    "the record card of one record",
    "evidence show icml-2026-repro-credits",
    arg("record_id", metavar="ID"),
)
def show(run: Run) -> int:
    from evidence_cli.card import render_card

    with run.reading() as con:
        data = queries.card(con, run.args.record_id)
        known = queries.record_ids(con) if data is None else []
    if data is None:
        raise UnknownRecord(run.args.record_id, known, "the database")
    print(render_card(data))
    return 0


@command(
    "sql",
    "run a read-only SQL query on the warehouse",
    'evidence sql "SELECT record_id, grade FROM record_status" --format csv',
    arg("query", metavar="QUERY"),
    formats(),
    arg(
        "--limit",
        type=_limit_arg,
        default=SQL_LIMIT,
        metavar="N",
        help=f"print at most N rows, with a note on stderr when cut (default {SQL_LIMIT:,}; "
        "0: every row)",
    ),
)
def sql(run: Run) -> int:
    from evidence_cli.render import write_rows
    from warehouse.user_sql import stream_user_query

    args = run.args
    with run.reading() as con:
        rows = stream_user_query(con, args.query, args.limit or None)
        # rows go out as they are read: memory follows a batch, not the result
        out = TerminalSafe(sys.stdout) if args.format == "csv" and sys.stdout.isatty() else None
        write_rows(out or sys.stdout, args.format, rows.columns, rows.batches())
    if rows.cut:
        print(
            f"evidence: showing the first {args.limit:,} rows; more are left "
            "(--limit N for more, --limit 0 for every row)",
            file=sys.stderr,
        )
    return 0


@command(
    "sources",
    "source health, one row per source",
    "evidence sources --due",
    arg("--failing", action="store_true", help="only sources whose last attempt failed"),
    arg(
        "--due",
        action="store_true",
        help="what the next scheduled run (schedule.cron) will fetch, and why",
    ),
    arg(
        "--at",
        type=date_arg,
        metavar="TIME",
        help="with --due: what a run at TIME would fetch (ISO-8601 with zone, or a date)",
    ),
    formats(),
)
def sources(run: Run) -> int:
    args = run.args
    if args.at is not None and not args.due:
        raise EvidenceError("--at goes with --due: `evidence sources --due --at TIME`")
    if args.due:
        return _due_sources(run)
    with run.reading() as con:
        rows = queries.sources(con, failing=args.failing)
    if not rows and args.format == "table":
        print("no failing source" if args.failing else "no sources")
        return 0
    print(formatted_rows(args.format, rows, fields_of(queries.SourceStatusRow), max_width=70))
    return 0


DUE_COLUMNS = ["record_id", "source_id", "reason", "next_due", "change_rate", "url"]


def _due_sources(run: Run) -> int:
    """What the next scheduled run (or one at --at) fetches: the due rule asked at that
    time, against what is stored now."""
    args = run.args
    at = args.at or run.settings.schedule.next_run(clock.now())
    with run.reading(now=at) as con:
        due = [d for d in queries.due_sources(con) if d.why is not None]
    when = f"{'the run at' if args.at else 'the next scheduled run,'} {at:%Y-%m-%d %H:%M %Z}"
    if not due and args.format == "table":
        print(f"no source is due at {when}")
        return 0
    if args.format == "table":
        print(f"{len(due)} source(s) due at {when}:")
    print(formatted_rows(args.format, due, DUE_COLUMNS, max_width=70))
    return 0


ALERT_COLUMNS = ["raised_at", "kind", "record_id", "source_id", "title", "delivered_at"]


@command(
    "alerts",
    "open unreachable alerts, then the alerts of the newest run (--all: every one)",
    "evidence alerts --all --kind changed --since 2026-11-01",
    arg("--all", action="store_true", help="every alert kept, newest first"),
    arg("--kind", choices=[k.value for k in AlertKind], help="only alerts of this kind"),
    arg("--since", type=date_arg, metavar="DATE", help="only alerts raised from DATE on"),
    formats(),
)
def alerts(run: Run) -> int:
    args = run.args
    with run.reading() as con:
        rows = queries.alerts(con, args.all, args.kind, args.since)
    if args.format != "table":
        print(formatted_rows(args.format, rows, fields_of(queries.AlertRow)))
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
    print(formatted_rows("table", rows, ALERT_COLUMNS, max_width=100))
    return 0


@command(
    "review",
    "what needs a person, most urgent first, each with the command that settles it",
    "evidence review --format json",
    formats(),
)
def review(run: Run) -> int:
    from flows.commands.review import review_items
    from warehouse.keeping import QUEUE_COLUMNS

    with run.reading() as con:
        items = review_items(con, clock.now(), run.scope)
    if not items and run.args.format == "table":
        print("nothing to review: every claim holds, every source answers, no record is due")
        return 0
    if run.args.format != "table":
        print(formatted_rows(run.args.format, items, QUEUE_COLUMNS, max_width=90))
        return 0
    # the command is what a keeper copies: on a line of its own under its row, never cut
    columns = [c for c in QUEUE_COLUMNS if c != "command"]
    lines = table(columns, [[getattr(i, c) for c in columns] for i in items], 90).split("\n")
    out = lines[:2]
    for line, item in zip(lines[2:], items, strict=True):
        out += [line, f"    {one_line(item.command)}"]
    print("\n".join(out))
    return 0


@command(
    "diff",
    "what changed in a source's main text between two snapshots, word by word",
    "evidence diff icml-2026-repro-credits hf-blog --from 2026-11-01",
    arg("record_id", metavar="ID"),
    arg("source_id", metavar="SOURCE", nargs="?", help="one source (default: each)"),
    arg("--from", dest="since", metavar="DATE", type=day_arg, help="the snapshot current then"),
    arg("--to", dest="until", metavar="DATE", type=day_arg, help="the snapshot current then"),
)
def diff(run: Run) -> int:
    from evidence_cli.diff import diff_report

    args = run.args
    with run.reading() as con:
        print(diff_report(con, args.record_id, args.source_id, args.since, args.until))
    return 0
