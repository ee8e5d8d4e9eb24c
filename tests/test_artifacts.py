"""Each refresh run publishes Prefect artifacts: `evidence-status` (a table, one row per
record) and `evidence-changes` (markdown: what changed in the run), versioned by key on
the server the run reports to (here the session's test server); and its progress lines
go to the run's logs as well as stderr, so that the Prefect UI shows them."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from servers import Page, WebServer
from support import one_source_catalog, prefect_api, refresh_at

PAGE = "<html><main><p>Teams get {amount} in credits for the best runs.</p></main></html>"


def _artifacts(key: str, record_id: str | None = None) -> list:
    """The artifacts under key, oldest first; with record_id, only those that name it
    (the server is the run's: other tests' refreshes publish there too)."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterKey

    with get_client(sync_client=True) as client:
        found = client.read_artifacts(
            artifact_filter=ArtifactFilter(key=ArtifactFilterKey(any_=[key]))
        )
    if record_id is not None:
        found = [a for a in found if record_id in json.dumps(a.data)]
    return sorted(found, key=lambda a: a.created)


@pytest.mark.slow
def test_each_run_publishes_status_and_changes(
    prefect_harness: None, web: WebServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    web.routes["/p"] = Page(PAGE.format(amount="$2,000"))
    config, db = one_source_catalog(
        tmp_path,
        web.url("/p"),
        "Teams get $2,000 in credits",
        record_id="art-record",
        title="Artifacts",
    )
    day = datetime(2026, 11, 2, 6, tzinfo=UTC)
    before_status = len(_artifacts("evidence-status", "art-record"))
    refresh_at(config, db, day, monkeypatch)
    web.routes["/p"] = Page(PAGE.format(amount="$2,500"))
    refresh_at(config, db, day + timedelta(days=1), monkeypatch)

    status = _artifacts("evidence-status", "art-record")
    changes = _artifacts("evidence-changes", "art-record")
    assert len(status) == before_status + 2  # a version a run
    assert status[-1].type == "table"
    rows = status[-1].data
    rows = json.loads(rows) if isinstance(rows, str) else rows
    assert [r["record_id"] for r in rows] == ["art-record"]
    assert rows[0]["grade"] == "contradicted"
    report = changes[-1].data
    assert changes[-1].type == "markdown"
    assert "**art-record**: documented (fresh) -> contradicted (fresh)" in report
    assert "art-record / c on p: confirmed -> changed" in report
    first = next(a for a in changes if "first graded" in a.data and "art-record" in a.data)
    assert "- **art-record**: documented (fresh), first graded" in first.data


@pytest.mark.slow
def test_artifacts_on_a_real_prefect_server(
    web: WebServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, migrated_prefect_home: Path
) -> None:
    """A refresh run by the CLI against a `prefect server start` process (not the
    temporary one): its two artifacts are read back by key from that server's API."""
    import os
    import subprocess
    import sys

    from flows.commands.serve import local_server

    web.routes["/p"] = Page(PAGE.format(amount="$2,000"))
    config, _ = one_source_catalog(
        tmp_path,
        web.url("/p"),
        "Teams get $2,000 in credits",
        record_id="served-record",
        title="On a real server",
    )
    monkeypatch.setenv("PREFECT_HOME", str(migrated_prefect_home))  # a server of its own
    with local_server(tmp_path / "prefect-server.log") as api:
        env = {**os.environ, "PREFECT_API_URL": api}
        env.pop("EVIDENCE_NOW", None)
        done = subprocess.run(
            [sys.executable, "-m", "evidence_cli", "refresh", "--config", str(config)],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        client = prefect_api(api)
        logs = client.post(f"{api}/logs/filter", json={"limit": 200})
        logs.raise_for_status()
        found = {}
        for key in ("evidence-status", "evidence-changes"):
            answer = client.post(
                f"{api}/artifacts/filter", json={"artifacts": {"key": {"any_": [key]}}}
            )
            answer.raise_for_status()
            found[key] = answer.json()
    (status,) = found["evidence-status"]
    (changes,) = found["evidence-changes"]
    rows = json.loads(status["data"]) if isinstance(status["data"], str) else status["data"]
    assert status["type"] == "table" and rows[0]["record_id"] == "served-record"
    assert changes["type"] == "markdown"
    assert "- **served-record**: documented (fresh), first graded" in changes["data"]
    # Progress in the UI: each line the CLI printed, in the flow run's logs as well.
    logged = [log["message"] for log in logs.json() if log["name"] == "evidence"]
    printed = [line.removeprefix("evidence: ") for line in done.stderr.splitlines()]
    assert "refreshing 1 record: 1 URL" in logged
    assert any(m.startswith("time: ") for m in logged)
    assert set(logged) <= set(printed)
    assert all(log["flow_run_id"] for log in logs.json() if log["name"] == "evidence")


@pytest.mark.slow
def test_progress_reaches_the_run_logs_of_flow_and_task_runs(
    prefect_harness: None, web: WebServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In-process, on the session's server: the progress lines of a run are its logs,
    those of the flow's own thread and those of a task (the page held for review)."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import LogFilter, LogFilterFlowRunId
    from prefect.logging.handlers import APILogWorker

    from flows.refresh import refresh_flow

    body = "<html><main><p>{}</p></main></html>"
    long = " ".join(["Teams get $2,000 in credits for the best runs."] * 20)
    web.routes["/p"] = Page(body.format(long))
    config, db = one_source_catalog(
        tmp_path, web.url("/p"), "Teams get $2,000 in credits", record_id="logged"
    )
    refresh_at(config, db, datetime(2026, 11, 2, 6, tzinfo=UTC), monkeypatch)
    web.routes["/p"] = Page(body.format("Moved."))  # a primary page that lost its text
    monkeypatch.setenv("EVIDENCE_NOW", datetime(2026, 11, 3, 6, tzinfo=UTC).isoformat())
    state = refresh_flow(str(config), str(db), None, return_state=True)
    APILogWorker.drain_all(timeout=30)
    run_id = state.state_details.flow_run_id
    with get_client(sync_client=True) as client:
        logs = client.read_logs(log_filter=LogFilter(flow_run_id=LogFilterFlowRunId(any_=[run_id])))
    ours = [log for log in logs if log.name == "evidence"]
    assert "refreshing 1 record: 1 URL" in [log.message for log in ours]
    held = [log for log in ours if log.message.startswith("holding the new page of logged/p")]
    assert held and held[0].task_run_id is not None  # logged by the check-and-grade task
    assert all(log.task_run_id is None for log in ours if log.message.startswith("time: "))
