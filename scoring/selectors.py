"""Reads for matches: filtered lists and the score sheet of one match (the match page's
own presentation is ``scoring.web.display``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import Exists, F, OuterRef, Prefetch, QuerySet, Subquery

from federation.models import Club, Game, Player, public_display_name
from federation.months import next_month
from scoring.models import Match, MatchSeat, Status

#: the columns a list of matches never shows: records and replays run to kilobytes
#: each, and reading them for fifty rows of a page would outweigh the page
HEAVY_COLUMNS = ("record", "result", "analysis")


def match_rows(*, summary: bool = True) -> QuerySet[Match]:
    """Matches with their game, club, seats and seated players, newest first, in a
    fixed number of queries (one, plus one for all the seats and one for all their
    players); ``summary`` leaves out the heavy JSON columns (a list's rows),
    ``summary=False`` keeps them (one match's page)."""
    queryset = Match.objects.select_related("game", "club")
    if summary:
        queryset = queryset.defer(*HEAVY_COLUMNS)
    seats = seats_prefetch(summary=summary)
    return queryset.prefetch_related(*seats).order_by("-played_on", "-id")


def seats_prefetch(*, summary: bool = True) -> tuple[Prefetch, str]:
    """A match's seats in order, then their players, for ``prefetch_related`` (or
    ``prefetch_related_objects`` on matches already in memory): one query for all the
    seats, one for all their players. The players are read by id rather than joined:
    PostgreSQL would hash the whole players table to join a page's 150 seats."""
    seats = MatchSeat.objects.order_by("seat")
    if summary:
        seats = seats.defer("details")
    return Prefetch("seats", queryset=seats), "seats__player"


def match_list(
    *,
    game: str | None = None,
    club: str | None = None,
    player: str | None = None,
    month: date | None = None,
    status: Sequence[str] | None = None,
    summary: bool = True,
) -> QuerySet[Match]:
    """Matches, newest first (``-played_on, -id``: the keys of the list's pages), with
    their seats and players prefetched, the heavy columns left out unless
    ``summary=False``; ``status`` keeps the matches of those statuses (all of them when
    None: a withdrawn match is listed, marked as such).

    No filter joins the seats: ``player`` is an ``EXISTS`` on the player's seats, so no
    match comes twice and no ``DISTINCT`` has to sort every row of the table; ``month``
    is the month played."""
    queryset = match_rows(summary=summary)
    # by id from a subquery rather than through the join: the planner then reads the
    # game's (or club's) own range of the index instead of sorting the month's matches
    if game:
        queryset = queryset.filter(
            game=Subquery(Game.objects.filter(key=game).order_by().values("pk"))
        )
    if club:
        queryset = queryset.filter(
            club=Subquery(Club.objects.filter(slug=club).order_by().values("pk"))
        )
    if player:
        seated = MatchSeat.objects.filter(
            match=OuterRef("pk"), player__in=Player.objects.by_handle(player).values("pk")
        )
        queryset = queryset.filter(Exists(seated))
    if status:
        queryset = queryset.filter(status__in=list(status))
    if month:
        queryset = queryset.filter(played_on__gte=month, played_on__lt=next_month(month))
    return queryset


#: a list row's own columns, read as values (``match_values``)
ROW_COLUMNS = (
    "id",
    "played_on",
    "game_number",
    "submitted_at",
    "status",
    "version",
    "verification",
    "finished",
    "late",
    "counted_month",
)


def match_values(matches: QuerySet[Match]) -> QuerySet[Match, dict[str, Any]]:
    """``matches`` (a ``match_list``) as plain rows, with the game's key and the club's
    slug: the API's pages are built from rows, model instances costing more than the
    page's queries."""
    return matches.prefetch_related(None).values(
        *ROW_COLUMNS, game_key=F("game__key"), club_slug=F("club__slug")
    )


def seat_values(match_ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    """The seats of ``match_ids`` in order, by match, each with its player's handle
    and public name: two queries (the players by id, not joined: see
    ``seats_prefetch``)."""
    seats = MatchSeat.objects.filter(match_id__in=match_ids).order_by("match_id", "seat")
    rows = list(seats.values("match_id", "player_id", *SEAT_COLUMNS))
    players = Player.objects.filter(pk__in={row["player_id"] for row in rows})
    names = {
        pk: (handle, public_display_name(handle, name, public))
        for pk, handle, name, public in players.values_list(
            "pk", "handle", "display_name", "public_name"
        )
    }
    by_match: dict[int, list[dict[str, Any]]] = {pk: [] for pk in match_ids}
    for row in rows:
        handle, name = names[row["player_id"]]
        seat = {"seat": row["seat"], "player": handle, "name": name}
        by_match[row["match_id"]].append(seat | {key: row[key] for key in SEAT_COLUMNS[1:]})
    return by_match


#: a seat's columns as the list shows them (after its player's handle and name)
SEAT_COLUMNS = ("seat", "score", "rank", "points", "deduction")


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
