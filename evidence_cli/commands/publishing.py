"""The commands that take the evidence elsewhere or tidy it: site, export, reextract, gc."""

from __future__ import annotations

import sys
from pathlib import Path

from evidence_base.errors import EvidenceError, UnknownRecord
from evidence_cli.registry import Run, arg, command, date_arg
from flows.runtime import clock
from warehouse import queries


@command(
    "site",
    "write the catalog as a static site (index, record pages, sources, Atom feed)",
    "evidence site --out site --with-data",
    arg("--out", metavar="DIR", required=True, help="the directory to write"),
    arg(
        "--with-data",
        action="store_true",
        help="also write the stable views (Parquet and CSV, with datapackage.json) under DIR/data",
    ),
)
def site(run: Run) -> int:
    from evidence_cli.site import write_site

    args = run.args
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise EvidenceError(f"--out {out} is a file: give a directory (made if missing)")
    settings = run.settings
    with run.reading([out / "data"] if args.with_data else []) as con:
        try:
            index = write_site(
                con, out, clock.now(), license=settings.site.license, with_data=args.with_data
            )
        except OSError as e:
            raise EvidenceError(f"cannot write the site to {out}: {e.strerror or e}") from None
    print(f"wrote the site: {index.absolute()}")
    return 0


@command(
    "export",
    "take the evidence away: the kept raw pages as WARC, or the views as Parquet, CSV, JSON",
    "evidence export --warc evidence.warc.gz --record icml-2026-repro-credits",
    arg("--warc", metavar="FILE", help="write the kept raw pages as a WARC 1.1 file"),
    arg("--record", metavar="ID", help="--warc: only this record's pages"),
    arg("--format", choices=["parquet", "csv", "json"], help="write each stable view in DIR"),
    arg("dir", metavar="DIR", nargs="?", help="--format: the directory to write"),
)
def export(run: Run) -> int:
    from flows.commands.export import write_tables, write_warc
    from flows.commands.pages import SITE_TITLE
    from warehouse.exports import kept_pages

    args = run.args
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
    settings = run.settings
    with run.reading([target] if args.format else []) as con:
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


@command(
    "reextract",
    "read stored pages again after an extractor change (fetches nothing)",
    "evidence reextract --all",
    arg("--all", action="store_true", help="every stored page, not only older ones"),
)
def reextract(run: Run) -> int:
    from flows.commands.reextract import reextract

    db = run.readable_db
    count, unkept = reextract(db, everything=run.args.all)
    print(f"re-extracted {count} stored page(s) of {db}")
    if unkept:
        print(f"could not read {unkept} page(s) again: their raw page is no longer kept")
    return 0


@command(
    "gc",
    "drop old fetch rows and raw pages no longer kept, then compact the database file",
    "evidence gc --fetches-before 2026-10-01",
    arg(
        "--fetches-before",
        metavar="DATE",
        type=date_arg,
        help="drop fetch rows started before DATE (YYYY-MM-DD, UTC) that nothing rests on",
    ),
)
def gc(run: Run) -> int:
    from flows.commands.gc import collect

    db = run.db
    done = collect(db, run.settings.history.keep_pages, run.args.fetches_before)
    print(
        f"dropped {done.fetches_dropped} fetch row(s) and {done.pages_dropped} raw page(s); "
        f"{db}: {_size(done.bytes_before)} -> {_size(done.bytes_after)}"
    )
    return 0


def _size(n: int) -> str:
    return f"{n / 2**20:.1f} MB" if n >= 2**20 else f"{n / 2**10:.0f} KB"
