"""The match events of webhooks (``hooks``): ``match.recorded``, ``match.corrected``
and ``match.withdrawn``, reported once the write commits.

The data (``MatchEvent`` in ``hooks/payloads.schema.json``) is the match as stored
then: its game, club, date, status and version, and its seats with each player's
handle and public name (initials without consent) and the result figures.
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any

from django.dispatch import receiver
from django.urls import reverse
from django.utils import timezone

from core.site import absolute, absolute_url
from hooks.emit import emit_on_commit
from hooks.events import MATCH_CORRECTED, MATCH_RECORDED, MATCH_WITHDRAWN
from scoring.models import Match, MatchEvent
from scoring.signals import match_changed

TYPES = {
    MatchEvent.Action.RECORDED: MATCH_RECORDED,
    MatchEvent.Action.CORRECTED: MATCH_CORRECTED,
    MatchEvent.Action.WITHDRAWN: MATCH_WITHDRAWN,
}


@receiver(match_changed)
def _report(
    sender: object,
    match: Match,
    action: str,
    at: datetime | None = None,
    reason: str = "",
    **kwargs: object,
) -> None:
    data = partial(match_data, match.pk, action=action, version=match.version, reason=reason)
    emit_on_commit(
        TYPES[MatchEvent.Action(action)],
        occurred_at=at or timezone.now(),
        club_id=match.club_id,
        data=data,
    )


def match_data(match_id: int, *, action: str, version: int, reason: str) -> dict[str, Any]:
    """The event's data: what happened (``action``, the ``version`` it made, the
    ``reason`` of a correction or withdrawal) and the match as stored."""
    match = Match.objects.select_related("game", "club").get(pk=match_id)
    seats = match.seats.select_related("player").order_by("seat")
    return {
        "action": action,
        "version": version,
        "reason": reason,
        "match": {
            "id": match.pk,
            "url": absolute_url("match-detail", match.pk),
            "api_url": absolute(f"{reverse('api-root')}matches/{match.pk}/"),
            "game": match.game.key,
            "club": match.club.slug,
            "played_on": match.played_on.isoformat(),
            "game_number": match.game_number,
            "status": match.status,
            "version": match.version,
            "verification": match.verification,
            "finished": match.finished,
            "seats": [_seat(seat) for seat in seats],
        },
    }


def _seat(seat: Any) -> dict[str, Any]:
    return {
        "seat": seat.seat,
        "player": seat.player.handle,
        "name": seat.player.public_display_name,
        "rank": seat.rank,
        "score": seat.score,
        "points": seat.points,
    }
