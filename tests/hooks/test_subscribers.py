"""The active endpoints kept in memory (``hooks.subscribers``): every write of an
endpoint is seen by the next event, whichever way it was written."""

from __future__ import annotations

import datetime as dt

import pytest

from hooks.delivery import _disable, event_store
from hooks.events import NAMES
from hooks.models import Delivery
from hooks.services import endpoint_create, endpoint_delete, endpoint_update
from hooks.subscribers import active_endpoints

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 11, 20, 18, tzinfo=dt.UTC)


def stored(club_id: int | None) -> int:
    """How many deliveries a match of ``club_id`` recorded now gets."""
    return len(
        event_store(type="match.recorded", occurred_at=NOW, club_id=club_id, data=lambda: {})
    )


def test_each_write_of_an_endpoint_is_seen_by_the_next_event(
    club, organiser, federation_admin, django_assert_num_queries
):
    assert stored(club.pk) == 0
    first = endpoint_create(url="http://127.0.0.1:9/a", events=NAMES, club=club, by=organiser)
    assert stored(club.pk) == 1
    with django_assert_num_queries(0):  # unchanged: from memory
        assert [e.pk for e in active_endpoints()] == [first.pk]
    endpoint_update(endpoint=first, by=organiser, events=["match.withdrawn"])
    assert stored(club.pk) == 0  # no longer subscribed
    endpoint_update(endpoint=first, by=organiser, events=NAMES)
    second = endpoint_create(
        url="http://127.0.0.1:9/b", events=NAMES, club=None, by=federation_admin
    )
    assert stored(club.pk) == 2 and stored(None) == 2
    _disable(first, NOW)  # a queryset update, as three days of failures do
    assert stored(club.pk) == 1
    endpoint_delete(endpoint=second, by=federation_admin)
    assert stored(club.pk) == 0
    assert Delivery.objects.count() == 3  # 1 + 2 + 2 + 1 stored, the 3 of the deleted one gone
