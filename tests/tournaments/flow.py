"""Builders for the tournament tests: real records for a table, whole rounds played."""

from __future__ import annotations

import datetime as dt
from typing import Any

from scoring.engine.divisor import random_record
from scoring.engine.divisor.random_play import HANDLES

PLAYED_ON = dt.date(2026, 11, 14)


def rename_players(value: Any, mapping: dict[str, str]) -> Any:
    """A copy of ``value`` with every string equal to an old handle renamed."""
    if isinstance(value, dict):
        return {mapping.get(k, k): rename_players(v, mapping) for k, v in value.items()}
    if isinstance(value, list):
        return [rename_players(v, mapping) for v in value]
    return mapping.get(value, value) if isinstance(value, str) else value


def table_record(handles: list[str], seed: int) -> dict[str, Any]:
    """A random legal finished Divisor match between ``handles``, in that seat order."""
    record = random_record(seed, players=len(handles), set=12)
    return rename_players(record, dict(zip(HANDLES, handles, strict=False)))


def seated(table) -> list[str]:
    return [seat.player.handle for seat in table.seats.order_by("seat")]


def play_round(rnd, *, seed: int, by=None) -> None:
    """Publish ``rnd`` if needed and record every table's result through the service."""
    from tournaments.models import Round
    from tournaments.services import round_publish, table_result_record

    if rnd.status == Round.Status.PAIRED:
        round_publish(round=rnd, by=by)
    for table in rnd.tables.order_by("number"):
        table_result_record(
            table=table,
            played_on=PLAYED_ON,
            record=table_record(seated(table), seed * 100 + table.number),
            submitted_by=by,
        )


def db_event(tournament, *, after: int) -> dict[str, Any]:
    """The engine's event, built here straight from the stored matches (an oracle for
    the adapter): checked-in players by rating, rounds 1..after."""
    from tournaments.models import RoundBye, Table

    players = [
        {"id": r.player.handle, **({"rating": r.rating} if r.rating is not None else {})}
        for r in tournament.registrations.filter(checked_in=True).order_by("id")
    ]
    rounds = []
    for number in range(1, after + 1):
        tables = []
        for table in Table.objects.filter(round__tournament=tournament, round__number=number):
            seats = list(table.match.seats.order_by("seat"))
            tables.append(
                {
                    "seats": [s.player.handle for s in seats],
                    "ranks": [s.rank for s in seats],
                    "scores": [s.score for s in seats],
                }
            )
        byes = RoundBye.objects.filter(round__tournament=tournament, round__number=number)
        rounds.append({"tables": tables, "byes": [b.player.handle for b in byes]})
    return {
        "format": tournament.format,
        "table_sizes": tournament.table_sizes,
        "seed": tournament.seed,
        "players": players,
        "rounds": rounds,
    }


def link_accounts(tournament) -> dict[str, Any]:
    """An account linked to every registered player (``u-<handle>``), by handle."""
    from federation.models import Player
    from tests.factories import UserFactory

    users = {}
    for reg in tournament.registrations.select_related("player"):
        user = UserFactory(username=f"u-{reg.player.handle}")
        Player.objects.filter(pk=reg.player.pk).update(user=user)
        users[reg.player.handle] = user
    return users
