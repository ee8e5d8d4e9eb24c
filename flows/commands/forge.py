"""A forge's pull requests over its REST API (GitHub's, through httpx): find the one of a
branch, open it, update it in place. The API base, repository and token come as GitHub
Actions sets them (GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_TOKEN), so that GitHub
Enterprise, and a stand-in server in the tests, answer the same calls."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import httpx

from evidence_base import environment
from evidence_base.errors import EvidenceError

DEFAULT_API = "https://api.github.com"
TIMEOUT_S = 30
# owner/name from an origin's URL: git@host:owner/name(.git), https://host/owner/name(.git)
_REMOTE = re.compile(r"[:/](?P<repo>[\w.-]+/[\w.-]+?)(?:\.git)?/?$")


@dataclass(frozen=True, slots=True)
class PullRequest:
    number: int
    url: str
    state: str  # open | closed
    merged: bool
    head_sha: str


def repository_from(origin_url: str | None) -> str:
    """GITHUB_REPOSITORY, else owner/name from the origin's URL; one line when neither."""
    named = environment.get("GITHUB_REPOSITORY")
    if named:
        if not re.fullmatch(r"[\w.-]+/[\w.-]+", named):
            raise EvidenceError(f"GITHUB_REPOSITORY={named!r}: give owner/name")
        return named
    m = _REMOTE.search(origin_url or "")
    if m is None:
        raise EvidenceError(
            "no repository to open the pull request on: set GITHUB_REPOSITORY (owner/name) "
            "or give the catalog's repository an origin on the forge"
        )
    return m["repo"]


class GitHub:
    """The pull-request calls `evidence propose --open` makes."""

    def __init__(self, repository: str) -> None:
        token = environment.get("GITHUB_TOKEN")
        if not token:
            raise EvidenceError("--open needs GITHUB_TOKEN: a token that may open pull requests")
        self.repository = repository
        self.owner = repository.split("/")[0]
        self.client = httpx.Client(
            base_url=(environment.get("GITHUB_API_URL") or DEFAULT_API).rstrip("/"),
            headers={
                "Authorization": f"Bearer {token}",
                "Accept": "application/vnd.github+json",
                "X-GitHub-Api-Version": "2022-11-28",
                "User-Agent": "evidence-pipeline",
            },
            timeout=TIMEOUT_S,
            follow_redirects=False,
        )

    def __enter__(self) -> GitHub:
        return self

    def __exit__(self, *_: object) -> None:
        self.client.close()

    def pulls_of(self, branch: str) -> list[PullRequest]:
        """Every pull request from the branch, newest first."""
        found = self._call(
            "GET",
            f"/repos/{self.repository}/pulls",
            params={"head": f"{self.owner}:{branch}", "state": "all", "per_page": 100},
        )
        pulls = [_pull(p) for p in found if isinstance(p, dict)] if isinstance(found, list) else []
        return sorted(pulls, key=lambda p: p.number, reverse=True)

    def open(self, branch: str, base: str, title: str, body: str) -> PullRequest:
        return _pull(
            self._call(
                "POST",
                f"/repos/{self.repository}/pulls",
                json={"title": title, "head": branch, "base": base, "body": body},
            )
        )

    def update(self, number: int, title: str, body: str) -> PullRequest:
        return _pull(
            self._call(
                "PATCH",
                f"/repos/{self.repository}/pulls/{number}",
                json={"title": title, "body": body},
            )
        )

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        try:
            answer = self.client.request(method, path, **kwargs)
        except httpx.HTTPError as e:
            raise EvidenceError(f"the forge did not answer {method} {path}: {e}") from None
        if answer.status_code >= 300:
            try:
                said = answer.json().get("message", "")
            except ValueError:
                said = ""
            said = " ".join(str(said).split())[:200]
            raise EvidenceError(
                f"the forge answered {answer.status_code} to {method} {path}"
                + (f": {said}" if said else "")
            )
        try:
            return answer.json()
        except ValueError:
            raise EvidenceError(f"the forge answered {method} {path} with no JSON") from None


def _pull(data: Any) -> PullRequest:
    try:
        return PullRequest(
            number=int(data["number"]),
            url=str(data.get("html_url") or data.get("url") or ""),
            state=str(data.get("state") or "open"),
            merged=bool(data.get("merged_at") or data.get("merged")),
            head_sha=str((data.get("head") or {}).get("sha") or ""),
        )
    except (KeyError, TypeError, ValueError):
        raise EvidenceError("the forge answered with a pull request it did not describe") from None
