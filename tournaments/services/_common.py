"""What every write of the tournament flow shares: who may act, and the row lock."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied

from core.generations import TOURNAMENTS, bump_on_commit
from federation.permissions import can_write_for_club
from tournaments.models import (
    Tournament,
)

MAX_ROUNDS = 50
#: not tournaments: "new" is the creation page, "import" the archive's API endpoint
RESERVED_SLUGS = {"new", "import", "my-tables"}


def _allow(by: Any, tournament: Tournament) -> None:
    if by is not None and not can_write_for_club(by, tournament.club):
        raise PermissionDenied("Only the club's organisers and federation admins run it.")


def _lock(tournament: Tournament) -> Tournament:
    """The tournament's row, locked until the transaction ends (call inside one). Every
    write takes it: the pages kept under the ``tournaments`` generation change."""
    bump_on_commit(TOURNAMENTS)
    return (
        Tournament.objects.select_for_update().select_related("game", "club").get(pk=tournament.pk)
    )
