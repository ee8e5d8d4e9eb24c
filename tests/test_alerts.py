"""Alerts: several refreshes with EVIDENCE_NOW moving forward, a real webhook receiver
on 127.0.0.1 (json://), and the messages counted."""

from __future__ import annotations

import csv
import io
import json
import textwrap
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from servers import Page, WebServer

from flows.alerting import channel_key, mask_url, notify_urls
from warehouse.db import connect

T0 = datetime(2026, 11, 4, 6, 0, tzinfo=UTC)
SECRET = "hunter2-token"
PAGE = (
    "<html><title>Credits</title><main><p>Researchers get up to {amount} in cloud credits "
    "for 12 months.</p></main></html>"
)


class Scenario:
    def __init__(
        self, web: WebServer, hook: WebServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        self.web, self.hook, self.monkeypatch = web, hook, monkeypatch
        self.config = tmp_path / "config"
        (self.config / "records").mkdir(parents=True)
        port = hook.httpd.server_address[1]
        (self.config / "settings.yaml").write_text(
            textwrap.dedent(f"""\
            fetch: {{retries: 0, timeout_s: 2}}
            alerts:
              after_failures: 2
              resend_after: 12h
              notify: ["json://alice:{SECRET}@127.0.0.1:{port}/hook"]
            """)
        )
        (self.config / "records" / "r.yaml").write_text(
            textwrap.dedent(f"""\
            id: nimbus
            title: Nimbus research credits
            freshness_window: 3d
            sources: [{{id: official, url: "{web.url("/credits")}", role: primary}}]
            claims: [{{id: cap, quote: "up to $5,000 in cloud credits for 12 months"}}]
            """)
        )
        self.db = tmp_path / "w.duckdb"
        self.now = T0
        self.up("$5,000")

    def up(self, amount: str) -> None:
        self.web.routes["/credits"] = Page(PAGE.format(amount=amount))

    def down(self) -> None:
        self.web.routes["/credits"] = Page("busy", status=503)

    def refresh(self, after: timedelta) -> list[str]:
        """One refresh `after` later; the titles of the messages it delivered."""
        from flows.refresh import refresh_flow

        self.now += after
        seen = len(self.hook.posts)
        self.monkeypatch.setenv("EVIDENCE_NOW", self.now.isoformat())
        refresh_flow(str(self.config), str(self.db), None)
        return [json.loads(body)["title"] for _, body in self.hook.posts[seen:]]


@pytest.fixture
def hook() -> WebServer:
    server = WebServer().start()
    yield server
    server.stop()


@pytest.mark.slow
def test_alert_lifecycle_without_storms(
    prefect_harness: None,
    web: WebServer,
    hook: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    s = Scenario(web, hook, tmp_path, monkeypatch)
    hour = timedelta(hours=1)
    assert s.refresh(timedelta(0)) == []
    s.down()
    assert s.refresh(hour) == []  # one failure is not an outage
    (opened,) = s.refresh(hour)
    assert opened == "unreachable: nimbus official failed 2 refreshes in a row"
    body = json.loads(hook.posts[-1][1])["message"]
    assert web.url("/credits") in body and "Failures in a row: 2" in body and "HTTP 503" in body
    assert s.refresh(hour) == []  # no storm inside the resend window (12h, not the default)
    assert s.refresh(hour) == []
    assert s.refresh(timedelta(hours=9)) == []  # 11 hours since it was sent
    (resent,) = s.refresh(timedelta(hours=2))
    assert resent.startswith("unreachable: nimbus official failed 6 refreshes")
    s.up("$5,000")
    (recovered,) = s.refresh(hour)
    assert recovered == "recovered: nimbus official answers again"

    # flapping inside the resend window: reopened and closed silently
    s.down()
    assert s.refresh(hour) == []
    assert s.refresh(hour) == []
    s.up("$5,000")
    assert s.refresh(hour) == []

    # a changed number: the grade falls and the claim changed, one message each
    s.up("$4,000")
    titles = s.refresh(timedelta(days=2))
    assert sorted(titles) == [
        "changed: nimbus cap up to $5,000 -> up to $4,000",
        "grade: nimbus fell from documented to contradicted (cap on official)",
    ]
    changed = next(json.loads(b)["message"] for _, b in hook.posts if b"changed: nimbus" in b)
    # the figure as written before and after; "12 months", which did not move, is not named
    assert "up to $5,000 -> up to $4,000 (quote:" in changed and web.url("/credits") in changed
    assert "12 months ->" not in changed
    assert "Before: " in changed and "$5,000" in changed.split("Before: ")[1].split("\n")[0]
    assert "After: " in changed and "$4,000" in changed.split("After: ")[1].split("\n")[0]

    # four days without an answer: stale, and unreachable
    s.down()
    s.refresh(timedelta(days=1))
    titles = s.refresh(timedelta(days=3))
    assert sorted(titles) == [
        "stale: nimbus is stale",
        "unreachable: nimbus official failed 2 refreshes in a row",
    ]

    con = connect(s.db, read_only=True)
    try:
        alerts = con.execute(
            "SELECT closed_at IS NULL, failures FROM alerts ORDER BY alert_id"
        ).fetchall()
        assert alerts == [(False, 2), (True, 2)]  # the first reopened while flapping
        # the notify URL's secret is nowhere in the database
        texts = con.execute(
            "SELECT string_agg(channel || channel_masked || title || body, ' ') "
            "FROM store.deliveries JOIN store.messages USING (notification_id)"
        ).fetchone()[0]
        assert SECRET not in texts and "json://127.0.0.1:" in texts
    finally:
        con.close()
    assert SECRET.encode() not in s.db.read_bytes()
    out, err = capfd.readouterr()
    assert SECRET not in out + err


@pytest.mark.slow
def test_a_failing_channel_is_retried_and_never_fails_the_run(
    prefect_harness: None,
    web: WebServer,
    hook: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    s = Scenario(web, hook, tmp_path, monkeypatch)
    s.refresh(timedelta(0))
    s.down()
    s.refresh(timedelta(hours=1))
    hook.post_status = 500
    assert s.refresh(timedelta(hours=1)) == []  # the run completes all the same
    err = capfd.readouterr().err
    assert "1 alert message(s) not delivered" in err and SECRET not in err
    hook.post_status = 200
    owed = s.refresh(timedelta(hours=1))
    assert owed == ["unreachable: nimbus official failed 2 refreshes in a row"]  # sent late, once
    assert s.refresh(timedelta(hours=1)) == []


@pytest.mark.slow
def test_alerts_command_lists_open_and_all(
    prefect_harness: None,
    web: WebServer,
    hook: WebServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from evidence_cli.main import main

    s = Scenario(web, hook, tmp_path, monkeypatch)
    s.down()
    for _ in range(2):
        s.refresh(timedelta(hours=1))
    capsys.readouterr()
    assert main(["alerts", "--db", str(s.db)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:3] == ["raised_at", "kind", "record_id"]
    assert "unreachable: nimbus official failed 2 refreshes in a row" in out[2]
    assert main(["alerts", "--format", "json", "--db", str(s.db)]) == 0
    (listed,) = json.loads(capsys.readouterr().out)
    assert listed["kind"] == "unreachable" and listed["source_id"] == "official"
    assert "HTTP 503" in listed["body"] and listed["delivered_at"] is not None
    s.up("$5,000")
    s.refresh(timedelta(hours=1))
    # the alert is closed: the newest run's recovery is what is listed
    assert main(["alerts", "--format", "json", "--db", str(s.db)]) == 0
    assert [a["title"] for a in json.loads(capsys.readouterr().out)] == [
        "recovered: nimbus official answers again"
    ]
    assert main(["alerts", "--all", "--format", "csv", "--db", str(s.db)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["kind"] for r in rows] == ["recovered", "unreachable"]  # newest first
    assert main(["alerts", "--all", "--kind", "unreachable", "--db", str(s.db)]) == 0
    out = capsys.readouterr().out
    assert "unreachable: nimbus" in out and "recovered" not in out
    assert main(["alerts", "--all", "--since", "2030-01-01", "--db", str(s.db)]) == 0
    assert capsys.readouterr().out.strip() == "no alerts kept since 2030-01-01"


@pytest.mark.parametrize(
    ("url", "masked"),
    [
        (
            "json://alice:secret@hooks.example.org:8443/path/token",
            "json://hooks.example.org:8443/***",
        ),
        ("slack://TokenA/TokenB/TokenC/#general", "slack://tokena/***"),
        ("mailto://user:pass@gmail.com", "mailto://gmail.com/***"),
        ("json://localhost", "json://localhost"),
    ],
)
def test_mask_url(url: str, masked: str) -> None:
    assert mask_url(url) == masked


def test_notify_urls_from_settings_and_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVIDENCE_NOTIFY", "json://a/1  json://b/2 json://a/1")
    assert notify_urls(["json://a/1", "json://c/3"]) == ["json://a/1", "json://c/3", "json://b/2"]


def crash_catalog(tmp_path: Path, hook: WebServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A catalog of one record whose crashes are reported to `hook`; its directory."""
    config = tmp_path / "config"
    (config / "records").mkdir(parents=True)
    (config / "records" / "r.yaml").write_text(
        "id: r\ntitle: R\nsources: [{url: 'http://127.0.0.1:9/x', role: primary}]\n"
    )
    port = hook.httpd.server_address[1]
    monkeypatch.setenv("EVIDENCE_NOTIFY", f"json://127.0.0.1:{port}/crash")
    return config


@pytest.mark.slow
def test_a_crash_of_the_flow_reaches_the_channels(
    prefect_harness: None, hook: WebServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows.refresh import refresh_flow

    config = crash_catalog(tmp_path, hook, monkeypatch)
    not_a_db = tmp_path / "db-is-a-directory"
    not_a_db.mkdir()
    with pytest.raises(Exception):  # noqa: B017 - whatever the crash, the hook must fire
        refresh_flow(str(config), str(not_a_db), None)
    titles = [json.loads(body)["title"] for _, body in hook.posts]
    assert len(titles) == 1 and titles[0].startswith("flow-failed: evidence-refresh run ")


@pytest.mark.slow
def test_a_crash_of_the_flow_is_kept_with_the_other_alerts(
    prefect_harness: None, hook: WebServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from flows.refresh import refresh_flow

    config = crash_catalog(tmp_path, hook, monkeypatch)
    monkeypatch.setenv("EVIDENCE_NOW", "not a time")  # the flow's first look at the clock
    db = tmp_path / "w.duckdb"
    from warehouse.db import connect

    connect(db).close()  # the hook writes to a database that exists, never makes one
    state = refresh_flow(str(config), str(db), None, return_state=True)
    assert state.is_failed()
    (kept,) = con_rows(db, "SELECT kind, title, body, delivered_at, run_id FROM notifications")
    kind, title, body, delivered_at, run_id = kept
    assert kind == "flow-failed" and title == json.loads(hook.posts[0][1])["title"]
    assert "EVIDENCE_NOW" in body and delivered_at is not None
    assert run_id == str(state.state_details.flow_run_id)  # the run, as Prefect knows it


def test_evidence_messages_one_per_record_per_change() -> None:
    from flows.alerting import changed_snapshots, evidence_messages
    from warehouse.alerts import CheckState, EvidenceState

    before = EvidenceState(
        records={"a": ("documented", "fresh"), "b": ("reported", "fresh")},
        checks={
            ("a", "c1", "p"): CheckState("confirmed", (5.0,), "$5 per seat", 1),
            ("a", "c2", "p"): CheckState("confirmed", (3.0,)),
        },
        held={},
        shells={("a", "shell"): "needs `render: browser`"},
    )
    after = EvidenceState(
        records={
            "a": ("contradicted", "fresh"),
            "b": ("reported", "stale"),
            "new": ("unverified", "unchecked"),
        },
        checks={
            ("a", "c1", "p"): CheckState("changed", (6.0,), "$6 per seat", 2),
            ("a", "c2", "p"): CheckState("changed", (4.0,)),
        },
        held={("b", "p", 7): "main text fell from 5000 to 100 characters"},
        shells={("a", "shell"): "needs `render: browser`", ("b", "app"): "an app shell"},
    )
    quotes = {("a", "c1"): "$5 per seat", ("a", "c2"): "3 seats"}
    urls = {("a", "p"): "https://a.example/p", ("b", "p"): "https://b.example/p"}
    assert changed_snapshots(before, after) == {1, 2}
    texts = {1: "Rules. Teams pay $5 per seat. Apply now.", 2: "Teams now pay $6 per seat.\nEnd."}
    messages = evidence_messages(before, after, quotes, urls, texts)
    assert sorted(m.title for m in messages) == [
        "changed: a c1 $5 -> $6, c2 3 -> 4",
        "grade: a fell from documented to contradicted (c1 on p, c2 on p)",
        "review: b app needs render: browser",
        "review: b p page held for review",
        "stale: b is stale",
    ]  # a shell already flagged before is not sent again
    changed = next(m for m in messages if m.kind == "changed")
    assert "$5 -> $6" in changed.body and "3 -> 4" in changed.body
    assert changed.source_id == "p"  # every change of it on one source
    assert "https://a.example/p" in changed.body
    # the sentence before and after, from the pages themselves
    assert 'Before: "Teams pay $5 per seat."' in changed.body
    assert 'After: "Teams now pay $6 per seat."' in changed.body
    grade = next(m for m in messages if m.kind == "grade")
    assert "Moved by: c1 on p https://a.example/p: confirmed -> changed" in grade.body


@pytest.mark.slow
def test_the_outbox_serves_each_channel_and_gives_up_after_its_cap(
    tmp_path: Path, hook: WebServer
) -> None:
    """Three channels: one answers, one always refuses, one answers too late. Each message
    is queued once per channel; the good one gets it at once; the slow one costs its
    timeout, not the run; the refusing one is tried each run until MAX_ATTEMPTS, then left."""
    from flows.alerting import deliver
    from warehouse import alerts
    from warehouse.db import session

    refusing, slow = WebServer().start(), WebServer().start()
    try:
        refusing.post_status = 500
        slow.post_delay_s = 10  # past apprise's 4-second read timeout
        urls = [f"json://127.0.0.1:{s.httpd.server_address[1]}/h" for s in (hook, refusing, slow)]
        db = tmp_path / "w.duckdb"
        with session(db, now=T0) as con:
            channels = [(channel_key(u), mask_url(u)) for u in urls]
            alerts.keep(con, [alerts.Message("stale", "r", "stale: r is stale", "b")], channels, T0)
        started = time.monotonic()
        assert deliver(db, urls, T0) == 1  # only the good channel
        assert time.monotonic() - started < 60  # the slow channel cost its timeout, no more
        assert [json.loads(b)["title"] for _, b in hook.posts] == ["stale: r is stale"]
        slow.post_delay_s = 0
        assert deliver(db, urls, T0) == 1  # the slow one, late, once
        for _ in range(alerts.MAX_ATTEMPTS + 3):
            assert deliver(db, urls, T0) == 0
        # the slow channel may see the first try too, once its sleep ends (the client had
        # given up on it): delivery is at least once
        assert len(hook.posts) == 1 and 1 <= len(slow.posts) <= 2
        with session(db, read_only=True, now=T0) as con:
            attempts = dict(
                con.execute("SELECT channel, attempts FROM store.deliveries").fetchall()
            )
        assert attempts[channel_key(urls[1])] == alerts.MAX_ATTEMPTS  # then given up on
        assert attempts[channel_key(urls[0])] == 1 and attempts[channel_key(urls[2])] == 2
        # the message is kept once, and is not delivered while a channel still owes it
        (kept,) = con_rows(db, "SELECT title, delivered_at FROM notifications")
        assert kept == ("stale: r is stale", None)
    finally:
        refusing.stop()
        slow.stop()


def con_rows(db: Path, query: str) -> list[tuple]:
    from warehouse.db import session

    with session(db, read_only=True, now=T0) as con:
        return con.execute(query).fetchall()
