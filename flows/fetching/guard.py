"""Where a fetch may lead: a page on a public host may lead only to public addresses,
those routable on the whole internet, never to this machine, a private network, a
shared or special-purpose range or a multicast group. URLs the user wrote on such an
address are theirs to fetch."""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Callable, Iterable, Iterator
from urllib.parse import urlsplit

Resolver = Callable[[str], list[str]]
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# Ranges that `is_global` lets through in some Python releases but that no public page
# has a reason to reach: IETF protocol assignments and shared address space (carrier NAT,
# cloud metadata, VPN overlays).
NOT_PUBLIC = (
    ipaddress.ip_network("192.0.0.0/24"),
    ipaddress.ip_network("100.64.0.0/10"),
)
NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))


def redirect_allowed(origin: str, target: str, resolve: Resolver) -> bool:
    """A redirect may lead off the public internet only from a URL the user wrote there:
    from a public host, only public targets are allowed."""
    if is_private(urlsplit(origin).hostname, resolve):
        return True
    return not is_private(urlsplit(target).hostname, resolve)


def is_private(host: str | None, resolve: Resolver) -> bool:
    """Whether `host` leads anywhere but the public internet (a host with no address
    known leads nowhere: its fetch will say so)."""
    if not host:
        return False
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        addresses: list[Address] = [ipaddress.ip_address(host)]
    except ValueError:
        addresses = []
        for address in resolve(host):
            try:
                addresses.append(ipaddress.ip_address(address.split("%", 1)[0]))
            except ValueError:
                continue
    return not all(is_public(a) for a in addresses)


def is_public(address: Address) -> bool:
    """Routable on the whole internet, not multicast, and not wrapping an address that
    is not (IPv4-mapped, 6to4, Teredo, NAT64)."""
    return all(
        a.is_global and not a.is_multicast and not any(a in n for n in NOT_PUBLIC)
        for a in _unwrapped(address)
    )


def _unwrapped(address: Address) -> Iterator[Address]:
    """The address and every IPv4 address it carries."""
    yield address
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            yield address.ipv4_mapped
        if address.sixtofour is not None:
            yield address.sixtofour
        if address.teredo is not None:
            yield from address.teredo
        if any(address in n for n in NAT64):
            yield ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)


async def resolve_hosts(hosts: Iterable[str | None]) -> Resolver:
    """A resolver over these hosts' addresses, looked up now (an unresolvable host has
    none: its fetch will say so)."""
    loop = asyncio.get_running_loop()
    found: dict[str, list[str]] = {}
    for host in {h for h in hosts if h}:
        try:
            infos = await loop.getaddrinfo(host, None)
        except (OSError, UnicodeError):
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

        if t.netloc.lower() in self.public_origins:
            return True
        if o.netloc.lower() in self.public_origins:
            return not is_private(t.hostname, resolve)
        return redirect_allowed(origin, target, resolve)
