"""Fixtures of head-to-head, "what if", club pages and season points: a small
federation's history, recorded through the real services."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from tests.builders import BERLIN

SEP, OCT = dt.date(2026, 9, 1), dt.date(2026, 10, 1)


def play(club, handles, played_on, points, *, pips=None, received=None):
    """One divisor summary match among ``handles`` with these points (the first went out)."""
    from scoring.services import match_record

    record = {
        "game": "divisor",
        "rules": {"set": 9},
        "players": handles,
        "deals": [
            {
                "summary": {
                    "points": dict(zip(handles, points, strict=True)),
                    "pips_left": pips or {h: (0 if i == 0 else 5) for i, h in enumerate(handles)},
                }
            }
        ],
    }
    now = received or dt.datetime.combine(played_on, dt.time(20), tzinfo=BERLIN)
    return match_record(club=club, played_on=played_on, record=record, now=now).match


@pytest.fixture
def played(federation):
    """p00 and p01 meet four times in September (and p02 sits at two of those tables);
    September's divisor list is published."""
    from federation.models import Game
    from ratings.services import ranking_publish
    from tests.builders import record_month

    club, handles = federation
    with time_machine.travel(dt.datetime(2026, 10, 2, 9, tzinfo=dt.UTC), tick=False):
        matches = [
            play(club, ["p00", "p01"], SEP.replace(day=3), [40, 10]),
            play(club, ["p01", "p00"], SEP.replace(day=4), [35, 20]),
            play(club, ["p00", "p01", "p02"], SEP.replace(day=5), [50, 30, 10]),
            play(club, ["p02", "p00", "p01"], SEP.replace(day=6), [44, 22, 11]),
        ]
        record_month(club=club, handles=handles[2:8], month=SEP, count=12, seed=3)
        ranking = ranking_publish(game=Game.objects.get(key="divisor"), month=SEP).ranking
    return club, matches, ranking
