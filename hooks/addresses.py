"""Where a webhook may go: an https URL whose host resolves only to public addresses.

Without this check anyone allowed to register an endpoint could make the service POST
to its own network (the database, the cache, a cloud's metadata address). The URL is
checked at registration, and the host is resolved again at every attempt (a name may
point elsewhere since): the attempt connects to an address checked here, never to a
name resolved a second time. ``WEBHOOK_ALLOW_PRIVATE=1`` (the quick start, the tests)
allows plain http and private or loopback addresses.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import SplitResult, urlsplit

from django.conf import settings

from hooks.errors import HookError

DEFAULT_PORTS = {"http": 80, "https": 443}


def allow_private() -> bool:
    return bool(settings.WEBHOOK_ALLOW_PRIVATE)


def url_parts(url: str) -> SplitResult:
    """The URL's parts once its form is acceptable: https (or http when private
    addresses are allowed), a host, no user or password; ``HookError`` otherwise."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a port out of range
    except ValueError as exc:
        raise HookError("webhook-url-invalid", url=url[:200]) from exc
    schemes = ("https", "http") if allow_private() else ("https",)
    if parts.scheme not in schemes:
        raise HookError("webhook-url-scheme")
    if not parts.hostname or parts.username is not None or parts.password is not None:
        raise HookError("webhook-url-invalid", url=url[:200])
    return parts


def is_public(address: str) -> bool:
    """Whether ``address`` is a global unicast address (IPv4 inside IPv6 judged as IPv4)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to, each of them checked; ``HookError`` when it
    does not resolve or when one of them is private (any one: a name with a public and
    a private address could be made to use the private one)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise HookError("webhook-url-unresolvable", host=host) from exc
    addresses = list(dict.fromkeys(str(info[4][0]) for info in found))
    if not addresses:
        raise HookError("webhook-url-unresolvable", host=host)
    if not allow_private():
        for address in addresses:
            if not is_public(address):
                raise HookError("webhook-url-private", host=host, address=address)
    return addresses


def url_check(url: str) -> None:
    """Refuse a URL no webhook may be sent to (form, scheme, its host's addresses)."""
    parts = url_parts(url)
    if not allow_private():
        resolve(str(parts.hostname), parts.port or DEFAULT_PORTS[parts.scheme])
