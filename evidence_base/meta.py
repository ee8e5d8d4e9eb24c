"""What the package says of itself: its version, and the User-Agent it fetches with."""

from __future__ import annotations

from importlib import metadata

try:
    __version__ = metadata.version("evidence-pipeline")  # pyproject.toml's, once
except metadata.PackageNotFoundError:  # a source tree never installed
    __version__ = "0+unknown"

PROJECT_URL = "https://github.com/evidence-pipeline/evidence-pipeline"
DEFAULT_USER_AGENT = f"evidence-pipeline/{__version__} (+{PROJECT_URL})"
