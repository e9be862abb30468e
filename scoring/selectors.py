"""Reads for matches: filtered lists and the score sheet of one match (the match page's
own presentation is ``scoring.display``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import Exists, OuterRef, Prefetch, QuerySet

from federation.months import next_month
from scoring.models import Match, MatchSeat, Status


def match_list(
    *,
    game: str | None = None,
    club: str | None = None,
    player: str | None = None,
    month: date | None = None,
    status: Sequence[str] | None = None,
) -> QuerySet[Match]:
    """Matches, newest first, with their seats and players prefetched; ``status``
    keeps the matches of those statuses (all of them when None: a withdrawn match is
    listed, marked as such)."""
    seats = MatchSeat.objects.select_related("player").order_by("seat")
    queryset = Match.objects.select_related("game", "club").prefetch_related(
        Prefetch("seats", queryset=seats)
    )
    if game:
        queryset = queryset.filter(game__key=game)
    if club:
        queryset = queryset.filter(club__slug=club)
    if player:
        queryset = queryset.filter(seats__player__handle__iexact=player)
    if status:
        queryset = queryset.filter(status__in=list(status))
    if month:
        queryset = queryset.filter(played_on__gte=month, played_on__lt=next_month(month))
    return queryset.order_by("-played_on", "-id").distinct()


def score_sheet(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The replay's moves with each mover's running total of points."""
    totals: dict[str, int] = {}
    sheet = []
    for move in result.get("moves", []):
        player = move.get("player")
        points = move.get("points") or 0
        totals[player] = totals.get(player, 0) + points
        sheet.append({**move, "running_total": totals[player]})
    return sheet


@dataclass(frozen=True)
class RepeatedResult:
    """Matches of one game and day with the same result (the same players in the same
    seats, with the same ranks and scores) under several game numbers: a club may have
    played twice with the same outcome, or entered one result several times. Federation
    admins review them and withdraw the abuse."""

    game: str
    played_on: date
    seats: tuple[tuple[str, int | None, int | None], ...]  # (handle, rank, score)
    matches: tuple[Match, ...]


def repeated_results(*, since: date) -> list[RepeatedResult]:
    """The repeated results played on or after ``since``, latest day first (withdrawn
    matches left out). Only days with a game number above 1 are read."""
    later_game = Match.objects.filter(
        game=OuterRef("game"), played_on=OuterRef("played_on"), game_number__gt=1
    ).exclude(status=Status.WITHDRAWN)
    matches = (
        match_list()
        .filter(Exists(later_game), played_on__gte=since)
        .exclude(status=Status.WITHDRAWN)
        .order_by("-played_on", "game__key", "game_number", "id")
    )
    groups: dict[tuple[Any, ...], list[Match]] = {}
    for match in matches:
        seats = tuple((seat.player.handle, seat.rank, seat.score) for seat in match.seats.all())
        groups.setdefault((match.game.key, match.played_on, seats), []).append(match)
    return [
        RepeatedResult(game=game, played_on=played_on, seats=seats, matches=tuple(group))
        for (game, played_on, seats), group in groups.items()
        if len({match.game_number for match in group}) > 1
    ]
