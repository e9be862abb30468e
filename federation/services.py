"""Writes for clubs and players."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from federation.models import Club, Player
from federation.permissions import can_write_for_club


@transaction.atomic
def player_create(
    *,
    handle: str,
    display_name: str,
    club: Club | None,
    country: Any = "",
    public_name: bool = False,
    created_by=None,
) -> Player:
    """Register a player. Organisers register players for their own club."""
    if created_by is not None and not can_write_for_club(created_by, club):
        raise PermissionDenied("You may only register players for a club you organise.")
    if Player.objects.by_handle(handle).exists():
        raise ValidationError({"handle": "This handle is already taken."})
    player = Player(
        handle=handle,
        display_name=display_name,
        club=club,
        country=str(country or "").upper(),  # a code, or a Country (another's country)
        public_name=public_name,
    )
    player.full_clean()
    player.save()
    return player
