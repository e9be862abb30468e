"""The prepared statements of the hot plain-SQL selectors (``core.prepared``)."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from core.prepared import prepared_cursor
from federation.models import Game

SQL = "SELECT key FROM federation_game WHERE key = %s"


def statements() -> list[str]:
    """The statements this session has prepared."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.django_db
def test_a_query_is_prepared_once_and_answers_as_djangos(games):
    with connection.cursor() as cursor:
        cursor.execute(SQL, ["divisor"])
        expected = cursor.fetchall()
    for _ in range(3):
        with prepared_cursor() as cursor:
            cursor.execute(SQL, ["divisor"])
            assert cursor.fetchall() == expected == [("divisor",)]
    assert statements().count("SELECT key FROM federation_game WHERE key = $1") == 1


@pytest.mark.django_db
def test_its_queries_are_logged_and_counted(games):
    with CaptureQueriesContext(connection) as captured, prepared_cursor() as cursor:
        cursor.execute(SQL, ["divisor"])
        cursor.execute(SQL, ["divisor"])  # prepared by now
    assert [query["sql"] for query in captured] == [
        "SELECT key FROM federation_game WHERE key = $1"
    ] * 2


@pytest.mark.django_db
def test_it_reads_and_is_rolled_back_with_the_transaction(games):
    with pytest.raises(RuntimeError), transaction.atomic():
        Game.objects.filter(key="divisor").update(name="renamed")
        with prepared_cursor() as cursor:
            cursor.execute("SELECT name FROM federation_game WHERE key = %s", ["divisor"])
            assert cursor.fetchone() == ("renamed",)
        raise RuntimeError
    with prepared_cursor() as cursor:
        cursor.execute("SELECT name FROM federation_game WHERE key = %s", ["divisor"])
        assert cursor.fetchone() != ("renamed",)


@pytest.mark.django_db
def test_off_it_is_djangos_cursor(games, settings):
    settings.DATABASE_PREPARED = False
    before = statements()
    with CaptureQueriesContext(connection) as captured, prepared_cursor() as cursor:
        cursor.execute(SQL, ["divisor"])
        assert cursor.fetchall() == [("divisor",)]
    assert captured[0]["sql"] == "SELECT key FROM federation_game WHERE key = 'divisor'"
    assert statements() == before
