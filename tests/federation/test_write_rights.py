"""The submitter's rights read with the game (``can_write_for_club_with_game``): the
same answer as ``can_write_for_club`` for everyone, and a refusal comes before any
check of the record."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied

from federation.permissions import can_write_for_club, can_write_for_club_with_game
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_same_rights_as_can_write_for_club(club, other_club, organiser, federation_admin):
    superuser = UserFactory(is_superuser=True)
    nobody = UserFactory()
    for user in (organiser, federation_admin, superuser, nobody, AnonymousUser()):
        for where in (club, other_club, None):
            for key in ("divisor", "no-such-game", 7, None):
                allowed, game = can_write_for_club_with_game(user, where, key)
                assert allowed == can_write_for_club(user, where), (user, where, key)
                assert (game.key if game else None) == ("divisor" if key == "divisor" else None)
    allowed, game = can_write_for_club_with_game(organiser, club, "divisor")
    assert allowed and game is not None and game.name and not game._state.adding


def test_a_refusal_comes_before_the_record_is_checked(other_club, organiser):
    from scoring.services import match_record

    with pytest.raises(PermissionDenied):
        match_record(
            club=other_club,
            played_on=dt.date(2026, 11, 2),
            record={"game": "no-such-game", "players": 3},
            submitted_by=organiser,
        )
