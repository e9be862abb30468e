"""Messages for people name players by their public names (initials without
consent); the API's words and every error's params keep the handles (issue 19)."""

from __future__ import annotations

import pytest

from core.errors import with_public_names
from tests.factories import PlayerFactory
from tournaments.errors import TournamentError


@pytest.fixture
def named(club):
    PlayerFactory(handle="lon11", club=club, display_name="Léon Ogier", public_name=False)
    PlayerFactory(handle="ana", club=club, display_name="Ana Lima", public_name=True)


@pytest.mark.django_db
def test_pages_show_public_names_where_the_api_keeps_handles(named):
    error = TournamentError("seated-withdrawn", players="LON11, ana, ghost", count=3, round=2)
    page = "L. O., Ana Lima, ghost withdrew but 3 seated in round 2: re-pair it first."
    assert error.message(public=True) == page  # any capitals; an unknown handle as typed
    assert error.message().startswith("LON11, ana, ghost withdrew")
    assert error.payload(public=True)["params"]["players"] == "LON11, ana, ghost"
    assert error.message("fr", public=True).startswith("L. O., Ana Lima, ghost")


@pytest.mark.django_db
def test_only_the_parameters_that_name_players_are_mapped(named):
    assert with_public_names("rematch", {"players": ["ana", "lon11"], "rounds": "1"}) == {
        "players": ["Ana Lima", "L. O."],
        "rounds": "1",
    }
    # a tile called like a player stays a tile: ``first`` names players only in swaps
    tiles = {"first": "ana", "second": "lon11", "dice": "1-2"}
    assert with_public_names("dice-mismatch", tiles) == tiles
    assert with_public_names("wrong-turn", {"expected": "ana", "player": "lon11"}) == {
        "expected": "Ana Lima",
        "player": "L. O.",
    }
