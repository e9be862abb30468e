"""Two workers claim one delivery at the same moment: one attempt. The claim is a plain
conditional ``UPDATE`` on the delivery's row, which PostgreSQL checks again once the
first claim commits. Negative control: the same conditions through a join (Django
writes ``UPDATE ... WHERE id IN (SELECT ... JOIN ...)``) let the second claim through
too, because the subquery's rows are not read again."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection, transaction
from django.db.models import Q

from hooks.delivery import LEASE, _claim, event_store
from hooks.events import NAMES
from hooks.models import Delivery
from hooks.services import endpoint_create

pytestmark = pytest.mark.django_db(transaction=True)


def _waiting_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


def race(claim: Callable[[], bool]) -> dict[str, bool]:
    """The first claim holds its transaction open until the second waits on the row."""
    results: dict[str, bool] = {}
    claimed, release = threading.Event(), threading.Event()

    def first() -> None:
        with transaction.atomic():
            results["first"] = claim()
            claimed.set()
            release.wait(30)
        connection.close()

    def second() -> None:
        claimed.wait(30)
        results["second"] = claim()
        connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 30
    while not _waiting_on_a_lock():
        assert time.monotonic() < deadline, "the second claim never waited"
        time.sleep(0.01)
    release.set()
    for thread in threads:
        thread.join(30)
    return results


@pytest.fixture
def delivery(club, organiser):
    endpoint_create(url="http://127.0.0.1:9/hook", events=NAMES, club=club, by=organiser)
    (pk,) = event_store(
        type="match.recorded", occurred_at=dt.datetime.now(dt.UTC), club_id=club.pk, data=dict
    )
    return Delivery.objects.get(pk=pk)


def test_two_claims_at_once_make_one_attempt(delivery):
    now = dt.datetime.now(dt.UTC)
    assert race(lambda: _claim(delivery.pk, now)) == {"first": True, "second": False}


def test_negative_control_a_claim_through_a_join_is_taken_twice(delivery):
    now = dt.datetime.now(dt.UTC)

    def joined() -> bool:
        rows = Delivery.objects.filter(
            pk=delivery.pk, status="pending", endpoint__active=True
        ).filter(Q(locked_until__isnull=True) | Q(locked_until__lt=now))
        return rows.update(locked_until=now + LEASE) == 1

    assert race(joined) == {"first": True, "second": True}
