"""`evidence demo`: the whole cycle offline, against bundled pages served on 127.0.0.1.

The demo tells the same story on every run: it starts its database afresh (one that
holds the demo's records only, or none), refreshes as of yesterday, then as of now
(EVIDENCE_NOW, when set, is now). Its catalog and pages are the data of the `demo`
package, so that an installed wheel has them too.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

from evidence_base.errors import EvidenceError
from evidence_cli import demo_site
from evidence_cli.card import render_card
from evidence_cli.diff import diff_report
from evidence_cli.registry import DEMO_DB
from evidence_cli.render import fields_of, formatted_rows
from evidence_cli.report import report_text
from evidence_cli.sample_server import SampleSite
from evidence_cli.site import write_site
from flows.catalog import load_catalog
from flows.preflight import served_by
from flows.runtime import clock
from warehouse import queries
from warehouse.db import check_database_file, connect
from warehouse.lock import ensure_no_refresh, lock_path

DEMO_DIR = Path(demo_site.__file__).resolve().parent
DEMO_PORT = 8741  # the sample site's, run after run
CARD_RECORD = "icml-2026-repro-credits"
CHANGED = ("nimbus-free-tier", "nimbus-free")  # the record and source day 2 changes
FAILING = "/aggregator.example/free-gpu-roundup.html"  # fails on day 2


# The demo's records name their pages on this host (a name that is never anyone's,
# RFC 2606, and a URL every schema accepts); `evidence demo` points them at its site.
SAMPLE_HOST = "http://sample.invalid"


def write_demo_config(source: Path, target: Path, base_url: str) -> Path:
    """Copy the demo catalog, pointing its SAMPLE_HOST URLs at the running sample site."""
    shutil.copytree(source, target, dirs_exist_ok=True)
    for path in (target / "records").glob("*.yaml"):
        path.write_text(
            path.read_text(encoding="utf-8").replace(SAMPLE_HOST, base_url), encoding="utf-8"
        )
    return target


def run_demo(db_flag: str | None, verbose: bool = False) -> int:
    """Two refreshes of the bundled catalog: yesterday every record is as its pages say;
    today a primary page writes another figure and a source fails. Then what the second
    run said, its alerts, the diff, the status and one card."""
    from flows.commands.run import run_refresh

    db = Path(db_flag or DEMO_DB)
    if db_flag is None:
        db.parent.mkdir(parents=True, exist_ok=True)  # the demo's own directory
    elif not db.parent.is_dir():
        raise EvidenceError(f"no directory {db.parent} for the database {db}: make it first")
    ensure_no_refresh(db)
    today = clock.now()
    days = (today - timedelta(days=1), today)
    with _sample_site() as site:
        # beside its database, not in a temporary folder: the catalog a refusal of that
        # database names ("records ... came from DIR") is there to look at
        config = write_demo_config(DEMO_DIR / "config", db.parent / "demo-config", site.base_url)
        catalog = load_catalog(config)  # a config error stops here, before Prefect starts
        start_afresh(db, {r.id for r in catalog.records})
        print(f"evidence demo: serving {DEMO_DIR / 'pages'} at {site.base_url}", file=sys.stderr)
        print(f"== day 1, {_day(days[0])}: the first refresh ==")
        with clock.at(days[0]):
            print(report_text(run_refresh(config, db, verbose=verbose)))
        site.overlay = DEMO_DIR / "pages-day2"
        site.failing = {FAILING}
        print(
            f"\n== day 2, {_day(days[1])}: a primary page writes another figure; "
            "the roundup fails =="
        )
        with clock.at(days[1]):
            second = run_refresh(config, db, verbose=verbose)
        print(report_text(second))
    print("\n== the alerts it raised (evidence alerts) ==")
    print("\n".join(second.alerts) or "none")
    con = connect(db, read_only=True, now=today)
    try:
        print(f"\n== evidence diff {CHANGED[0]} {CHANGED[1]} ==")
        print(diff_report(con, CHANGED[0], CHANGED[1], None, None))
        print("\n== evidence status ==")
        print(
            formatted_rows("table", queries.status(con), fields_of(queries.StatusRow), max_width=60)
        )
        print(f"\n== evidence show {CARD_RECORD} ==")
        data = queries.card(con, CARD_RECORD)
        if data is None:
            raise RuntimeError(f"the demo catalog has no record {CARD_RECORD}")
        print(render_card(data))
        index = write_site(con, db.parent / "site", today)
    finally:
        con.close()
    me = _command()
    print(f"\nThe warehouse is {db}. From here, try:")
    for hint in (
        f"{me} status --db {db}",
        f"{me} show {CHANGED[0]} --db {db}",
        f"{me} alerts --db {db}",
        f"{me} review --db {db}   (what needs a person, and the command that settles it)",
        f"{me} ui --db {db}   (the keeper's desk: the same queue in the browser)",
        f'{me} sql "SELECT * FROM claim_status" --db {db}',  # noqa: S608 (a usage hint)
        "make demo   (again: the same two days, from a fresh database)"
        if Path("Makefile").is_file()
        else f"{me} demo   (again: the same two days, from a fresh database)",
    ):
        print(f"  {hint}")
    print(f"The catalog as a static site: {index.absolute()}")
    return 0


def start_afresh(db: Path, demo_ids: set[str]) -> None:
    """Remove the demo's database, so that its story starts at day 1 again; a database
    holding any other record is not the demo's to remove (one line, exit 2)."""
    if not check_database_file(db):
        return
    _, held = served_by(db)
    others = sorted(set(held) - demo_ids)
    if others:
        raise EvidenceError(
            f"{db} holds records that are not the demo's ({', '.join(others[:5])}): "
            "give the demo a database of its own with --db PATH"
        )
    print(f"evidence demo: starting {db} afresh", file=sys.stderr)
    for path in (db, db.with_name(db.name + ".wal"), lock_path(db)):
        path.unlink(missing_ok=True)


def _day(when: datetime) -> str:
    return when.strftime("%Y-%m-%d")


@contextmanager
def _sample_site() -> Iterator[SampleSite]:
    """The sample site on its own port, so that the demo's URLs are the same run after
    run; on another when that one is taken."""
    try:
        site = SampleSite(DEMO_DIR / "pages", port=DEMO_PORT)
    except OSError:
        site = SampleSite(DEMO_DIR / "pages")
        print(f"evidence demo: port {DEMO_PORT} is taken; using another", file=sys.stderr)
    with site:
        yield site


def _command() -> str:
    """How to run `evidence` again from here: the script this runs as, relative to the
    current directory when it is under it (`.venv/bin/evidence` after `make demo`)."""
    script = Path(sys.argv[0])
    if script.name != "evidence":
        return "evidence"
    try:
        return str(script.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(script)
