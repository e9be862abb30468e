"""The tournament archive (version 1, ``archive.schema.json``): a whole tournament as
one JSON object another Quotient — or any program reading the schema — takes back.

Players are named as the public pages name them: the full name only where the player
consented (``name_public``), else their initials; handles are what the matches'
records use. Links are absolute (``SITE_URL``).
"""

from __future__ import annotations

import json
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone

from core.site import absolute_url
from federation.models import Player
from tournaments.models import Round, RoundBye, Table, TableSeat, Tournament

FORMAT = "quotient-tournament-archive"
VERSION = 1
SCHEMA_PATH = Path(__file__).with_name("archive.schema.json")


@cache
def schema() -> dict[str, Any]:
    """The archive's JSON Schema (also in the OpenAPI's components)."""
    loaded: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return loaded


def _moment(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def _bye_points(value: Decimal | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if value == value.to_integral_value() else float(value)


def _tournament(tournament: Tournament) -> dict[str, Any]:
    club = tournament.club
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "url": absolute_url("tournament-detail", tournament.slug),
        "game": tournament.game.key,
        "club": {
            "slug": club.slug,
            "name": club.name,
            "city": club.city,
            "country": str(club.country or ""),
        },
        "starts_on": tournament.starts_on.isoformat(),
        "start_time": tournament.start_time.strftime("%H:%M"),
        "time_zone": tournament.time_zone,
        "round_minutes": tournament.round_minutes,
        "format": tournament.format,
        "table_sizes": list(tournament.table_sizes),
        "rounds_planned": tournament.rounds_planned,
        "status": tournament.status,
        "bye_points": _bye_points(tournament.bye_points),
        "seed": tournament.seed,
        "public": tournament.public,
    }


def _player(player: Player) -> dict[str, Any]:
    return {
        "handle": player.handle,
        "name": player.public_display_name,
        "name_public": player.public_name,
        "country": str(player.country or ""),
        "club": player.club.slug if player.club else None,
    }


def _match(table: Table) -> dict[str, Any] | None:
    match = table.match
    if match is None:
        return None
    return {
        "played_on": match.played_on.isoformat(),
        "game_number": match.game_number,
        "status": match.status,
        "url": absolute_url("match-detail", match.pk),
        "record": match.record,
    }


def _round(rnd: Round) -> dict[str, Any]:
    return {
        "number": rnd.number,
        "status": rnd.status,
        "starts_at": _moment(rnd.starts_at),
        "published_at": _moment(rnd.published_at),
        "tables": [
            {
                "number": table.number,
                "seats": [seat.player.handle for seat in table.seats.all()],
                "match": _match(table),
            }
            for table in rnd.tables.all()
        ],
        "byes": [{"player": bye.player.handle, "granted": bye.granted} for bye in rnd.byes.all()],
    }


def _rounds(tournament: Tournament) -> list[Round]:
    seats = TableSeat.objects.select_related("player").order_by("seat")
    tables = Table.objects.select_related("match").prefetch_related(
        Prefetch("seats", queryset=seats)
    )
    byes = RoundBye.objects.select_related("player").order_by("id")
    return list(
        tournament.rounds.order_by("number").prefetch_related(
            Prefetch("tables", queryset=tables.order_by("number")),
            Prefetch("byes", queryset=byes),
        )
    )


def export(tournament: Tournament) -> dict[str, Any]:
    """The archive of ``tournament``."""
    registrations = list(tournament.registrations.select_related("player__club").order_by("id"))
    rounds = _rounds(tournament)
    players: dict[int, Player] = {reg.player.pk: reg.player for reg in registrations}
    for rnd in rounds:  # anyone who sat at a table or had a bye, registered or not
        for table in rnd.tables.all():
            players.update((seat.player.pk, seat.player) for seat in table.seats.all())
        players.update((bye.player.pk, bye.player) for bye in rnd.byes.all())
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "source": absolute_url("tournament-detail", tournament.slug),
        "tournament": _tournament(tournament),
        "players": [
            _player(p)
            for p in Player.objects.filter(pk__in=players).select_related("club").order_by("handle")
        ],
        "registrations": [
            {
                "player": reg.player.handle,
                "checked_in": reg.checked_in,
                "rating": reg.rating,
                "joins_round": reg.joins_round,
                "withdrawn_from_round": reg.withdrawn_from_round,
            }
            for reg in registrations
        ],
        "rounds": [_round(rnd) for rnd in rounds],
    }
