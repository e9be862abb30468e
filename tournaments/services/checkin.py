"""Self check-in: a registered player, their account linked to their player
(``Player.user``), checks themself in from the tournament's check-in page or its API.

It goes through the organiser's own :func:`registration_check_in` (same lock, same
rating snapshot); it closes when round 1 is paired. A second check-in changes nothing.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from core.errors import CodedError
from federation.players import player_of
from tournaments.models import Registration, Tournament
from tournaments.services._common import _lock
from tournaments.services.registrations import registration_check_in


class CheckInRefused(CodedError):
    """A self check-in refused (nothing stored)."""

    STATUS_BY_CODE = {
        "check-in-no-player": 403,
        "check-in-not-registered": 403,
        "check-in-closed": 409,
    }


def check_in_open(tournament: Tournament) -> bool:
    """Whether players may still check themselves in: round 1 is not paired yet."""
    return not tournament.rounds.filter(number=1).exists()


def own_registration(tournament: Tournament, user: Any) -> Registration | None:
    """The registration of the player linked to ``user`` (None if none)."""
    player = player_of(user)
    if player is None:
        return None
    return tournament.registrations.select_related("player").filter(player=player).first()


def registration_self_check_in(*, tournament: Tournament, user: Any) -> Registration:
    """Check in the player linked to ``user``: 403 when the account has no player or
    the player is not registered, 409 once round 1 is paired."""
    player = player_of(user)
    if player is None:
        raise CheckInRefused("check-in-no-player")
    with transaction.atomic():
        locked = _lock(tournament)
        reg = locked.registrations.select_related("player").filter(player=player).first()
        if reg is None:
            raise CheckInRefused("check-in-not-registered", player=player.handle)
        if not check_in_open(locked):
            raise CheckInRefused("check-in-closed")
        if reg.checked_in:
            return reg
        return registration_check_in(registration=reg, checked_in=True, by=None)
