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


def browser_found() -> bool:
    """Whether a Chromium for `render: browser` can be started here."""
    from flows.browser import find_browser

    try:
        import playwright  # noqa: F401

        find_browser(None)
    except (ImportError, LookupError):
        return False
    return True


def require_browser() -> None:
    """Browser tests never skip in CI; elsewhere, with no browser, they say why they skip."""
    import os

    import pytest

    if browser_found():
        return
    if os.environ.get("CI") == "true":
        pytest.fail("CI must have a browser: make browser installs one")
    pytest.skip(
        "no browser here: `make browser` installs one (Playwright's or chromium)",
        allow_module_level=True,
    )
