"""What a run tells you, read from real `evidence` processes as a user runs them: a page
whose figure changes between two refreshes, sources that fail, no notify URL and then a
real webhook receiver. The summary names the record that moved, the claim and its
figures before and after, and the failed sources; every alert is kept and listed; a
figure inside a name ("A100") is not a figure."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import support
from servers import Page, WebServer
from support import write_config

if TYPE_CHECKING:
    from conftest import SessionPrefect

pytestmark = pytest.mark.slow

PAGE = (
    "<html><head><title>Acme compute</title></head><body><main><h1>Research compute</h1>"
    "<p>Members get {n} GPU hours per month on A100 nodes, for as long as the programme "
    "runs.</p></main></body></html>"
)
QUOTE = "500 GPU hours per month on A100 nodes"


@pytest.fixture(scope="module")
def home(
    tmp_path_factory: pytest.TempPathFactory, session_prefect: SessionPrefect
) -> Iterator[Path]:
    """A PREFECT_HOME of this module's (its database already migrated), whose shared
    server its commands reuse."""
    path = session_prefect.migrated_home(tmp_path_factory.mktemp("prefect-home"))
    yield path
    evidence(path, "server", "stop")


def evidence(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"PREFECT_HOME": str(home), "EVIDENCE_PREFECT_SERVER": "shared"}
    return support.evidence(*args, env=env, drop=("PREFECT_API_URL",))


def catalog(root: Path, web: WebServer, failing: int, settings: str = "") -> Path:
    gone = "".join(
        f'\n  - {{id: gone-{i}, url: "{web.url(f"/gone-{i}")}", role: third-party}}'
        for i in range(failing)
    )
    return write_config(
        root,
        f"id: acme\ntitle: Acme GPU hours\nsources:\n"
        f'  - {{id: pricing, url: "{web.url("/p")}", role: primary}}{gone}\n'
        f'claims: [{{id: quota, quote: "{QUOTE}"}}]\n',
        f"database: {root / 'e.duckdb'}\nfetch: {{retries: 0}}\n{settings}",
    )


def test_the_change_is_named_and_every_alert_kept(
    home: Path, web: WebServer, tmp_path: Path
) -> None:
    web.routes["/p"] = Page(PAGE.format(n=500))
    config = str(catalog(tmp_path, web, failing=1))
    first = evidence(home, "refresh", "--config", config)
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines() == [
        "acme: documented (fresh), first graded",
        "2 URL(s) fetched: 1 with a new snapshot, 0 unchanged, 1 failed",
        f"failed: {web.url('/gone-0')} (acme/gone-0): http_error: HTTP 404 Not Found",
    ]
    web.routes["/p"] = Page(PAGE.format(n=300))
    second = evidence(home, "refresh", "--config", config)
    assert second.returncode == 0, second.stderr
    assert second.stdout.splitlines()[:2] == [
        "acme: documented (fresh) -> contradicted (fresh)",
        "  quota on pricing: confirmed -> changed, 500 GPU hours -> 300 GPU hours",
    ]
    assert "2 URL(s) fetched: 1 with a new snapshot, 0 unchanged, 1 failed" in second.stdout
    # no notify URL: each title on stderr, and kept
    assert "evidence: alert: changed: acme quota 500 GPU hours -> 300 GPU hours" in second.stderr
    assert (
        "evidence: alert: grade: acme fell from documented to contradicted (quota on pricing)"
        in second.stderr
    )
    listed = evidence(home, "alerts", "--config", config).stdout
    assert "changed: acme quota 500 GPU hours -> 300 GPU hours" in listed
    assert "grade: acme fell from documented to contradicted" in listed
    changed = json.loads(
        evidence(home, "alerts", "--kind", "changed", "--format", "json", "--config", config).stdout
    )
    assert [a["kind"] for a in changed] == ["changed"]
    assert "500 GPU hours -> 300 GPU hours" in changed[0]["body"]
    assert changed[0]["delivered_at"] is None and changed[0]["source_id"] == "pricing"
    rows = json.loads(
        evidence(
            home,
            "sql",
            "SELECT kind, delivered_at FROM notifications ORDER BY kind",
            "--format",
            "json",
            "--config",
            config,
        ).stdout
    )
    assert rows == [
        {"kind": "changed", "delivered_at": None},
        {"kind": "grade", "delivered_at": None},
    ]
    # the "100" of A100 never changed: it is no figure of the check
    checks = json.loads(
        evidence(
            home,
            "sql",
            "SELECT outcome, found_values FROM claim_checks WHERE source_id = 'pricing' "
            "ORDER BY checked_at DESC",
            "--format",
            "json",
            "--config",
            config,
        ).stdout
    )
    assert checks[0] == {"outcome": "changed", "found_values": [300.0]}
    failing = evidence(home, "sources", "--failing", "--format", "json", "--config", config)
    assert [s["source_id"] for s in json.loads(failing.stdout)] == ["gone-0"]


def test_delivered_to_a_webhook_and_failures_counted(
    home: Path, web: WebServer, tmp_path: Path
) -> None:
    hook = WebServer().start()
    try:
        web.routes["/p"] = Page(PAGE.format(n=500))
        notify = f'alerts: {{notify: ["json://127.0.0.1:{hook.httpd.server_address[1]}/h"]}}\n'
        config = str(catalog(tmp_path, web, failing=12, settings=notify))
        first = evidence(home, "refresh", "--config", config)
        assert first.returncode == 0, first.stderr
        lines = first.stdout.splitlines()
        assert "13 URL(s) fetched: 1 with a new snapshot, 0 unchanged, 12 failed" in lines
        named = [line for line in lines if line.startswith("failed: ")]
        assert len(named) == 10
        assert lines[-1].startswith("...and 2 more failed (evidence sources --failing --config ")
        assert lines[-1].endswith(" lists them)")
        web.routes["/p"] = Page(PAGE.format(n=300))
        second = evidence(home, "refresh", "--config", config)
        assert second.returncode == 0, second.stderr
        assert "2 alert(s) raised, queued for 1 notify URL(s)" in second.stderr
        titles = sorted(json.loads(body)["title"] for _, body in hook.posts)
        assert titles == [
            "changed: acme quota 500 GPU hours -> 300 GPU hours",
            "grade: acme fell from documented to contradicted (quota on pricing)",
        ]
        kept = json.loads(
            evidence(
                home,
                "sql",
                "SELECT title, delivered_at FROM notifications ORDER BY title",
                "--format",
                "json",
                "--config",
                config,
            ).stdout
        )
        assert [k["title"] for k in kept] == titles
        assert all(k["delivered_at"] is not None for k in kept)
    finally:
        hook.stop()
