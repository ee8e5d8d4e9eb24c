"""`evidence demo`: the whole cycle offline, against bundled pages served on 127.0.0.1."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from cli.card import render_card
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
CARD_RECORD = "icml-2026-repro-credits"


def write_demo_config(source: Path, target: Path, base_url: str) -> Path:
    """Copy the demo catalog, pointing its {base} URLs at the running sample site."""
    shutil.copytree(source, target, dirs_exist_ok=True)
    for path in (target / "records").glob("*.yaml"):
        path.write_text(
            path.read_text(encoding="utf-8").replace("{base}", base_url), encoding="utf-8"
        )
    return target


def run_demo(db_flag: str | None, verbose: bool = False) -> int:
    from flows.commands.run import run_refresh

    db = Path(db_flag or DEMO_DB)
    ensure_no_refresh(db)
    with SampleSite(DEMO_DIR / "pages") as site, tempfile.TemporaryDirectory() as tmp:
        config = write_demo_config(DEMO_DIR / "config", Path(tmp) / "config", site.base_url)
        load_catalog(config)  # a config error stops here, before Prefect starts
        print(f"evidence demo: serving {DEMO_DIR / 'pages'} at {site.base_url}", file=sys.stderr)
        report = run_refresh(config, db, None, verbose)

    print("\n== refresh ==")
    print(report_text(report))
    con = connect(db, read_only=True, now=clock.now())
    try:
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
    hint = f'evidence sql "SELECT * FROM claim_status" --db {db}'  # noqa: S608 (a usage hint)
    print(f"\nThe warehouse is {db}: try `{hint}`.")
    print(f"The catalog as a static site: {index.absolute()}")
    return 0
