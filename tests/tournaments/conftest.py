"""Fixtures of the tournament flow: a club night of twelve Divisor players."""

from __future__ import annotations

import datetime as dt

import pytest


@pytest.fixture
def night(federation, organiser, evening):
    """A public Swiss of Divisor at tables of 4 (or 3), three rounds, twelve players
    p00..p11 registered and checked in."""
    from federation.models import Game
    from tournaments.services import registrations_add, tournament_create

    club, handles = federation
    tournament = tournament_create(
        name="Soirée Divisor",
        game=Game.objects.get(key="divisor"),
        club=club,
        starts_on=dt.date(2026, 11, 14),
        table_sizes=[4, 3],
        rounds_planned=3,
        public=True,
        seed=7,
        created_by=organiser,
    )
    registrations_add(tournament=tournament, handles=" ".join(handles), check_in=True)
    return tournament
