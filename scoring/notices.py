"""Mails to the players of a recorded match (``federation.notifications``): each seated
player with an account is told their result, with the match page's absolute link
where they can contest it; a disputing player is told their dispute's outcome. Read
and sent once the write commits, once per match (or dispute) and player. A submission's
signal names its seats (their players read): a match none of whose players has an
account reads nothing more."""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any

from django.db import transaction
from django.dispatch import receiver

from core.site import absolute_url
from federation.notifications import Kind, notify
from scoring.models import Dispute, Match, MatchEvent
from scoring.signals import match_changed


@receiver(match_changed)
def _recorded(
    sender: object, match: Match, action: str, at: datetime | None = None, **kwargs: Any
) -> None:
    if action == MatchEvent.Action.RECORDED:
        seats = kwargs.get("seats")
        if seats is not None and not any(seat.player.user_id for seat in seats):
            return  # the submission's seats (``match_record``'s): nobody to tell
        # after the commit: the write's transaction (and its query budget) stays as it was
        transaction.on_commit(partial(results_recorded, match.pk))


def results_recorded(match_id: int) -> None:
    """Notify the seated players with an account of the recorded match ``match_id``."""
    match = Match.objects.select_related("game", "club").get(pk=match_id)
    seats = match.seats.filter(player__user__isnull=False).select_related("player__user")
    url = absolute_url("match-detail", match.pk)
    for seat in seats:
        context = {
            "match_url": url,
            "game": match.game.name,
            "club": match.club.name,
            "played_on": match.played_on.isoformat(),
            "rank": seat.rank,
            "points": seat.points,
        }
        notify(Kind.RESULT_RECORDED, seat.player, f"match:{match.pk}", context)


def dispute_settled(dispute: Dispute) -> None:
    """The disputing player, if they have an account: their dispute's outcome (upheld
    or rejected) and the reason the organiser gave."""
    match = dispute.match
    context = {
        "title": f"{match.game.name} {match.played_on.isoformat()}",
        "game": match.game.name,
        "club": match.club.name,
        "played_on": match.played_on.isoformat(),
        "outcome": dispute.status,
        "reason": dispute.settled_reason,
        "url": absolute_url("match-detail", match.pk),
    }
    notify(Kind.DISPUTE_SETTLED, dispute.player, f"dispute:{dispute.pk}", context)
