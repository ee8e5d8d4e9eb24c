"""From "a primary page changed" to "the record is documented again", for one claim, with
real `evidence` processes against a page served on 127.0.0.1: by hand (refresh, show,
edit the file, refresh again, status) and with `evidence review` and `evidence update`.
Prints each step with its wall and CPU seconds; the last line is machine-readable.

    .venv/bin/python bench/keeping.py
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EVIDENCE = str(ROOT / ".venv/bin/evidence")
T0 = datetime(2026, 11, 4, 6, 0, tzinfo=UTC)
PAGE = (
    "<html><head><title>Acme credits</title></head>"
    "<body><main><h1>Acme</h1><p>{}</p></main></body></html>"
)
OLD = "Teams get $4,000 in GPU credits for the best runs. Applications close in March."
NEW = "Teams get $2,500 in GPU credits for the best runs. Applications close in March."
QUOTE = "$4,000 in GPU credits for the best runs"


class Site:
    """One page on 127.0.0.1, its text set by the bench."""

    def __init__(self) -> None:
        self.text = OLD
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = PAGE.format(site.text).encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/credits"


def catalog(root: Path, url: str) -> tuple[Path, Path]:
    config = root / "config"
    (config / "records").mkdir(parents=True)
    db = root / "w.duckdb"
    (config / "settings.yaml").write_text(f"database: {db}\nfetch: {{retries: 0}}\n")
    (config / "records" / "acme.yaml").write_text(
        "# kept by hand\n"
        "id: acme\n"
        "title: Acme credits\n"
        "sources:\n"
        f'  - id: own\n    url: "{url}"\n    role: primary\n'
        "claims:\n"
        f'  - id: prize\n    quote: "{QUOTE}"   # the headline\n'
    )
    return config, db


def run(step: str, argv: list[str], config: Path, db: Path, at: datetime, log: list) -> str:
    env = {**os.environ, "EVIDENCE_NOW": at.isoformat()}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(
        [EVIDENCE, *argv, "--config", str(config), "--db", str(db)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    log.append({"step": step, "wall_s": round(wall, 2), "cpu_s": round(cpu, 2)})
    return done.stdout


def grade(config: Path, db: Path, at: datetime, log: list) -> str:
    out = run("evidence status", ["status", "--format", "json"], config, db, at, log)
    return str(json.loads(out)[0]["grade"])


def by_hand(root: Path, site: Site) -> tuple[list, str]:
    config, db = catalog(root, site.url)
    setup: list = []
    site.text = OLD
    run("refresh", ["refresh"], config, db, T0, setup)
    site.text = NEW
    day = T0 + timedelta(days=1)
    log: list = []
    run("evidence refresh (sees it changed)", ["refresh"], config, db, day, log)
    card = run(
        "evidence show acme (reads the page's wording)", ["show", "acme"], config, db, day, log
    )
    assert "2,500" in card, card
    started = time.monotonic()
    path = config / "records" / "acme.yaml"  # the keeper's edit, as the card shows the words
    path.write_text(path.read_text().replace(QUOTE, "$2,500 in GPU credits for the best runs"))
    log.append(
        {
            "step": "edit the quote in acme.yaml",
            "wall_s": round(time.monotonic() - started, 2),
            "cpu_s": 0.0,
        }
    )
    run(
        "evidence refresh --record acme (fetches again)",
        ["refresh", "--record", "acme"],
        config,
        db,
        day,
        log,
    )
    return log, grade(config, db, day, log)


def with_update(root: Path, site: Site) -> tuple[list, str]:
    config, db = catalog(root, site.url)
    setup: list = []
    site.text = OLD
    run("refresh", ["refresh"], config, db, T0, setup)
    site.text = NEW
    day = T0 + timedelta(days=1)
    log: list = []
    run("evidence refresh (sees it changed)", ["refresh"], config, db, day, log)
    queue = run("evidence review", ["review"], config, db, day, log)
    assert "evidence update acme prize" in queue, queue
    out = run("evidence update acme prize", ["update", "acme", "prize"], config, db, day, log)
    assert "-> documented" in out, out
    return log, "documented"


def main() -> None:
    site = Site()
    result = {}
    with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
        for name, way, root in (("by_hand", by_hand, a), ("review_update", with_update, b)):
            log, grade_now = way(Path(root), site)
            after_refresh = log[1:]
            result[name] = {
                "steps": len(after_refresh),
                "wall_s": round(sum(s["wall_s"] for s in after_refresh), 2),
                "cpu_s": round(sum(s["cpu_s"] for s in after_refresh), 2),
                "grade": grade_now,
                "log": log,
            }
            print(f"{name}: ends {grade_now}")
            for s in log:
                print(f"  {s['step']}: {s['wall_s']} s ({s['cpu_s']} s of CPU)")
            print(
                f"  after the refresh that saw the change: {result[name]['steps']} steps, "
                f"{result[name]['wall_s']} s ({result[name]['cpu_s']} s of CPU)"
            )
    site.server.shutdown()
    print(
        json.dumps(
            {k: {x: v[x] for x in ("steps", "wall_s", "cpu_s", "grade")} for k, v in result.items()}
        )
    )


if __name__ == "__main__":
    main()
