"""`evidence demo`: the whole cycle offline, against bundled pages served on 127.0.0.1."""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from cli.card import render_card
from cli.diff import diff_report
from cli.render import table
from cli.report import report_text
from cli.sample_server import SampleSite
from cli.site import write_site
from flows.catalog import load_catalog
from flows.runtime import clock
from warehouse import queries
from warehouse.db import connect
from warehouse.lock import ensure_no_refresh

DEMO_DIR = Path(__file__).resolve().parent.parent / "demo"
DEMO_DB = "data/demo.duckdb"
DEMO_PORT = 8741  # the sample site's, run after run
CARD_RECORD = "icml-2026-repro-credits"
CHANGED = ("nimbus-free-tier", "nimbus-free")  # the record and source day 2 changes
FAILING = "/aggregator.example/free-gpu-roundup.html"  # fails on day 2


def write_demo_config(source: Path, target: Path, base_url: str) -> Path:
    """Copy the demo catalog, pointing its {base} URLs at the running sample site."""
    shutil.copytree(source, target, dirs_exist_ok=True)
    for path in (target / "records").glob("*.yaml"):
        path.write_text(
            path.read_text(encoding="utf-8").replace("{base}", base_url), encoding="utf-8"
        )
    return target


def run_demo(db_flag: str | None, verbose: bool = False) -> int:
    """Two refreshes of the bundled catalog: on the first day every record is as its
    pages say; on the second a primary page writes another figure and a source fails.
    Then what the second run said, its alerts, the diff, the status and one card."""
    from flows.commands.run import run_refresh

    db = Path(db_flag or DEMO_DB)
    ensure_no_refresh(db)
    with _sample_site() as site, tempfile.TemporaryDirectory() as tmp:
        config = write_demo_config(DEMO_DIR / "config", Path(tmp) / "config", site.base_url)
        load_catalog(config)  # a config error stops here, before Prefect starts
        print(f"evidence demo: serving {DEMO_DIR / 'pages'} at {site.base_url}", file=sys.stderr)
        print("== day 1: the first refresh ==")
        print(report_text(run_refresh(config, db, None, verbose)))
        site.overlay = DEMO_DIR / "pages-day2"
        site.failing = {FAILING}
        print("\n== day 2: a primary page writes another figure; the roundup fails ==")
        second = run_refresh(config, db, None, verbose)
        print(report_text(second))
    print("\n== the alerts it raised (evidence alerts) ==")
    print("\n".join(second.alerts) or "none")
    con = connect(db, read_only=True, now=clock.now())
    try:
        print(f"\n== evidence diff {CHANGED[0]} {CHANGED[1]} ==")
        print(diff_report(con, CHANGED[0], CHANGED[1], None, None))
        print("\n== evidence status ==")
        print(table(*queries.status(con)))
        print(f"\n== evidence show {CARD_RECORD} ==")
        data = queries.card(con, CARD_RECORD)
        if data is None:
            raise RuntimeError(f"the demo catalog has no record {CARD_RECORD}")
        print(render_card(data))
        index = write_site(con, db.parent / "site", clock.now())
    finally:
        con.close()
    me = _command()
    print(f"\nThe warehouse is {db}. From here, try:")
    for hint in (
        f"{me} status --db {db}",
        f"{me} show {CHANGED[0]} --db {db}",
        f"{me} alerts --db {db}",
        f'{me} sql "SELECT * FROM claim_status" --db {db}',  # noqa: S608 (a usage hint)
        "make demo   (again: its history goes on)",
    ):
        print(f"  {hint}")
    print(f"The catalog as a static site: {index.absolute()}")
    return 0


@contextmanager
def _sample_site() -> Iterator[SampleSite]:
    """The sample site on its own port, so that the demo's URLs, and so its history, are
    the same run after run; on another when that one is taken."""
    try:
        site = SampleSite(DEMO_DIR / "pages", port=DEMO_PORT)
    except OSError:
        site = SampleSite(DEMO_DIR / "pages")
        print(
            f"evidence demo: port {DEMO_PORT} is taken; its history starts again at "
            f"{site.base_url}",
            file=sys.stderr,
        )
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
