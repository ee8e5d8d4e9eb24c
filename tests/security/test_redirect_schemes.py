"""A redirect out of http(s) or to a port that cannot be, of a page or of its
robots.txt, costs that source alone: its failure outcome, never the run's. A source URL
with such a port is a config error, said in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import pytest
from servers import Page, WebServer
from support import write_config

from extractors.values import Outcome
from flows.catalog import FetchSettings
from flows.fetching import FetchRequest, fetch_batch

LIMITS = FetchSettings(timeout_s=3, retries=0, user_agent="t")
TARGETS = [
    "mailto:someone@example.org",
    "data:text/html,<p>hi</p>",
    "javascript:alert(1)",
    "tel:+15550100",
    # ports no socket takes: once an OverflowError that failed the whole refresh
    "http://127.0.0.1:99999/",
    "http://127.0.0.1:65536/page",
    "http://127.0.0.1:-1/",
]


def now() -> datetime:
    return datetime.now(UTC)


def moved(to: str) -> Page:
    return Page(b"", status=302, headers={"Location": to}, etag=False)


@pytest.mark.parametrize("target", TARGETS)
def test_a_page_redirected_out_of_http_is_its_own_bad_content(web: WebServer, target: str) -> None:
    web.routes["/out"] = moved(target)
    web.routes["/fine"] = Page("<p>12 seats left</p>")
    urls = [web.url("/out"), web.url("/fine")]
    results = fetch_batch([FetchRequest(u, obey_robots=False) for u in urls], LIMITS, now)
    out, fine = results[urls[0]][-1], results[urls[1]][-1]
    assert out.outcome is Outcome.BAD_CONTENT and out.error
    assert fine.outcome is Outcome.OK


@pytest.mark.parametrize("target", TARGETS)
def test_a_robots_txt_redirected_out_of_http_means_no_rules(web: WebServer, target: str) -> None:
    web.routes["/robots.txt"] = moved(target)
    web.routes["/p"] = Page("<p>12 seats left</p>")
    url = web.url("/p")
    (got,) = fetch_batch([FetchRequest(url)], LIMITS, now)[url]
    assert got.outcome is Outcome.OK and web.hits["/p"] == 1


def test_a_redirect_to_an_unparseable_url_is_bad_content(web: WebServer) -> None:
    web.routes["/odd"] = moved("http://[::1/x")
    url = web.url("/odd")
    (got,) = fetch_batch([FetchRequest(url, obey_robots=False)], LIMITS, now)[url]
    assert got.outcome in (Outcome.BAD_CONTENT, Outcome.CONNECT_ERROR) and got.error


@pytest.mark.slow
def test_a_refresh_with_a_page_and_a_robots_txt_redirected_to_mailto_completes(
    web: WebServer, tmp_path: Path
) -> None:
    """One record's page and another host's robots.txt lead to mailto: and data:; the
    refresh exits 0, keeps every record's fetch row and raises no flow-failed alert."""
    other = WebServer().start()
    try:
        web.routes["/bad"] = moved("mailto:someone@example.org")
        web.routes["/port"] = moved("http://127.0.0.1:99999/")
        web.routes["/good"] = Page("<main><p>The lab offers 40 seats this year.</p></main>")
        other.routes["/robots.txt"] = moved("http://127.0.0.1:65536/robots.txt")
        other.routes["/page"] = Page("<main><p>The lab offers 40 seats this year.</p></main>")
        db = tmp_path / "w.duckdb"
        records = [
            {
                "id": "bad",
                "title": "Bad",
                "sources": [
                    {"id": "p", "url": web.url("/bad"), "role": "primary"},
                    {"id": "port", "url": web.url("/port"), "role": "third-party"},
                ],
                "claims": [{"id": "c", "quote": "40 seats"}],
            },
            {
                "id": "good",
                "title": "Good",
                "sources": [
                    {"id": "p", "url": web.url("/good"), "role": "primary"},
                    {"id": "q", "url": other.url("/page"), "role": "third-party"},
                ],
                "claims": [{"id": "c", "quote": "40 seats"}],
            },
        ]
        config = write_config(
            tmp_path, json.dumps(records), f"database: {db}\nfetch: {{retries: 0}}\n"
        )
        done = subprocess.run(
            [sys.executable, "-m", "evidence_cli", "refresh", "--config", str(config)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        assert "Traceback" not in done.stderr and "flow-failed" not in done.stderr
        with duckdb.connect(str(db), read_only=True) as con:
            rows = dict(
                con.execute("SELECT record_id || '/' || source_id, outcome FROM fetches").fetchall()
            )
            kinds = {k for (k,) in con.execute("SELECT kind FROM notifications").fetchall()}
        assert rows == {
            "bad/p": "bad_content",
            "bad/port": "bad_content",
            "good/p": "ok",
            "good/q": "ok",
        }
        assert "flow-failed" not in kinds
    finally:
        other.stop()


def test_suggest_on_a_page_redirected_to_mailto_is_one_line(
    web: WebServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from evidence_cli.main import main

    web.routes["/bad"] = moved("mailto:someone@example.org")
    web.routes["/robots.txt"] = moved("javascript:alert(1)")
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.yaml").write_text("fetch: {retries: 0}\n")
    assert main(["suggest", web.url("/bad"), "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "bad_content" in err and "Traceback" not in err


@pytest.mark.parametrize("port", ["99999", "65536", "-1", "0", "x1"])
def test_a_source_url_with_a_port_that_cannot_be_is_one_config_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], port: str
) -> None:
    from evidence_cli.main import main

    url = f"http://127.0.0.1:{port}/page"
    config = write_config(
        tmp_path,
        f'id: r\ntitle: R\nsources: [{{id: s, url: "{url}", role: primary}}]\n',
        f"database: {tmp_path / 'w.duckdb'}\n",
    )
    assert main(["check", "--config", str(config)]) == 2
    said = capsys.readouterr()
    out = (said.out + said.err).strip()
    assert "Traceback" not in out and "port" in out and "r.yaml" in out
    assert main(["refresh", "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "port" in err
    assert not (tmp_path / "w.duckdb").exists()  # nothing fetched, nothing written
    assert main(["suggest", url, "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "port" in err
