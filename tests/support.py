"""Small helpers the tests share."""

from __future__ import annotations

import textwrap
from pathlib import Path


def write_config(root: Path, records: str, settings: str = "fetch: {retries: 0}\n") -> Path:
    """root/config with settings.yaml and records/r.yaml (both dedented); returns the dir."""
    config = root / "config"
    (config / "records").mkdir(parents=True, exist_ok=True)
    (config / "settings.yaml").write_text(textwrap.dedent(settings))
    (config / "records" / "r.yaml").write_text(textwrap.dedent(records))
    return config
