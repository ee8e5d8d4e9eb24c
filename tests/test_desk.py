"""The keeper's desk in a real browser: `evidence ui` as a subprocess on 127.0.0.1 over a
catalog refreshed from pages on 127.0.0.1 (a primary whose figure moved, a primary page
held for review, a record with a hostile title), driven with Playwright in the project's
Chromium. Screenshots go to ci-artifacts/ (looked at by a person, kept by CI)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from servers import Page, WebServer
from support import evidence, refresh_at, require_browser, write_config

from evidence_cli.desk_guard import cookie_names
from warehouse.db import connect

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
T0 = datetime(2026, 11, 2, 6, 0, tzinfo=UTC)
HOSTILE = "<script>alert(1)</script><img src=x onerror=alert(2)>"


def _page(sentence: str) -> str:
    return (
        "<html><head><title>Acme</title></head><body><main><h1>Acme research credits</h1>"
        f"<p>{sentence}</p><p>Applications are read by two reviewers within a fortnight; "
        "each team reports its results at the end of its year of credits.</p>"
        "</main></body></html>"
    )


@pytest.fixture
def catalog(
    prefect_harness: None, web: WebServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Path]:
    web.routes["/own"] = Page(_page("Each team receives $4,000 in GPU credits."))
    web.routes["/held"] = Page(_page("Each team receives $4,000 in GPU credits."))
    db = tmp_path / "w.duckdb"
    config = write_config(
        tmp_path,
        f"""
        - id: acme
          title: Acme research credits
          sources: [{{id: own, url: "{web.url("/own")}", role: primary}}]
          claims:
            - id: credits
              quote: "$4,000 in GPU credits"   # kept by hand
        - id: gutted
          title: {HOSTILE!r}
          sources: [{{id: page, url: "{web.url("/held")}", role: primary}}]
          claims:
            - {{id: credits, quote: "$4,000 in GPU credits"}}
            - {{id: reviewers, quote: "read by two reviewers"}}
        """,
        f"database: {db}\nfetch: {{retries: 0}}\n",
    )
    refresh_at(config, db, T0, monkeypatch)
    web.routes["/own"] = Page(_page("Each team receives $2,500 in GPU credits."))
    web.routes["/held"] = Page("<html><body><p>Down for maintenance.</p></body></html>")
    refresh_at(config, db, T0 + timedelta(days=1), monkeypatch)
    return config, db


def _start(config: Path, db: Path, *extra: str) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "EVIDENCE_NOW": (T0 + timedelta(days=1, hours=1)).isoformat()}
    proc = subprocess.Popen(
        [sys.executable, "-m", "evidence_cli", "ui", "--port", "0", "--config", str(config),
         "--db", str(db), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline().strip()
    assert line.startswith("serving on http://"), (line, proc.stderr.read() if proc.stderr else "")
    return proc, line.removeprefix("serving on ")


@pytest.fixture
def desk(catalog: tuple[Path, Path]) -> Iterator[tuple[str, Path, Path]]:
    config, db = catalog
    proc, url = _start(config, db)
    try:
        yield url, config, db
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=30)
        assert proc.stderr is not None
        sys.stderr.write(proc.stderr.read())  # shown when a test fails
        assert code == 130  # Ctrl-C stops it cleanly


def _grade(db: Path, record: str) -> str:
    con = connect(db, read_only=True)
    try:
        (row,) = con.execute(
            "SELECT grade FROM record_status WHERE record_id = ?", [record]
        ).fetchall()
        return row[0]
    finally:
        con.close()


def test_the_desk_in_a_real_browser(desk: tuple[str, Path, Path]) -> None:
    require_browser()
    from playwright.sync_api import sync_playwright

    from flows.fetching import find_browser

    url, config, db = desk
    record_file = config / "records" / "r.yaml"
    before = record_file.read_text()
    shots = Path(os.environ.get("EVIDENCE_SCREENSHOTS", ROOT / "ci-artifacts"))
    shots.mkdir(parents=True, exist_ok=True)
    dialogs: list[str] = []
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=find_browser(None))
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            page = context.new_page()
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url)
            body = page.inner_text("body")
            # the queue, as `evidence review` lists it: the moved figure and the held page
            assert "$4,000 -> $2,500 on own" in body
            assert "page held for review" in body
            assert page.locator("button", has_text="Update").count() == 1
            assert page.locator("button", has_text="Accept").count() == 1
            assert HOSTILE in body  # the hostile title, as text
            page.screenshot(path=str(shots / "desk-index.png"), full_page=True)
            page.goto(url + "records/acme")  # the word diff of the page that moved
            diff = page.locator("pre.diff").inner_text()
            assert "4,000" in diff and "2,500" in diff, diff
            page.screenshot(path=str(shots / "desk-changed.png"), full_page=True)
            page.goto(url)

            page.click("button:has-text('Update')")  # the decision page: nothing written
            body = page.inner_text("body")
            assert "The quote now" in body and "$2,500 in GPU credits" in body
            assert record_file.read_text() == before
            page.screenshot(path=str(shots / "desk-decide.png"), full_page=True)
            page.click("button:has-text('Confirm')")
            assert "/done/" in page.url  # Post/Redirect/Get: a reload sends nothing again
            body = page.inner_text("body")
            assert "Updated acme/credits" in body and "-> documented" in body
            assert '+      quote: "$2,500 in GPU credits"' in body
            after = record_file.read_text()
            assert after == before.replace(
                '"$4,000 in GPU credits"   # kept by hand',
                '"$2,500 in GPU credits"   # kept by hand',
            )  # exactly the quote's line, its comment kept
            assert _grade(db, "acme") == "documented"
            page.reload()
            assert "Updated acme/credits" in page.inner_text("body")
            assert record_file.read_text() == after

            page.goto(url + "records/gutted")  # the held page: what it lost, and Accept
            body = page.inner_text("body")
            assert "Held for review" in body and "Down for maintenance" in body
            assert page.locator("pre.diff del").count() >= 1
            page.screenshot(path=str(shots / "desk-held.png"), full_page=True)
            page.goto(url)
            page.click("button:has-text('Accept')")
            assert "Accepted gutted/page" in page.inner_text("body")
            page.goto(url)
            assert "page held for review" not in page.inner_text("body")

            page.goto(url + "records/acme")
            assert page.locator("svg.timeline rect").count() >= 1
            assert page.locator("h1").inner_text() == "Acme research credits"
            page.screenshot(path=str(shots / "desk-record.png"), full_page=True)
            page.goto(url + "records/gutted")
            assert page.locator("h1").inner_text() == HOSTILE
            assert page.evaluate("document.scripts.length") == 0
            context.close()
        finally:
            browser.close()
    assert dialogs == [] and errors == []


def test_forged_posts_and_foreign_hosts_are_refused(desk: tuple[str, Path, Path]) -> None:
    url, config, _ = desk
    file = config / "records" / "r.yaml"
    before = file.read_text()
    form = {"record_id": "acme", "claim_id": "credits", "source_id": "own", "csrf": "guess"}
    # a cross-site form post: its Origin is another site's, and it has no token of ours
    forged = httpx.post(url + "update", data=form, headers={"Origin": "http://evil.example"})
    assert forged.status_code == 403
    # the same without an Origin header, with a token it could not read
    assert httpx.post(url + "update", data=form).status_code == 403
    # each check refuses on its own: the page's own token and cookie, from another site
    page = httpx.get(url)
    token = re.search(r'name="csrf" value="([^"]+)"', page.text)
    cookie = cookie_names(int(url.rsplit(":", 1)[1].split("/")[0]))[0]  # this desk's port's
    assert token is not None and page.cookies.get(cookie) == token[1]
    # (an unknown source: were the guard passed, the action itself would answer 409)
    own = {**form, "source_id": "nope", "csrf": token[1]}
    cookies = {cookie: token[1]}
    with httpx.Client(cookies=cookies) as client:
        evil = client.post(url + "update", data=own, headers={"Origin": "http://evil.example"})
        assert evil.status_code == 403 and "another site" in evil.text
        assert client.post(url + "update", data=own).status_code == 409  # guard passed
    no_cookie = httpx.post(url + "update", data=own)
    assert no_cookie.status_code == 403 and "no token" in no_cookie.text
    # DNS rebinding: a name that resolves to us, but is not the host we serve
    host = httpx.get(url, headers={"Host": "evil.example"})
    assert host.status_code == 400
    assert file.read_text() == before


def test_another_host_needs_a_token(catalog: tuple[Path, Path]) -> None:
    config, db = catalog
    refused = evidence(
        "ui", "--host", "0.0.0.0", "--port", "0", "--config", str(config), "--db", str(db),
        timeout=60,
    )  # fmt: skip
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1 and "needs --token" in refused.stderr
    proc, url = _start(config, db, "--host", "0.0.0.0", "--token", "s3cret")
    try:
        assert url.endswith("?token=s3cret")
        port = url.split(":")[2].split("/")[0]
        base = f"http://0.0.0.0:{port}/"
        assert httpx.get(base).status_code == 401
        assert httpx.get(base, headers={"Authorization": "Bearer nope"}).status_code == 401
        assert httpx.get(base, headers={"Authorization": "Bearer s3cret"}).status_code == 200
        with httpx.Client() as client:  # ?token= once: a cookie carries it from then on
            first = client.get(base + "?token=s3cret", follow_redirects=True)
            assert first.status_code == 200 and "token" not in str(first.url)
            assert client.get(base).status_code == 200
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130


def test_the_desk_reads_the_database_as_it_is(desk: tuple[str, Path, Path]) -> None:
    """A change to the database shows on the next request (a refresh beside it)."""
    url, _, db = desk
    assert "acme" in httpx.get(url).text
    con = connect(db)
    try:
        con.execute(
            "UPDATE store.records SET title = 'Renamed by a refresh' WHERE record_id = 'acme'"
        )
    finally:
        con.close()
    deadline = time.monotonic() + 10
    while "Renamed by a refresh" not in httpx.get(url).text:
        assert time.monotonic() < deadline
        time.sleep(0.2)


def test_while_a_refresh_writes_the_page_says_so(desk: tuple[str, Path, Path]) -> None:
    """A writer holds the file (as a refresh does): the desk answers at once that it is
    busy, and asks to be read again; once the writer is done, it reads as usual."""
    url, _, db = desk
    con = connect(db)
    try:
        started = time.monotonic()
        busy = httpx.get(url, timeout=30)
        assert busy.status_code == 503 and busy.headers["Refresh"] == "2"
        assert "A refresh is writing to the database" in busy.text
        assert "Nothing to review" not in busy.text
        assert time.monotonic() - started < 10
    finally:
        con.close()
    again = httpx.get(url)
    assert again.status_code == 200 and "page held for review" in again.text


def test_fifty_requests_at_once_while_a_refresh_writes(desk: tuple[str, Path, Path]) -> None:
    """Readers opened while others are open share the file's instance: fifty requests at
    once all answer; while another process holds the file for writing they say so (503),
    never 500; and the desk answers again when it lets go."""
    from concurrent.futures import ThreadPoolExecutor

    url, _, db = desk
    paths = ["", "records/acme"] * 25

    def get(path: str) -> int:
        return httpx.get(url + path, timeout=60).status_code

    with ThreadPoolExecutor(50) as pool:
        assert set(pool.map(get, paths)) == {200}
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); c.execute('BEGIN'); "
            "print('held', flush=True); time.sleep(4); c.close()",
            str(db),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with ThreadPoolExecutor(50) as pool:
            answered = list(pool.map(get, paths))
        assert 500 not in answered and set(answered) <= {200, 503}, answered
    finally:
        holder.wait(timeout=30)
    with ThreadPoolExecutor(8) as pool:
        assert set(pool.map(get, ["", "records/acme"] * 4)) == {200}


def test_check_now_refreshes_one_source_and_waits_its_turn(desk: tuple[str, Path, Path]) -> None:
    from warehouse.lock import refresh_lock

    url, _, db = desk

    def fetches() -> int:
        con = connect(db, read_only=True)
        try:
            (row,) = con.execute("SELECT count(*) FROM fetches WHERE source_id = 'own'").fetchall()
            return int(row[0])
        finally:
            con.close()

    before = fetches()
    with httpx.Client(base_url=url) as client:
        page = client.get("source", params={"record_id": "acme", "source_id": "own"})
        assert page.status_code == 200 and "Check now" in page.text
        token = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert token is not None
        form = {"record_id": "acme", "source_id": "own", "csrf": token[1]}
        with refresh_lock(db):  # a refresh holds the database: refused at once, politely
            refused = client.post("check", data=form)
        assert refused.status_code == 409 and "refresh" in refused.text
        started = client.post("check", data=form)
        assert started.status_code == 303
        progress = started.headers["location"]
        deadline = time.monotonic() + 180
        while True:
            answer = client.get(progress)
            if "Refresh" not in answer.headers:
                break
            assert time.monotonic() < deadline, answer.text
            time.sleep(1)
    assert "Checked acme/own" in answer.text, answer.text
    assert "1 URL(s) fetched" in answer.text
    assert fetches() == before + 1


@pytest.fixture
def every_kind(
    prefect_harness: None, web: WebServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Path]:
    """A catalog whose queue holds a claim absent from its page, a source failing, and
    primaries that disagree, besides a moved figure: real refreshes a day apart."""
    web.routes["/own"] = Page(_page("Each team receives $4,000 in GPU credits."))
    web.routes["/blank"] = Page(_page("This page says nothing of what the programme gives."))
    web.routes["/first"] = Page(_page("Each team receives $4,000 in GPU credits."))
    web.routes["/second"] = Page(_page("Each team receives $4,000 in GPU credits."))
    web.routes["/blog"] = Page(_page("A post: each team receives $4,000 in GPU credits."))
    db = tmp_path / "w.duckdb"
    config = write_config(
        tmp_path,
        f"""
        - id: acme
          title: Acme research credits
          sources:
            - {{id: own, url: "{web.url("/own")}", role: primary}}
            - {{id: blog, url: "{web.url("/blog")}", role: third-party}}
          claims:
            - id: credits
              quote: "$4,000 in GPU credits"
        - id: lost
          title: Lost words
          sources: [{{id: blank, url: "{web.url("/blank")}", role: primary}}]
          claims:
            - {{id: prize, quote: "the grand prize of the Lost Words award"}}
        - id: two
          title: Two primaries
          sources:
            - {{id: first, url: "{web.url("/first")}", role: primary}}
            - {{id: second, url: "{web.url("/second")}", role: primary}}
          claims:
            - {{id: credits, quote: "$4,000 in GPU credits"}}
        """,
        f"database: {db}\nfetch: {{retries: 0}}\n",
    )
    refresh_at(config, db, T0, monkeypatch)
    web.routes["/own"] = Page(_page("Each team receives $2,500 in GPU credits."))
    web.routes["/second"] = Page(_page("Each team receives $3,000 in GPU credits."))
    web.routes["/blog"] = Page("gone", status=404)
    refresh_at(config, db, T0 + timedelta(days=1), monkeypatch)
    return config, db


def test_every_kind_is_settled_in_the_browser(every_kind: tuple[Path, Path]) -> None:
    """Changed, absent, unreachable and disagree, each settled by its own button."""
    require_browser()
    from playwright.sync_api import sync_playwright

    from flows.fetching import find_browser

    config, db = every_kind
    file = config / "records" / "r.yaml"
    shots = Path(os.environ.get("EVIDENCE_SCREENSHOTS", ROOT / "ci-artifacts"))
    shots.mkdir(parents=True, exist_ok=True)
    proc, url = _start(config, db)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=find_browser(None))
            try:
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                page = context.new_page()
                page.goto(url)
                kinds = page.locator("tbody tr td:nth-child(3)").all_inner_texts()
                assert {"changed", "absent", "unreachable", "disagree"} <= set(kinds), kinds
                page.screenshot(path=str(shots / "desk-every-kind.png"), full_page=True)

                # changed: the decision page, then Confirm
                page.locator("tr", has_text="acme").locator("button", has_text="Update").click()
                page.click("button:has-text('Confirm')")
                assert "Updated acme/credits" in page.inner_text("body")

                # absent: the keeper writes the page's words by hand
                page.goto(url)
                page.locator("tr", has_text="lost").locator("button", has_text="Update").click()
                assert "Or write the quote by hand" in page.inner_text("body")
                page.fill("textarea[name=quote]", "what the programme gives")
                page.click("button:has-text('Write this quote')")
                assert "Took your words" in page.inner_text("body")
                assert 'quote: "what the programme gives"' in file.read_text()

                # unreachable: a new url for the failing source
                page.goto(url)
                page.locator("tr", has_text="unreachable").locator("button").click()
                assert "Replace its url" in page.inner_text("body")
                page.fill("input[name=url]", url + "moved-blog")
                page.click("button:has-text('Write the new url')")
                assert "Replaced acme/blog" in page.inner_text("body")
                assert f"{url}moved-blog" in file.read_text()

                # disagree: keep one page
                page.goto(url)
                page.locator("tr", has_text="disagree").locator("button").click()
                page.click("button:has-text('Keep first')")
                assert "two/credits on first only" in page.inner_text("body")
                page.screenshot(path=str(shots / "desk-settled.png"), full_page=True)
                context.close()
            finally:
                browser.close()
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130
    from flows.catalog import load_catalog

    catalog = load_catalog(config)  # every edit left the catalog valid
    two = next(r for r in catalog.records if r.id == "two")
    assert two.config.claims[0].sources == ["first"]
