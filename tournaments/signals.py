"""Tournaments' answers to scoring's signals (scoring cannot call up the app graph).

* ``match_correcting``: a correction of a table's match must keep the table's
  players in its seat order (``correction-table-players``, 409) and finish the game
  (``table-unfinished``): the standings and the pairing read the match's seats by the
  table's, and a table's result is a finished match.
* ``match_changed``: a correction or a withdrawal of a table's match changes its
  tournament's standings: the pages kept under the ``tournaments`` generation change.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from core.generations import TOURNAMENTS, bump_on_commit
from scoring.models import Match, MatchEvent
from scoring.signals import match_changed, match_correcting
from tournaments.errors import TableRejected
from tournaments.models import Table


@receiver(match_correcting)
def table_kept(sender: object, *, match: Match, players: list[Any], result: Any, **_: Any) -> None:
    """Refuse a correction of a table's match that changes its players or their order."""
    table = Table.objects.filter(match=match).select_related("round").first()
    if table is None:
        return
    seated = list(table.seats.order_by("seat").values_list("player_id", "player__handle"))
    if [player.pk for player in players] != [pk for pk, _handle in seated]:
        raise TableRejected(
            "correction-table-players",
            table=table.number,
            round=table.round.number,
            expected=", ".join(handle for _pk, handle in seated),
        )
    if not result.get("finished"):
        raise TableRejected("table-unfinished", table=table.number, round=table.round.number)


@receiver(match_changed)
def standings_changed(sender: object, *, match: Match, action: str, **_: Any) -> None:
    """A table's match corrected or withdrawn: its tournament's pages change."""
    if action == MatchEvent.Action.RECORDED:
        return  # a table's result is recorded by the tournament flow, which bumps it
    if Table.objects.filter(match_id=match.pk).exists():
        bump_on_commit(TOURNAMENTS)
