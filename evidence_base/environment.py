"""Every environment variable evidence-pipeline reads, declared once: its name, the kind of
value, what it overrides, the lowest layer that may read it, and what it does.

Code reads a variable through `get(NAME)` only (tests/test_environment.py holds that no
module reads an `EVIDENCE_*` name from `os.environ` itself); the table of
docs/configuration.md is this one (the same test compares them). An `EVIDENCE_*`
variable that is set and not declared here is most likely a typo: the command line
says so once (`unknown`).

Some values a catalog's settings.yaml may name only within bounds (a program to run, a
remote engine, a credential: flows/catalog/operator.py); these variables are how
whoever runs evidence names them without bounds.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass

LAYERS = ("evidence_base", "extractors", "warehouse", "flows", "evidence_cli")


@dataclass(frozen=True, slots=True)
class Variable:
    name: str
    kind: str  # the kind of value, as the docs say it
    overrides: str  # the flag or setting it stands for ("" when none)
    layer: str  # the lowest layer that reads it (each layer above it may too)
    says: str  # what it does, one sentence for docs/configuration.md
    internal: bool = False  # for the tests and benches: not a user's setting


VARIABLES: tuple[Variable, ...] = (
    Variable(
        "EVIDENCE_CONFIG", "path", "--config", "flows", "the config directory, as `--config DIR`"
    ),
    Variable(
        "EVIDENCE_DB",
        "path",
        "--db; settings' database",
        "flows",
        "the database file, as `--db PATH`; overrides `database:`",
    ),
    Variable(
        "EVIDENCE_NOW",
        "ISO-8601 timestamp with a zone",
        "the clock",
        "flows",
        "replaces the clock everywhere (fetch times, grading, freshness, alerts, and the "
        "views the CLI reads), e.g. `2026-11-04T06:00:00+00:00`",
    ),
    Variable(
        "EVIDENCE_NOTIFY",
        "URLs, space separated",
        "adds to alerts.notify",
        "flows",
        "more Apprise URLs for alerts, added to `alerts.notify`",
    ),
    Variable(
        "EVIDENCE_MEMORY_LIMIT",
        "a size in DuckDB's words (2GB)",
        "settings' memory_limit",
        "warehouse",
        "what a reader of the database holds in memory before it spills to disk",
    ),
    Variable(
        "EVIDENCE_PREFECT_SERVER",
        "`shared` or `temporary`",
        "",
        "flows",
        "`temporary`: each run starts a Prefect server of its own that dies with it, "
        "instead of the local server commands share",
    ),
    Variable(
        "EVIDENCE_PREFECT_SERVER_IDLE",
        "seconds",
        "",
        "flows",
        "seconds without a request after which the shared local Prefect server stops "
        "(default 15 minutes)",
    ),
    Variable(
        "EVIDENCE_HOME",
        "path",
        "",
        "flows",
        "where a Prefect worker finds `config/` and the flow (`prefect.yaml`)",
    ),
    Variable(
        "EVIDENCE_UI_TOKEN",
        "text",
        "--token of `evidence ui`",
        "evidence_cli",
        "the token every request to the desk carries (kept out of the process list)",
    ),
    Variable(
        "EVIDENCE_BROWSER_PATH",
        "path",
        "settings' fetch.browser_path",
        "flows",
        "the Chromium to drive; a catalog's own `fetch.browser_path` is taken only within "
        'bounds (docs/configuration.md, "What a catalog may name")',
    ),
    Variable(
        "EVIDENCE_BROWSER_ENDPOINT",
        "URLs, space separated",
        "settings' fetch.browser_endpoint",
        "flows",
        "browser engines to render on (ws://, wss://, cdp+http://, cdp+ws://); a catalog's "
        "own are taken only on loopback or on the hosts EVIDENCE_ALLOW_HOSTS names",
    ),
    Variable(
        "EVIDENCE_DASK_ADDRESS",
        "URL",
        "settings' dask_address",
        "flows",
        "the Dask scheduler pages are read on; a catalog's own is taken only on loopback "
        "or on the hosts EVIDENCE_ALLOW_HOSTS names",
    ),
    Variable(
        "EVIDENCE_ARCHIVE_KEY_ENV",
        "a variable's name",
        "settings' archive.key_env",
        "flows",
        "the variable holding `ACCESS:SECRET` for the Save Page Now 2 API; a catalog's own "
        "`archive.key_env` is taken only when it names an `EVIDENCE_SECRET_` variable and the "
        "archive is reached over https on an allowed host",
    ),
    Variable(
        "EVIDENCE_ALLOW_HOSTS",
        "host names, space separated",
        "",
        "flows",
        "hosts besides loopback that a catalog's settings may send pages, work or a "
        "credential to (a browser engine, a Dask scheduler, an archive)",
    ),
    Variable(
        "EVIDENCE_BATCH_SIZE",
        "a number",
        "",
        "flows",
        "bodies per batch of a refresh (the reliability tests shrink it)",
        internal=True,
    ),
    Variable(
        "GITHUB_TOKEN",
        "text",
        "",
        "flows",
        "the token `evidence propose --open` opens pull requests with (GitHub Actions sets it)",
    ),
    Variable(
        "GITHUB_API_URL",
        "URL",
        "",
        "flows",
        "the forge's REST API (default https://api.github.com; GitHub Enterprise's own)",
    ),
    Variable(
        "GITHUB_REPOSITORY",
        "owner/name",
        "",
        "flows",
        "the repository pull requests are opened on (default: from the origin's URL)",
    ),
    Variable(
        "EVIDENCE_PAUSE_DIR",
        "path",
        "",
        "evidence_base",
        "arms the tests' pause points (evidence_base/pause.py)",
        internal=True,
    ),
)
_BY_NAME = {v.name: v for v in VARIABLES}
# Variables a catalog's `archive.key_env` may name (flows/catalog/operator.py): the
# operator's credentials, read by the name the catalog gives, never typos.
SECRETS = "EVIDENCE_SECRET_"


def get(name: str) -> str | None:
    """The variable's value, None when unset or empty. Only declared names are read."""
    if name not in _BY_NAME:
        raise KeyError(f"{name} is not declared in evidence_base/environment.py")
    value = os.environ.get(name, "")
    return value if value.strip() else None


def unknown() -> list[str]:
    """Each `EVIDENCE_*` variable set here that evidence does not read, with the one it
    most likely meant: `EVIDENCE_DBB (did you mean EVIDENCE_DB?)`."""
    said = []
    tails = {name.removeprefix("EVIDENCE_"): name for name in _BY_NAME}
    for name in sorted(os.environ):
        if name.startswith("EVIDENCE_") and name not in _BY_NAME and not name.startswith(SECRETS):
            near = difflib.get_close_matches(name.removeprefix("EVIDENCE_"), list(tails), n=1)
            said.append(name + (f" (did you mean {tails[near[0]]}?)" if near else ""))
    return said
