"""Migration 0006: the Astronomy analyses stored under the former definition of the
decisive mistake (the first flip, which could name the winner) are recomputed."""

from __future__ import annotations

import datetime as dt
import importlib

import pytest
from django.apps import apps

from scoring.engine.astronomy import decisive_mistake, random_record
from scoring.models import Match
from scoring.services import match_record
from tests.factories import PlayerFactory

migration = importlib.import_module("scoring.migrations.0006_decisive_mistake_of_the_loser")


@pytest.mark.django_db
def test_stored_analyses_are_recomputed(club):
    for handle in ("ana", "ben"):
        PlayerFactory(handle=handle, club=club)
    record = random_record(50, size=4, resign_chance=0)  # the winner flipped first
    match = match_record(club=club, played_on=dt.date(2026, 11, 2), record=record).match
    old = {"move": 1, "player": "ben", "before": "win", "after": "loss", "solved_from": 1}
    Match.objects.filter(pk=match.pk).update(analysis={"decisive_mistake": old})
    migration.recompute(apps, None)
    match.refresh_from_db()
    assert match.analysis == {"decisive_mistake": decisive_mistake(record)}
    assert match.analysis["decisive_mistake"]["player"] == "ana"  # the loser
