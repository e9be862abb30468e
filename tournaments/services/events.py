"""Creating a tournament: its game, format and table sizes."""

from __future__ import annotations

import secrets
from datetime import date, time
from decimal import Decimal
from typing import Any

from django.core.exceptions import PermissionDenied
from django.utils.text import slugify

from federation.models import Club, Game
from federation.permissions import can_write_for_club
from tournaments.errors import TournamentError
from tournaments.models import (
    GAME_TABLE_SIZES,
    Tournament,
)
from tournaments.services._common import MAX_ROUNDS, RESERVED_SLUGS
from tournaments.services.apart import ApartInput, apart_players, parse_apart
from tournaments.services.schedule import schedule_check


def table_sizes_check(*, game: Game, format: str, table_sizes: list[int]) -> None:
    """Refuse sizes the game is not played at (GAMES.md) or a knockout not in pairs."""
    if not table_sizes or len(set(table_sizes)) != len(table_sizes):
        raise TournamentError("no-table-sizes")
    allowed = GAME_TABLE_SIZES.get(game.key, (2,))
    if any(size not in allowed for size in table_sizes):
        raise TournamentError(
            "table-sizes-for-game",
            game=game.name,
            allowed=", ".join(map(str, allowed)),
            sizes=", ".join(map(str, table_sizes)),
        )
    if format == Tournament.Format.KNOCKOUT and table_sizes != [2]:
        raise TournamentError("knockout-pairs-only")


def _free_slug(name: str, slug: str | None) -> str:
    if slug:
        if slug in RESERVED_SLUGS or Tournament.objects.filter(slug=slug).exists():
            raise TournamentError("slug-taken", slug=slug)
        return slug
    base = slugify(name)[:70] or "tournament"
    candidate, n = base, 1
    while candidate in RESERVED_SLUGS or Tournament.objects.filter(slug=candidate).exists():
        n += 1
        candidate = f"{base}-{n}"
    return candidate


def tournament_create(
    *,
    name: str,
    game: Game,
    club: Club,
    starts_on: date,
    format: str = Tournament.Format.SWISS,
    table_sizes: list[int],
    rounds_planned: int,
    bye_points: Decimal | None = None,
    public: bool = False,
    slug: str | None = None,
    seed: int | None = None,
    keep_clubs_apart: bool = False,
    apart: ApartInput = (),
    created_by: Any = None,
    start_time: time | None = None,
    time_zone: str | None = None,
    round_minutes: int | None = None,
) -> Tournament:
    """A new tournament of ``club``, open for registration; ``apart`` names pairs of
    players (handles) to keep apart; its schedule takes the defaults of ``Tournament``
    for what is not given."""
    if created_by is not None and not can_write_for_club(created_by, club):
        raise PermissionDenied("You may only create tournaments for a club you organise.")
    table_sizes_check(game=game, format=format, table_sizes=list(table_sizes))
    if not 1 <= rounds_planned <= MAX_ROUNDS:
        raise TournamentError("rounds-planned", limit=MAX_ROUNDS)
    apart_pairs = apart_players(parse_apart(apart))
    schedule = {
        name: value
        for name, value in (
            ("start_time", start_time),
            ("time_zone", time_zone),
            ("round_minutes", round_minutes),
        )
        if value is not None
    }
    defaults = Tournament(**schedule)
    schedule_check(time_zone=defaults.time_zone, round_minutes=defaults.round_minutes)
    return Tournament.objects.create(
        **schedule,
        name=name,
        slug=_free_slug(name, slug),
        game=game,
        club=club,
        starts_on=starts_on,
        format=format,
        table_sizes=list(table_sizes),
        rounds_planned=rounds_planned,
        bye_points=bye_points,
        public=public,
        seed=secrets.randbelow(2**31) if seed is None else seed,
        keep_clubs_apart=keep_clubs_apart,
        apart_pairs=apart_pairs,
        created_by=created_by if getattr(created_by, "is_authenticated", False) else None,
    )
