"""Where a fetch may lead: a page on a public host may not send us to this machine or
a private network (loopback, private and link-local addresses). URLs the user wrote on
such an address are theirs to fetch."""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

Resolver = Callable[[str], list[str]]


def redirect_allowed(origin: str, target: str, resolve: Resolver) -> bool:
    """A redirect may lead to this machine or a private network only from a URL the user
    wrote on one: from a public host, loopback, private and link-local targets are refused."""
    if is_private(urlsplit(origin).hostname, resolve):
        return True
    return not is_private(urlsplit(target).hostname, resolve)


def is_private(host: str | None, resolve: Resolver) -> bool:
    if not host:
        return False
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        addresses = [ipaddress.ip_address(host)]
    except ValueError:
        addresses = []
        for address in resolve(host):
            try:
                addresses.append(ipaddress.ip_address(address))
            except ValueError:
                continue
    return any(
        a.is_private or a.is_loopback or a.is_link_local or a.is_reserved or a.is_unspecified
        for a in addresses
    )


async def resolve_hosts(hosts: Iterable[str | None]) -> Resolver:
    """A resolver over these hosts' addresses, looked up now (an unresolvable host has
    none: its fetch will say so)."""
    loop = asyncio.get_running_loop()
    found: dict[str, list[str]] = {}
    for host in {h for h in hosts if h}:
        try:
            infos = await loop.getaddrinfo(host, None)
        except OSError:
            infos = []
        found[host] = [str(info[4][0]) for info in infos]
    return lambda host: found.get(host, [])


class AddressGuard:
    """`redirect_allowed` for many requests, each host's addresses looked up once.

    `public_origins` ("host:port") count as public whatever their address: the tests
    use it to stand a page on 127.0.0.1 for a public one."""

    def __init__(self, public_origins: Iterable[str] = ()) -> None:
        self.public_origins = frozenset(public_origins)
        self._addresses: dict[str, list[str]] = {}

    def local_origin(self, origin: str) -> bool:
        """Whether a page from `origin` is one the user wrote on this machine or a private
        network (so that it may reach them), from what is known of its address."""
        o = urlsplit(origin)
        if o.netloc.lower() in self.public_origins:
            return False
        return is_private(o.hostname, lambda host: self._addresses.get(host, []))

    async def allows(self, origin: str, target: str) -> bool:
        """May a page loaded from `origin` make a request to `target`?"""
        o, t = urlsplit(origin), urlsplit(target)
        if t.netloc.lower() == o.netloc.lower():
            return True  # the page's own host and port: where the user sent us
        missing = [h for h in (o.hostname, t.hostname) if h and h not in self._addresses]
        if missing:
            found = await resolve_hosts(missing)
            self._addresses.update({h: found(h) for h in missing})

        def resolve(host: str) -> list[str]:
            return self._addresses.get(host, [])

        if o.netloc.lower() in self.public_origins:
            return not is_private(t.hostname, resolve)
        return redirect_allowed(origin, target, resolve)
