"""The PostgreSQL backend's health check (``core.postgresql``): no round trip on a
quiet connection, and a connection the server ended is still replaced before a
request's first query."""

from __future__ import annotations

import time
from collections.abc import Iterator
from unittest import mock

import psycopg
import pytest
from django.db import connections

from core.postgresql.base import DatabaseWrapper, quiet


@pytest.fixture
def wrapper(db) -> Iterator[DatabaseWrapper]:
    """A connection of its own, outside the test's transaction, as a gunicorn thread
    holds one (``CONN_MAX_AGE``, ``CONN_HEALTH_CHECKS``)."""
    own = connections.create_connection("default")
    assert isinstance(own, DatabaseWrapper)
    own.settings_dict["CONN_HEALTH_CHECKS"] = True
    own.ensure_connection()
    yield own
    own.close()


def next_request(wrapper: DatabaseWrapper) -> None:
    """What Django does at a request's start: the health check is due again."""
    wrapper.close_if_unusable_or_obsolete()
    assert not wrapper.health_check_done


def backend_pid(wrapper: DatabaseWrapper) -> int:
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def test_the_settings_name_this_backend():
    from django.conf import settings

    assert settings.DATABASES["default"]["ENGINE"] == "core.postgresql"


def test_a_quiet_connection_is_not_sent_select_1(wrapper):
    pid = backend_pid(wrapper)
    next_request(wrapper)
    assert quiet(wrapper.connection)
    with mock.patch.object(DatabaseWrapper, "is_usable", side_effect=AssertionError):
        assert backend_pid(wrapper) == pid
    assert wrapper.health_check_done


def test_a_connection_in_a_transaction_gets_djangos_check(wrapper):
    wrapper.connection.execute("BEGIN")
    assert not quiet(wrapper.connection)
    next_request(wrapper)
    with mock.patch.object(DatabaseWrapper, "is_usable", return_value=True) as checked:
        wrapper.close_if_health_check_failed()
    assert checked.call_count == 1
    wrapper.connection.execute("ROLLBACK")


def test_a_connection_the_server_ended_is_replaced_before_the_first_query(wrapper):
    pid = backend_pid(wrapper)
    params = wrapper.get_connection_params()
    with psycopg.connect(
        dbname=params["dbname"],
        user=params.get("user") or None,
        host=params.get("host") or None,
        port=params.get("port") or None,
        autocommit=True,
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    deadline = time.monotonic() + 10
    while quiet(wrapper.connection) and time.monotonic() < deadline:
        time.sleep(0.01)  # the server's farewell reaches the socket
    assert not quiet(wrapper.connection)
    next_request(wrapper)
    assert backend_pid(wrapper) != pid  # reconnected, no error
