"""Django's PostgreSQL backend with a health check that needs no round trip when the
connection is quiet.

Words used here:

* **health check** — what ``CONN_HEALTH_CHECKS`` asks of a persistent connection
  before the first query of a request: Django's backend sends ``SELECT 1`` and
  reconnects if that fails, so a request after a PostgreSQL restart gets a fresh
  connection instead of an error.
* **quiet connection** — one that is open, idle (no transaction), and whose socket has
  nothing to read: the server has neither ended it nor sent anything since its last
  answer. A server that ends a connection (a restart, ``pg_terminate_backend``, an
  idle timeout) sends its farewell or closes the socket, and either makes the socket
  readable; so a quiet connection would answer ``SELECT 1``, and the round trip —
  about a tenth of the machine time of a cold API request through gunicorn
  (docs/performance.md, "What a request costs through gunicorn") — is skipped.
  Anything else (something to read, a transaction open, a broken connection) gets
  Django's own check, unchanged.
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
from django.db.backends.postgresql import base
from psycopg import pq

#: what a socket with something to read (or ended, or in error) reports to ``poll``
_READABLE = select.POLLIN | select.POLLPRI


def quiet(connection: psycopg.Connection[Any]) -> bool:
    """Is this psycopg connection open, idle, and without anything sent to it since
    its last answer?"""
    try:
        info = connection.info
        if info.status != pq.ConnStatus.OK:
            return False
        if info.transaction_status != pq.TransactionStatus.IDLE:
            return False
        poller = select.poll()
        poller.register(connection.fileno(), _READABLE)
        return not poller.poll(0)
    except Exception:  # a closed or broken connection: Django's check decides
        return False


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's PostgreSQL connection; its health check skips the ``SELECT 1`` of a
    quiet connection."""

    # Django's, set per connection (not in its type stubs)
    health_check_enabled: bool
    health_check_done: bool

    def close_if_health_check_failed(self) -> None:
        if (
            self.connection is not None
            and self.health_check_enabled
            and not self.health_check_done
            and quiet(self.connection)
        ):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()
