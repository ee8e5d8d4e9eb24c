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
