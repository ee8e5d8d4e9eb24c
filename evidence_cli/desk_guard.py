"""Who the desk answers, and which requests may change the catalog (see evidence_cli/desk.py).

- a request whose Host is not one the desk serves is refused (DNS rebinding): the bound
  address, loopback names on a loopback one, this machine's names on a wildcard one, and
  the names `--public-url` and `--allow-host` give;
- actions are POSTs carrying the page's token, which is also a SameSite=Strict cookie
  named for the port (a cross-site request has neither), and an Origin other than ours
  is refused; their bodies are small and come within BODY_WAIT_S;
- with a token (`--token`, `--token-file`, EVIDENCE_UI_TOKEN) every request carries it:
  `?token=` once, which sets a cookie, or `Authorization: Bearer`; tokens of any text
  are compared in constant time, never a crash.
"""

from __future__ import annotations

import asyncio
import hmac
import re
import socket
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from evidence_base.errors import EvidenceError
from flows.catalog import is_loopback

MAX_FORM = 256 << 10  # a desk form: a few ids, a token, a quote or a record's file
BODY_WAIT_S = 10.0  # a form's body arrives within this, or the form is empty (refused)
COOKIE = "evidence_desk"  # the page token's cookie
TOKEN_COOKIE = "evidence_token"  # the --token's, once given as ?token=


@dataclass(frozen=True, slots=True)
class DeskConfig:
    config_dir: Path
    db: Path
    host: str
    port: int
    token: str | None
    allow_hosts: tuple[str, ...] = ()  # host names (with a port, or any) browsers may send
    public_url: str | None = None  # the address browsers use, printed


_NAME = re.compile(r"^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$")
WILDCARDS = frozenset({"0.0.0.0", "::", "[::]"})


def allowed_hosts(names: list[str], public_url: str | None) -> tuple[str, ...]:
    """--allow-host names and --public-url's host, checked: one line for a bad one."""
    hosts = list(names)
    if public_url is not None:
        parts = urlsplit(public_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise EvidenceError(f"--public-url {public_url!r}: give an http(s) URL with a host")
        hosts.append(parts.netloc.rpartition("@")[2])
    for name in hosts:
        if not _NAME.match(name):
            raise EvidenceError(f"--allow-host {name!r}: give a host name, optionally :PORT")
    return tuple(h.lower() for h in hosts)


def served_hosts(cfg: DeskConfig) -> set[str]:
    """The Host headers the desk answers: the address it serves, loopback names on a
    loopback one, this machine's names on a wildcard one, and the names allowed."""
    port = cfg.port
    hosts = {f"[{cfg.host}]:{port}" if ":" in cfg.host else f"{cfg.host}:{port}"}
    if is_loopback(cfg.host):
        hosts |= {f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}"}
    if cfg.host in WILDCARDS:
        hosts |= {f"{socket.gethostname().lower()}:{port}", f"{socket.getfqdn().lower()}:{port}"}
    for name in cfg.allow_hosts:
        # a name with its port, or a bare one: behind a proxy on its default port
        hosts |= {name} if _has_port(name) else {name, f"{name}:{port}"}
    return hosts


def _has_port(name: str) -> bool:
    return name.rpartition(":")[2].isdigit() and not name.endswith("]")


async def read_form(request: Request) -> dict[str, str]:
    """The desk's forms are URL-encoded and small; anything else is an empty form (and so
    refused for want of its token)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        return {}
    try:  # a client that sends its body a byte a minute holds nothing for long
        body = await asyncio.wait_for(_body(request), BODY_WAIT_S)
    except TimeoutError:
        return {}
    if body is None:
        return {}
    try:
        fields = parse_qs(
            body.decode("utf-8", "replace"), keep_blank_values=True, max_num_fields=20
        )
    except ValueError:
        return {}
    return {k: v[0] for k, v in fields.items()}


async def _body(request: Request) -> bytes | None:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM:
            return None
    return body


def same(given: object, secret: str) -> bool:
    """Constant-time equality of a token given (any text: a header, a cookie, a form) and
    the secret, compared as UTF-8 bytes (hmac refuses text that is not ASCII)."""
    text = str(given or "")
    return bool(text) and hmac.compare_digest(
        text.encode("utf-8", "surrogatepass"), secret.encode("utf-8", "surrogatepass")
    )


def cookie_names(port: int) -> tuple[str, str]:
    """The page token's cookie and the --token's, named for the port: a browser sends a
    host's cookies to every port of it, and each desk keeps its own."""
    return f"{COOKIE}_{port}", f"{TOKEN_COOKIE}_{port}"


def forged(
    request: Request, form_token: object, page_token: str, hosts: set[str]
) -> Response | None:
    """A POST must come from our own page: its token in the form and in its cookie, and
    no Origin but ours."""
    origin = request.headers.get("origin")
    if origin is not None and urlsplit(origin).netloc.lower() not in hosts:
        return PlainTextResponse("refused: a request from another site", status_code=403)
    cookie = request.cookies.get(cookie_names(_port(request))[0], "")
    if not (same(form_token, page_token) and same(cookie, page_token)):
        return PlainTextResponse(
            "refused: no token of this desk's page (reload the page and try again)",
            status_code=403,
        )
    return None


def _port(request: Request) -> int:
    """The port the desk serves this request on (the socket's, whatever the Host says)."""
    server = request.scope.get("server") or (None, 0)
    return int(server[1] or 0)


class Guard:
    """Every request: the served Host only (DNS rebinding), and the token where one is
    set (`?token=` once sets its cookie, or `Authorization: Bearer`). The desk's
    middleware, outside everything else."""

    def __init__(self, app: ASGIApp, hosts: set[str], token: str | None) -> None:
        self.app = app
        self.hosts = hosts
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        if request.headers.get("host", "").lower() not in self.hosts:
            response: Response = PlainTextResponse(
                "refused: not the host this desk serves", status_code=400
            )
            await response(scope, receive, send)
            return
        if self.token is not None:
            name = cookie_names(_port(request))[1]
            if same(request.query_params.get("token"), self.token):
                redirect = RedirectResponse(request.url.remove_query_params("token"), 303)
                redirect.set_cookie(name, self.token, httponly=True, samesite="strict")
                await redirect(scope, receive, send)
                return
            bearer = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
            if not (same(bearer, self.token) or same(request.cookies.get(name), self.token)):
                response = PlainTextResponse(
                    "this desk needs its token: open the URL it printed (?token=...)",
                    status_code=401,
                    headers={"WWW-Authenticate": "Bearer"},
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
