"""The commands that run the cycle: refresh, serve, server, demo."""

from __future__ import annotations

from evidence_base import environment
from evidence_base.errors import EvidenceError
from evidence_cli.registry import Run, arg, command

VERBOSE = arg("--verbose", action="store_true", help="show Prefect's own logs")


@command(
    "refresh",
    "run the refresh flow once: fetch, snapshot, extract, check, grade",
    "evidence refresh --due",
    arg("--record", action="append", metavar="ID", help="refresh only this record (repeatable)"),
    arg(
        "--due",
        action="store_true",
        help="fetch only the sources that are due (freshness, change rate, failures, new)",
    ),
    arg(
        "--source",
        action="append",
        metavar="[RECORD/]SOURCE",
        help="fetch this source (repeatable); with --due, besides those due",
    ),
    arg(
        "--prune",
        action="store_true",
        help="let the catalog lack records the database holds: they leave the views "
        "(their history is kept, and comes back with them)",
    ),
    arg(
        "--verbose",
        action="store_true",
        help="list every record in the summary, and show Prefect's own logs",
    ),
)
def refresh(run: Run) -> int:
    args = run.args
    db = run.db
    if (args.db or environment.get("EVIDENCE_DB")) and not db.parent.is_dir():
        # a typo in a path given is said, not made into a new warehouse; the
        # catalog's own errors come first, as they do with a directory there
        _ = run.catalog
        raise EvidenceError(f"no directory {db.parent} for the database {db}: make it first")
    from evidence_cli.report import report_text
    from flows.commands.run import run_refresh
    from flows.preflight import Selection

    selection = Selection.from_parameters(args.record, args.due, args.source, args.prune)
    report = run_refresh(run.config_dir, db, selection, args.verbose)
    print(report_text(report, args.verbose))
    return 0


@command(
    "serve",
    "run the refresh on schedule.cron until stopped",
    "evidence serve --config config",
    VERBOSE,
    requires=["catalog"],
)
def serve(run: Run) -> int:
    catalog = run.catalog
    from flows.commands.serve import serve

    return serve(catalog.config_dir, run.db, catalog.settings.schedule.cron, run.args.verbose)


@command(
    "server",
    "the local Prefect server refreshes share: where it is, or stop it",
    "evidence server stop",
    arg("action", choices=["status", "stop"], nargs="?", default="status"),
)
def server(run: Run) -> int:
    from flows.runtime import shared_server

    if run.args.action == "stop":
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


@command(
    "demo",
    "the whole cycle offline against bundled pages on 127.0.0.1",
    "evidence demo",
    VERBOSE,
)
def demo(run: Run) -> int:
    from evidence_cli.demo import run_demo

    return run_demo(run.args.db, run.args.verbose)
