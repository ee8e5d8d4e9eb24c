"""`serve` runs only its own catalog's runs: its deployment is named for its config
directory and database, and each start removes what earlier starts left waiting."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from flows.commands.serve import FLOW_NAME, deployment_name, remove_stale


def params(root: Path, name: str) -> dict:
    return {
        "config_dir": str(root / name / "config"),
        "db_path": str(root / name / "w.duckdb"),
        "due": True,
    }


def test_two_catalogs_get_two_deployments(tmp_path: Path) -> None:
    a, b = params(tmp_path, "a"), params(tmp_path, "b")
    assert deployment_name(a) != deployment_name(b)
    assert deployment_name(a) == deployment_name(dict(a))
    assert deployment_name(a).startswith("evidence-refresh-")


async def _deploy(name: str, parameters: dict, runs: int) -> None:
    from prefect.client.orchestration import get_client
    from prefect.states import Scheduled

    from flows.refresh import refresh_flow

    async with get_client() as client:
        flow_id = await client.create_flow(refresh_flow)
        deployment_id = await client.create_deployment(
            flow_id=flow_id, name=name, parameters=parameters
        )
        for i in range(runs):
            later = datetime.now(UTC) + timedelta(hours=i + 1)
            await client.create_flow_run_from_deployment(
                deployment_id, state=Scheduled(scheduled_time=later)
            )


async def _left() -> dict[str, int]:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import DeploymentFilter, DeploymentFilterId

    async with get_client() as client:
        deployments = await client.read_deployments()
        out = {}
        for d in deployments:
            # by deployment: the server is the run's, with every other test's runs on it
            mine = DeploymentFilter(id=DeploymentFilterId(any_=[d.id]))
            out[d.name] = len(await client.read_flow_runs(deployment_filter=mine))
        return out


@pytest.mark.slow
def test_a_start_removes_its_stale_runs_and_leaves_other_catalogs(
    prefect_harness: None, tmp_path: Path
) -> None:
    ours, theirs = params(tmp_path, "ours"), params(tmp_path, "theirs")
    asyncio.run(_deploy(deployment_name(ours), ours, 3))  # an earlier start's, every second
    asyncio.run(_deploy(deployment_name(theirs), theirs, 2))
    asyncio.run(_deploy(FLOW_NAME, theirs, 1))  # the name every catalog once shared
    assert remove_stale(ours) == 3
    left = asyncio.run(_left())
    assert deployment_name(ours) not in left
    assert left[deployment_name(theirs)] == 2 and left[FLOW_NAME] == 1
    assert remove_stale(theirs) == 3  # its own, and the shared name pointing at it
    assert FLOW_NAME not in asyncio.run(_left())
