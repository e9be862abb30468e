import datetime as dt

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from federation.models import Game
from scoring.models import Match
from tests.factories import ClubFactory


def _match(**overrides):
    values = {
        "game": Game.objects.get(key="divisor"),
        "club": ClubFactory(),
        "played_on": dt.date(2026, 10, 3),
        "submitted_at": timezone.now(),
        "record": {"x": 1},
        "verification": "summary",
        "result": {},
        "fingerprint": "f" * 64,
    }
    values.update(overrides)
    return Match.objects.create(**values)


@pytest.mark.django_db
def test_the_same_match_cannot_be_stored_twice():
    _match()
    with pytest.raises(IntegrityError), transaction.atomic():
        _match()
    # the date is part of the fingerprint (of sheets and summaries), not of the key
    with pytest.raises(IntegrityError), transaction.atomic():
        _match(played_on=dt.date(2026, 10, 4))
    _match(fingerprint="e" * 64)
    # a withdrawn match no longer holds its content
    _match(fingerprint="d" * 64, status="withdrawn")
    _match(fingerprint="d" * 64)
    assert Match.objects.count() == 4


@pytest.mark.django_db
def test_the_five_games_exist():
    assert sorted(Game.objects.values_list("key", flat=True)) == sorted(
        ["divisor", "astronomy", "9tka", "trimorp", "dominyam"]
    )
