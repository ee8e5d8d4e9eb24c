from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from servers import Page, WebServer


def write_catalog(root: Path, web: WebServer, sources: int, delay_s: float = 0.0) -> Path:
    """A catalog of `sources` sources (5 per record) on the test server, pages slow by delay_s."""
    config = root / "config"
    (config / "records").mkdir(parents=True, exist_ok=True)
    (config / "settings.yaml").write_text(
        f"database: {root / 'w.duckdb'}\n"
        "fetch: {retries: 0, timeout_s: 10, per_host: 4, concurrency: 8}\n"
    )
    records = []
    for r in range(sources // 5):
        items = []
        for s in range(5):
            path = f"/r{r}/s{s}"
            web.routes[path] = Page(
                f"<html><main><p>Record {r} offers {r * 10 + s} seats to students this year."
                f"</p></main></html>",
                delay_s=delay_s,
            )
            role = "primary" if s == 0 else "third-party"
            items.append(f'{{id: s{s}, url: "{web.url(path)}", role: {role}}}')
        records.append(
            textwrap.dedent(f"""\
            - id: r{r}
              title: Record {r}
              sources: [{", ".join(items)}]
              claims: [{{id: seats, quote: "Record {r} offers {r * 10} seats"}}]
            """)
        )
    (config / "records" / "all.yaml").write_text("".join(records))
    return config


def start_refresh(config: Path, batch: int = 10, **env: str) -> subprocess.Popen:
    full_env = {**os.environ, "EVIDENCE_BATCH_SIZE": str(batch)}
    full_env.pop("EVIDENCE_NOW", None)  # the test's own clock, unless it names one
    full_env.update(env)
    return subprocess.Popen(
        [sys.executable, "-m", "evidence_cli", "refresh", "--config", str(config)],
        env=full_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
