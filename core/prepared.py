"""Prepared statements for the few hot plain-SQL selectors.

Django's PostgreSQL backend binds parameters on the client (psycopg's
``ClientCursor``): every query is sent as text and PostgreSQL plans it anew. For the
cold pages' queries (a player's matches, their entries, a match, a ranking page) the
planning cost as much as the execution, about 0.5 to 1 ms each (``docs/performance.md``,
"PostgreSQL: planning and plans"). :func:`prepared_cursor` gives a cursor of the same
connection (so of its transaction) that binds on the server and prepares each of its
queries once per connection: the connection is kept between requests
(``CONN_MAX_AGE``), so PostgreSQL plans a selector's query once per thread, not once
per request.

Prepared statements live in a PostgreSQL session: behind a pooler that hands each
transaction another session (pgbouncer's ``pool_mode = transaction`` before 1.21) set
``DATABASE_PREPARED=0``, and these selectors use Django's cursor. Elsewhere (SQLite)
they always do.
"""

from __future__ import annotations

from typing import Any

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.utils import CursorWrapper


def prepared_cursor() -> CursorWrapper:
    """A cursor of the default connection whose queries PostgreSQL prepares, once per
    connection; Django's cursor where prepared statements are off (not PostgreSQL, or
    ``DATABASE_PREPARED=0``). Use it as ``connection.cursor()``: a context manager, its
    queries logged and counted as Django's."""
    db = connections[DEFAULT_DB_ALIAS]  # the ``connection`` proxy, looked up once
    if db.vendor != "postgresql" or not settings.DATABASE_PREPARED:
        return db.cursor()
    db.close_if_health_check_failed()
    db.ensure_connection()
    raw = db.connection
    if raw.prepare_threshold is None:
        # Django turns psycopg's automatic preparing off (its own cursors never
        # prepare); this cursor asks for it query by query (``prepare=True``)
        raw.prepare_threshold = 0
    db.validate_thread_sharing()
    with db.wrap_database_errors:
        cursor: Any = PreparingCursor(raw)
    if db.queries_logged:
        return db.make_debug_cursor(cursor)
    return db.make_cursor(cursor)


class PreparingCursor(psycopg.Cursor[Any]):
    """psycopg's server-binding cursor, preparing every query it runs."""

    def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
        return super().execute(query, params, prepare=True, **kwargs)

    def _send_query_prepared(self, name: bytes, pgq: Any, **kwargs: Any) -> None:
        # psycopg keeps the query it sent (``_query``, which Django logs and
        # ``CaptureQueriesContext`` counts) for an unprepared query only: here too,
        # its text (with ``$1``... for the parameters)
        self._query = pgq
        super()._send_query_prepared(name, pgq, **kwargs)
