""" "This is me": what a player's own page adds for its player (the logged-in user
whose account is linked to it): their tables of published rounds still waiting for a
result (tournament, round, table, seat), the table results waiting for their
confirmation (each with its report page), and their disputes of recorded matches
(open ones, and the latest settled with their outcome).

The page's body is the same for every visitor and cached (``views.player_detail``);
these tools are read per request, for that player only, and rendered outside it.
"""

from __future__ import annotations

import hashlib
from typing import Any

from federation.models import Player
from federation.players import player_of
from scoring.models import Dispute
from tournaments.models import Round, TableReport, TableSeat

#: how many settled disputes the page still shows, newest first
SETTLED_SHOWN = 5
#: how many tables waiting for a result
TABLES_SHOWN = 20


def me_tools(user: Any, handle: str) -> dict[str, Any] | None:
    """The tools of ``handle``'s page for ``user``, or None when it is not them."""
    player = player_of(user)
    if player is None or player.handle.lower() != handle.lower():
        return None
    return {
        "player": player,
        "seats": _seats(player),
        "to_confirm": _to_confirm(player),
        "disputes": _disputes(player),
    }


def _seats(player: Player) -> list[TableSeat]:
    return list(
        TableSeat.objects.filter(
            player=player, table__match__isnull=True, table__round__status=Round.Status.PUBLISHED
        )
        .select_related("table__round__tournament")
        .order_by("-table__round__published_at", "table__number")[:TABLES_SHOWN]
    )


def _to_confirm(player: Player) -> list[TableReport]:
    """The open reports of the player's tables, by another player, not yet confirmed
    by them."""
    return list(
        TableReport.objects.filter(
            table__seats__player=player,
            table__match__isnull=True,
            status=TableReport.Status.REPORTED,
        )
        .exclude(reported_by=player)
        .exclude(replies__player=player)
        .select_related("table__round__tournament", "reported_by")
        .order_by("created_at")
    )


def _disputes(player: Player) -> list[Dispute]:
    rows = Dispute.objects.filter(player=player).select_related("match__game", "match__club")
    opened = list(rows.filter(status=Dispute.Status.OPEN).order_by("created_at"))
    settled = rows.exclude(status=Dispute.Status.OPEN).order_by("-settled_at", "-id")
    return opened + list(settled[:SETTLED_SHOWN])


def me_digest(tools: dict[str, Any] | None) -> str:
    """What the tools show, as a short digest (part of the page's validators: a
    conditional GET is not answered 304 once they changed)."""
    if tools is None:
        return ""
    parts = [f"s{s.pk}" for s in tools["seats"]]
    parts += [f"r{r.pk}" for r in tools["to_confirm"]]
    parts += [f"d{d.pk}{d.status}" for d in tools["disputes"]]
    return hashlib.sha256(",".join(parts).encode()).hexdigest()[:16]
