"""The one rule for a request's client address: throttles, login lockouts and cache
budgets all ask ``client_address``.

``PROXY_COUNT`` is the number of reverse proxies in front of the application that
each append the address they received the connection from to ``X-Forwarded-For``
(nginx's ``$proxy_add_x_forwarded_for``). With 0 (the default: gunicorn faces the
clients) the header is ignored, since anyone can send it, and the client is the
connection's peer (``REMOTE_ADDR``). With N, the client is the N-th address from the
right of the header, the one the outermost of our proxies saw; whatever a client
wrote to the left of it is ignored. A request that did not come through all N
proxies (a header too short or holding no address there) is known by its peer.
The header is read by django-ipware (python-ipware), which validates the addresses.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from python_ipware import IpWare

HEADERS = ("HTTP_X_FORWARDED_FOR", "X_FORWARDED_FOR")

_readers: dict[int, IpWare] = {}


def _reader(proxies: int) -> IpWare:
    # ipware counts the proxies listed in the header besides the client: our N
    # proxies each append one address, the last of them is our peer and not listed
    reader = _readers.get(proxies)
    if reader is None:
        reader = _readers[proxies] = IpWare(precedence=HEADERS, proxy_count=proxies - 1)
    return reader


def client_address(request: Any) -> str:
    """The address of the client that sent ``request`` (a Django or DRF request),
    following ``PROXY_COUNT``; "" when even the peer is unknown."""
    meta = request.META
    peer = str(meta.get("REMOTE_ADDR") or "")
    proxies = int(getattr(settings, "PROXY_COUNT", 0) or 0)
    if proxies <= 0:
        return peer
    address, _trusted = _reader(proxies).get_client_ip(meta)
    return str(address) if address is not None else peer


#: the longest username a lockout records (an account's is at most 150 characters;
#: django-axes stores 255, and a longer one sent to a login was a database error)
USERNAME_LENGTH = 150


def login_username(request: Any, credentials: dict | None = None) -> str | None:
    """The username a login lockout counts (``AXES_USERNAME_CALLABLE``): the one given
    to the login, cut to ``USERNAME_LENGTH`` characters."""
    if credentials:
        username = credentials.get("username")
    else:
        data = getattr(request, "data", None) or request.POST
        username = data.get("username")
    return username[:USERNAME_LENGTH] if isinstance(username, str) else None
