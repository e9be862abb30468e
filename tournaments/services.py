"""Writes for tournaments: a table's result is recorded as an ordinary match."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import transaction
from django.db.models import Max

from federation.models import Club, Player
from scoring.engine.common import RecordError
from scoring.errors import MatchRejected
from scoring.services import Recorded, match_record
from tournaments.models import Round, Table, TableSeat


def round_match_record(
    *,
    round: Round,  # the domain's word
    club: Club,
    played_on: date,
    record: dict[str, Any],
    submitted_by: Any = None,
) -> Recorded:
    """Record a match played in ``round`` and seat it at a new table of that round.

    The match is stored by ``match_record`` like any other (it counts in the world
    ranking); the table points to it. Both are stored in one transaction, or neither.
    """
    tournament = round.tournament
    if tournament.game_id != _game_id(record, tournament) or tournament.club_id != club.id:
        raise MatchRejected(RecordError("round-other-game"))
    with transaction.atomic():
        recorded = match_record(
            club=club, played_on=played_on, record=record, submitted_by=submitted_by
        )
        _table_for(round, recorded.match)
    return recorded


def _game_id(record: dict[str, Any], tournament: Any) -> int | None:
    game_key = record.get("game") if isinstance(record, dict) else None
    return tournament.game_id if game_key == tournament.game.key else None


def _table_for(round: Round, match: Any) -> Table:
    number = (round.tables.aggregate(top=Max("number"))["top"] or 0) + 1
    table = Table.objects.create(round=round, number=number, match=match)
    seats = match.seats.select_related("player").order_by("seat")
    TableSeat.objects.bulk_create(
        TableSeat(table=table, seat=seat.seat, player=seat.player) for seat in seats
    )
    return table


def players_at(table: Table) -> list[Player]:
    """The table's players in seat order."""
    return [seat.player for seat in table.seats.select_related("player").order_by("seat")]
