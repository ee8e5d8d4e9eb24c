"""`evidence suggest`: candidate claims of real pages (the demo's, a sample of the
corpus's), every one of them `confirmed` by a refresh of the same pages."""

from __future__ import annotations

import gzip
import os
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
import yaml
from servers import Page, WebServer
from support import browser_found, need_corpus

from evidence_cli.sample_server import SampleSite
from extractors.claims import fold
from flows.catalog import source_slug
from warehouse.db import connect

ROOT = Path(__file__).resolve().parents[1]
DEMO_PAGES = [
    ("huggingface.co/icml-2026-reproductions.html", "http"),
    ("howaiworks.ai/icml-2026-agent-reproduction-challenge.html", "http"),
    ("huggingface.co/spaces/icml-2026-challenge/", "browser"),
    ("nimbus.example/research-credits.html", "http"),
    ("nimbus.example/free-tier.html", "http"),
    ("aggregator.example/free-gpu-roundup.html", "http"),
]


@pytest.mark.slow
def test_every_suggested_quote_is_confirmed_by_a_refresh(
    prefect_harness: None,
    web: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from evidence_cli.main import main
    from flows.refresh import refresh_flow

    corpus = sorted((need_corpus() / "html").glob("*.html.gz"))[::15]
    site = SampleSite(ROOT / "evidence_cli" / "demo_site" / "pages").start()
    urls: list[tuple[str, str]] = []
    for path, render in DEMO_PAGES:
        if render == "browser" and not browser_found() and os.environ.get("CI") != "true":
            continue  # (CI always has a browser: make browser)
        urls.append((f"{site.base_url}/{path}", render))
    for i, f in enumerate(corpus):
        web.routes[f"/c{i}"] = Page(gzip.decompress(f.read_bytes()))
        urls.append((web.url(f"/c{i}"), "http"))
    config = tmp_path / "config"
    (config / "records").mkdir(parents=True)
    (config / "settings.yaml").write_text(
        f"database: {tmp_path / 'w.duckdb'}\nfetch: {{retries: 0, render: http}}\n"
    )
    records = []
    proposed: list[str] = []
    for n, (url, render) in enumerate(urls):
        capsys.readouterr()
        args = ["suggest", url, "--config", str(config), "--render", render]
        code = main(args)
        said = capsys.readouterr()
        if code == 2 and "/c" in url and "no figure or status" in said.err:
            continue  # a corpus page with no figure at all (an essay, a poem)
        assert code == 0, (url, said.err)
        suggested = said.out
        proposed.extend(fold(q) for q in re.findall(r'(?m)^      quote: "(.*)"$', suggested))
        assert "quote: " in suggested and "# " in suggested
        records.append(re.sub(r"(?m)^- id: .*$", f"- id: page-{n}", suggested, count=1))
    (config / "records" / "suggested.yaml").write_text("".join(records))
    monkeypatch.setenv("EVIDENCE_NOW", datetime(2026, 12, 1, 6, tzinfo=UTC).isoformat())
    try:
        refresh_flow(str(config), None, None)
    finally:
        site.stop()
    con = connect(tmp_path / "w.duckdb", read_only=True)
    try:
        outcomes = con.execute("SELECT outcome, count(*) FROM claim_checks GROUP BY ALL").fetchall()
        claims = con.execute("SELECT count(*) FROM store.claims").fetchone()[0]
    finally:
        con.close()
    assert len(records) >= len(DEMO_PAGES) - 1 + 8
    # each quote of the demo catalog is within one that suggest proposes
    for path in (ROOT / "evidence_cli" / "demo_site" / "config" / "records").glob("*.yaml"):
        loaded = yaml.safe_load(path.read_text())
        for record in loaded if isinstance(loaded, list) else [loaded]:
            for claim in record["claims"]:
                quote = fold(claim["quote"])
                assert any(quote in p for p in proposed), claim["quote"]
    assert dict(outcomes) == {"confirmed": claims}
    assert claims >= 3 * len(records)  # a few candidates a page, not one


def test_suggest_says_in_one_line_why_it_cannot(
    web: WebServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from evidence_cli.main import main

    web.routes["/gone"] = Page("<html><title>404</title><h1>Not found</h1></html>", status=404)
    web.routes["/empty"] = Page("<html><body><p>Hello.</p></body></html>")
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.yaml").write_text("fetch: {retries: 0}\n")
    assert main(["suggest", web.url("/gone"), "--config", str(config)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "http_error" in err and "404" in err
    assert main(["suggest", web.url("/empty"), "--config", str(config)]) == 2
    assert "no figure or status" in capsys.readouterr().err
    assert main(["suggest", "ftp://example.org/x", "--config", str(config)]) == 2
    assert "only http:// and https://" in capsys.readouterr().err


def test_suggest_adds_a_source_to_a_record_keeping_its_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from evidence_cli.main import main

    site = SampleSite(ROOT / "evidence_cli" / "demo_site" / "pages").start()
    try:
        config = tmp_path / "config"
        (config / "records").mkdir(parents=True)
        (config / "settings.yaml").write_text("fetch: {retries: 0}\n")
        original = (
            "# Nimbus, kept by hand.\n"
            "id: nimbus\n"
            "title: 'Nimbus credits'   # the title as the page gives it\n"
            "sources:\n"
            f'  - {{id: own, url: "{site.base_url}/nimbus.example/free-tier.html",'
            " role: primary}\n"
            "claims:\n"
            '  - id: monthly\n    quote: "$10 in free compute credits"  # the headline\n'
        )
        path = config / "records" / "nimbus.yaml"
        path.write_text(original)
        url = f"{site.base_url}/aggregator.example/free-gpu-roundup.html"
        assert main(["suggest", url, "--config", str(config), "--record", "nimbus"]) == 0
        out = capsys.readouterr().out
        written = path.read_text()
        # the file as it was, plus the source; its comments and quoting kept
        assert written.startswith(original.split("claims:")[0].rstrip("\n"))
        assert "# Nimbus, kept by hand." in written and "# the headline" in written
        assert "title: 'Nimbus credits'   # the title as the page gives it" in written
        # the new source as its sibling is written: a flow mapping, the URL double-quoted,
        # and every line before it as it was
        added = f'  - {{id: {source_slug(url)}, url: "{url}", role: third-party}}\n'
        assert written == original.replace("claims:\n", added + "claims:\n")
        # the claims it proposes are none the record has
        assert "- id: monthly " not in out
        assert "sources: [" in out and "quote: " in out
        # the same page again: one clear line, the file untouched
        assert main(["suggest", url, "--config", str(config), "--record", "nimbus"]) == 2
        assert "already has the source" in capsys.readouterr().err
        assert path.read_text() == written
        assert main(["suggest", url, "--config", str(config), "--record", "nope"]) == 2
    finally:
        site.stop()
