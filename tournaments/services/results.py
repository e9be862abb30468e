"""Results: each table's match, recorded by scoring like any other."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.db import transaction
from django.db.models import Max

from federation.models import Club, Player
from scoring.errors import MatchRejected
from scoring.models import Status
from scoring.services import Recorded, match_record
from tournaments import notices
from tournaments.errors import TableRejected
from tournaments.models import (
    Round,
    Table,
    TableReport,
    TableSeat,
)
from tournaments.services._common import _lock
from tournaments.services.rounds import _settle


def record_players_check(table: Table, record: Any) -> None:
    """Refuse a record whose game or players (in seat order) are not the table's."""
    tournament = table.round.tournament
    game = record.get("game") if isinstance(record, dict) else None
    if game != tournament.game.key:
        raise TableRejected("table-game", game=tournament.game.key, got=str(game)[:40])
    expected = [
        seat.player.handle for seat in table.seats.select_related("player").order_by("seat")
    ]
    players = record.get("players")
    if not isinstance(players, list) or [str(p).lower() for p in players] != [
        h.lower() for h in expected
    ]:
        raise TableRejected("table-players", expected=", ".join(expected))


def table_result_record(
    *,
    table: Table,
    played_on: date,
    record: dict[str, Any],
    submitted_by: Any = None,
    now: datetime | None = None,
    game_number: int = 1,
    reason: str = "",
    accepted: str = "",
) -> Recorded:
    """Record the match played at ``table`` (a published round) and link it to the
    table, in one transaction: on any refusal (``TableRejected``, ``MatchRejected``,
    ``PermissionDenied``) nothing is stored. A table in dispute given its result by
    the organiser (``submitted_by``): its players are told the dispute is settled
    (``accepted``: the name of the player whose report the organiser accepted)."""
    tournament = table.round.tournament
    record_players_check(table, record)
    with transaction.atomic():
        locked = _lock(tournament)
        current = Table.objects.select_related("round", "match").get(pk=table.pk)
        rnd = current.round
        # a withdrawn match counts as not played: the table may be given its result
        if current.match is not None and current.match.status != Status.WITHDRAWN:
            raise TableRejected("table-has-result", table=current.number, round=rnd.number)
        if not rnd.is_published:
            raise TableRejected("round-unpublished", round=rnd.number)
        recorded = match_record(
            club=locked.club,
            played_on=played_on,
            record=record,
            submitted_by=submitted_by,
            now=now,
            game_number=game_number,
            reason=reason,
        )
        if not recorded.match.finished:  # no final ranks: it cannot score (rolled back)
            raise TableRejected("table-unfinished", table=current.number, round=rnd.number)
        # the organiser settles a dispute (a player's confirmation does not: not told)
        disputed = submitted_by is not None and current.match is None and current.is_disputed
        current.match = recorded.match
        current.save(update_fields=["match"])
        # the players' reports still open are settled by this result (docs/players.md)
        TableReport.objects.filter(
            table=current, status__in=[TableReport.Status.REPORTED, TableReport.Status.CONTESTED]
        ).update(status=TableReport.Status.SETTLED)
        if disputed and submitted_by is not None:
            notices.table_dispute_settled(current, recorded.match, accepted=accepted)
        _settle(locked, rnd)
    return recorded


def round_match_record(
    *,
    round: Round,  # the domain's word
    club: Club,
    played_on: date,
    record: dict[str, Any],
    submitted_by: Any = None,
    game_number: int = 1,
) -> Recorded:
    """Record a match played in ``round`` (the match API's ``round``).

    A paired round: the match goes to the table that seats its players
    (:func:`table_result_record`). A round never paired by the engine (results
    recorded after the fact): the match gets a new table of its own. Either way the
    match is stored by ``match_record`` like any other and counts in the ranking.
    """
    tournament = round.tournament
    if _game_key(record) != tournament.game.key or tournament.club_id != club.id:
        raise MatchRejected("round-other-game")
    handles = {str(h).lower() for h in record.get("players") or []}
    seated: set[str] = set()
    for table in round.tables.prefetch_related("seats__player"):
        at_table = {s.player.handle.lower() for s in table.seats.all()}
        if at_table == handles:
            return table_result_record(
                table=table,
                played_on=played_on,
                record=record,
                submitted_by=submitted_by,
                game_number=game_number,
            )
        seated |= at_table
    if round.paired_at is not None:
        raise TableRejected("round-table-not-found", round=round.number)
    if seated & handles:
        player = sorted(seated & handles)[0]
        raise TableRejected("round-player-seated", player=player, round=round.number)
    with transaction.atomic():
        _lock(tournament)
        recorded = match_record(
            club=club,
            played_on=played_on,
            record=record,
            submitted_by=submitted_by,
            game_number=game_number,
        )
        _table_for(round, recorded.match)
    return recorded


def _game_key(record: Any) -> Any:
    return record.get("game") if isinstance(record, dict) else None


def _table_for(round: Round, match: Any) -> Table:
    number = (round.tables.aggregate(top=Max("number"))["top"] or 0) + 1
    table = Table.objects.create(round=round, number=number, match=match)
    seats = match.seats.select_related("player").order_by("seat")
    TableSeat.objects.bulk_create(
        TableSeat(table=table, seat=seat.seat, player=seat.player) for seat in seats
    )
    Round.objects.filter(pk=round.pk).update(status=Round.Status.COMPLETE)
    return table


def players_at(table: Table) -> list[Player]:
    """The table's players in seat order."""
    return [seat.player for seat in table.seats.select_related("player").order_by("seat")]
