"""What only whoever runs evidence may name: a program to run, a remote engine to trust
with pages or work, a credential to send.

A catalog is someone else's code (accepted by pull request, cloned from others), so its
settings.yaml names these only within bounds, and a value out of bounds is ignored and
said (`evidence check` lists each, and every command says it on stderr):
- `fetch.browser_path`: an absolute path outside the catalog's repository, a file no
  other account can write;
- `fetch.browser_endpoint`, `dask_address`: a loopback host, or one the operator lists
  in EVIDENCE_ALLOW_HOSTS;
- `archive.key_env`: a variable named `EVIDENCE_SECRET_...` (never a CI's own tokens), sent only
  to an archive on https (or loopback) whose host is web.archive.org, loopback, or listed.
Whoever runs evidence names any of them without bounds through the environment
(evidence_base/environment.py: EVIDENCE_BROWSER_PATH, EVIDENCE_BROWSER_ENDPOINT,
EVIDENCE_DASK_ADDRESS, EVIDENCE_ARCHIVE_KEY_ENV), which wins over the file.
"""

from __future__ import annotations

import ipaddress
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from evidence_base import environment
from flows.catalog.models import Settings, check_endpoint

ARCHIVE_HOSTS = frozenset({"web.archive.org"})  # where a catalog's archive key may go


@dataclass(frozen=True, slots=True)
class Ignored:
    """A key of settings.yaml out of bounds: what it said and why it is not taken."""

    key: str  # dotted: fetch.browser_path
    value: str
    why: str

    def line(self) -> str:
        return f"{self.key} {self.value!r} ignored: {self.why}"


def is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def allowed_hosts() -> frozenset[str]:
    return frozenset((environment.get("EVIDENCE_ALLOW_HOSTS") or "").lower().split())


def _reachable(url: str, extra: frozenset[str] = frozenset()) -> bool:
    host = (urlsplit(url).hostname or "").lower()
    return bool(host) and (is_loopback(host) or host in allowed_hosts() | extra)


def operator_settings(settings: Settings, config_dir: Path) -> tuple[Settings, tuple[Ignored, ...]]:
    """The settings in force: the file's within bounds, the operator's environment over
    them; and what of the file was ignored."""
    ignored: list[Ignored] = []
    fetch, archive = settings.fetch, settings.archive
    updates: dict[str, object] = {}

    path = environment.get("EVIDENCE_BROWSER_PATH")
    if path is None and fetch.browser_path is not None:
        problem = _program_problem(fetch.browser_path, config_dir)
        if problem:
            ignored.append(Ignored("fetch.browser_path", fetch.browser_path, problem))
        else:
            path = fetch.browser_path

    named = environment.get("EVIDENCE_BROWSER_ENDPOINT")
    endpoints: tuple[str, ...] | None
    if named is not None:
        endpoints = tuple(check_endpoint(u) for u in named.split())
    else:
        endpoints = tuple(u for u in fetch.browser_endpoint or () if _reachable(u)) or None
        for u in fetch.browser_endpoint or ():
            if not _reachable(u):
                ignored.append(Ignored("fetch.browser_endpoint", u, _REMOTE))
    updates["fetch"] = fetch.model_copy(
        update={"browser_path": path, "browser_endpoint": endpoints}
    )

    dask = environment.get("EVIDENCE_DASK_ADDRESS")
    if dask is None and settings.dask_address is not None:
        if _reachable(settings.dask_address):
            dask = settings.dask_address
        else:
            ignored.append(Ignored("dask_address", settings.dask_address, _REMOTE))
    updates["dask_address"] = dask

    key_env = environment.get("EVIDENCE_ARCHIVE_KEY_ENV")
    if key_env is None and archive.key_env is not None:
        problem = _key_problem(archive.key_env, archive.save)
        if problem:
            ignored.append(Ignored("archive.key_env", archive.key_env, problem))
        else:
            key_env = archive.key_env
    updates["archive"] = archive.model_copy(update={"key_env": key_env})
    return settings.model_copy(update=updates), tuple(ignored)


_REMOTE = (
    "a catalog may send pages or work to a loopback host only, or to one listed in "
    "EVIDENCE_ALLOW_HOSTS by whoever runs evidence"
)


def _program_problem(path: str, config_dir: Path) -> str | None:
    """Why a catalog may not name this program, or None."""
    given = Path(path)
    if not given.is_absolute():
        return "a catalog names a browser by an absolute path only (or set EVIDENCE_BROWSER_PATH)"
    real = given.resolve()
    for home in {config_dir.resolve(), _work_tree(config_dir)} - {None}:
        if home is not None and real.is_relative_to(home):
            return (
                "a program inside the catalog's own repository is never run (set "
                "EVIDENCE_BROWSER_PATH to run it)"
            )
    try:
        info = real.stat()
    except OSError:
        return None  # not there: said when a browser is wanted
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) or info.st_uid not in (0, os.getuid()):
        return "a program other accounts can write is never run (set EVIDENCE_BROWSER_PATH)"
    return None


def _work_tree(config_dir: Path) -> Path | None:
    """The git work tree holding the catalog, if any (its files came with the catalog)."""
    for folder in (config_dir.resolve(), *config_dir.resolve().parents):
        if (folder / ".git").exists():
            return folder
    return None


def _key_problem(key_env: str, save: str | None) -> str | None:
    if not key_env.startswith(environment.SECRETS):
        return (
            f"a catalog may name a credential's variable only as {environment.SECRETS}... "
            "(set EVIDENCE_ARCHIVE_KEY_ENV to name another)"
        )
    if save is None:
        return None
    parts = urlsplit(save)
    if parts.scheme != "https" and not is_loopback(parts.hostname or ""):
        return "a credential is sent over https only"
    if not _reachable(save, ARCHIVE_HOSTS):
        return (
            "a catalog may send its archive key to web.archive.org, a loopback host, or a "
            "host listed in EVIDENCE_ALLOW_HOSTS only"
        )
    return None
