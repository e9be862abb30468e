"""One POST of a webhook: to an address checked by ``hooks.addresses``, at most
``TIMEOUT`` seconds from the first byte sent to the last byte read, no redirect
followed (a 3xx is an answer that is not a 2xx, like any other).

The connection is made to the checked address while the request and TLS name the
host (SNI and certificate checks use the host name, as for any https client).
"""

from __future__ import annotations

import http.client
import socket
import ssl
import threading
import time
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from hooks.addresses import DEFAULT_PORTS, resolve, url_parts
from hooks.errors import HookError

#: seconds an attempt may last
TIMEOUT = 10.0
#: bytes of the answer kept (to show on the deliveries' page)
KEPT = 500
USER_AGENT = "Quotient-Webhooks/1"


@dataclass
class Answer:
    """What an attempt got: the answer's status, or an error code and its params."""

    status: int | None = None
    error: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    body: str = ""
    duration_ms: int = 0

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def _connection(scheme: str, host: str, port: int, address: str, timeout: float):
    cls = http.client.HTTPSConnection if scheme == "https" else http.client.HTTPConnection
    kwargs: dict[str, Any] = {"timeout": timeout}
    if scheme == "https":
        kwargs["context"] = ssl.create_default_context()
    connection = cls(host, port, **kwargs)

    def pinned(target: tuple[str, int], *args: Any, **kw: Any) -> socket.socket:
        return socket.create_connection((address, target[1]), *args, **kw)

    connection._create_connection = pinned  # type: ignore[attr-defined]
    return connection


def post(url: str, body: bytes, headers: dict[str, str], *, timeout: float = TIMEOUT) -> Answer:
    """POST ``body`` to ``url``; never raises for what the network does."""
    started = time.monotonic()
    answer = _post(url, body, headers, timeout, started)
    answer.duration_ms = int((time.monotonic() - started) * 1000)
    return answer


def _post(url: str, body: bytes, headers: dict[str, str], timeout: float, started: float) -> Answer:
    try:
        parts = url_parts(url)
        host, port = str(parts.hostname), parts.port or DEFAULT_PORTS[parts.scheme]
        address = resolve(host, port)[0]
    except HookError as exc:
        return Answer(error=exc.code, params=exc.params)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    sent = {"Content-Type": "application/json", "User-Agent": USER_AGENT, **headers}
    connection = _connection(parts.scheme, host, port, address, timeout)
    watchdog = _Watchdog(connection, started + timeout)
    try:
        connection.request("POST", path, body=body, headers=sent)
        response = connection.getresponse()
        return Answer(status=response.status, body=_read(response, started + timeout))
    except (OSError, http.client.HTTPException) as exc:
        return _failure(
            exc, timed_out=watchdog.fired or isinstance(exc, TimeoutError), after=timeout
        )
    finally:
        watchdog.cancel()
        connection.close()


def _failure(exc: Exception, *, timed_out: bool, after: float) -> Answer:
    if timed_out:
        return Answer(error="webhook-timeout", params={"seconds": int(after)})
    code = "webhook-tls" if isinstance(exc, ssl.SSLError) else "webhook-connection"
    return Answer(error=code, params={"reason": str(exc)[:150] or type(exc).__name__})


class _Watchdog:
    """Cuts the connection at ``deadline``: the socket's own timeout bounds each read,
    not an answer sent a byte at a time."""

    def __init__(self, connection: http.client.HTTPConnection, deadline: float) -> None:
        self.connection = connection
        self.fired = False
        self.timer = threading.Timer(max(deadline - time.monotonic(), 0), self._cut)
        self.timer.daemon = True
        self.timer.start()

    def _cut(self) -> None:
        self.fired = True
        sock = self.connection.sock
        if sock is not None:
            with suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def cancel(self) -> None:
        self.timer.cancel()


def _read(response: http.client.HTTPResponse, deadline: float) -> str:
    """The answer's first bytes, read until ``deadline`` at the latest."""
    kept = b""
    while len(kept) < KEPT and time.monotonic() < deadline:
        chunk = response.read1(KEPT - len(kept))
        if not chunk:
            break
        kept += chunk
    return kept.decode("utf-8", "replace")
