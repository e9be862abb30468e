"""Reads of tournaments: what a reader may see, the rounds' tables, ratings to seed by.

*Visible*: a public tournament to everyone; any tournament to its club's organisers
and to federation admins (others get a 404, as if it did not exist).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from django.http import Http404
from django.utils import timezone

from federation.models import Game, Player
from federation.permissions import can_write_for_club, is_federation_admin, organised_clubs
from ratings.models import RankingEntry
from scoring.models import MatchSeat
from tournaments.models import Registration, Round, RoundBye, Table, TableSeat, Tournament


def tournament_list(*, user: Any) -> QuerySet[Tournament]:
    """The tournaments ``user`` may see, newest first."""
    tournaments = Tournament.objects.select_related("game", "club")
    if is_federation_admin(user):
        return tournaments
    return tournaments.filter(Q(public=True) | Q(club__in=organised_clubs(user)))


def tournament_get(*, slug: str, user: Any) -> Tournament:
    """The tournament ``slug`` if ``user`` may see it; ``Http404`` otherwise."""
    tournament = Tournament.objects.select_related("game", "club").filter(slug=slug).first()
    if tournament is None or not (tournament.public or can_manage(user, tournament)):
        raise Http404("no such tournament")
    return tournament


def in_progress(*, user: Any, limit: int = 10) -> list[Tournament]:
    """The tournaments of the clubs ``user`` organises that are not finished (being
    registered or running), the latest starts first: the organiser's home lists them."""
    tournaments = Tournament.objects.select_related("game", "club").filter(
        club__in=organised_clubs(user)
    )
    tournaments = tournaments.exclude(status=Tournament.Status.FINISHED)
    return list(tournaments.order_by("-starts_on", "-id")[:limit])


def can_manage(user: Any, tournament: Tournament) -> bool:
    """Organisers of the tournament's club and federation admins run it."""
    return can_write_for_club(user, tournament.club)


def registration_list(tournament: Tournament) -> QuerySet[Registration]:
    return tournament.registrations.select_related("player").order_by("id")


def round_list(tournament: Tournament, *, published_only: bool = False) -> QuerySet[Round]:
    rounds = tournament.rounds.order_by("number")
    return rounds.exclude(status=Round.Status.PAIRED) if published_only else rounds


def round_get(tournament: Tournament, number: int, *, manager: bool) -> Round:
    """Round ``number`` with its tables, seats and byes; unpublished ones for managers only."""
    result_seats = MatchSeat.objects.defer("details").select_related("player")
    tables = Table.objects.select_related("match").prefetch_related(
        Prefetch("seats", queryset=TableSeat.objects.select_related("player").order_by("seat")),
        Prefetch("match__seats", queryset=result_seats.order_by("rank", "seat")),
    )
    rnd = (
        tournament.rounds.filter(number=number)
        .prefetch_related(
            Prefetch("tables", queryset=tables.order_by("number")),
            Prefetch("byes", queryset=RoundBye.objects.select_related("player")),
        )
        .first()
    )
    if rnd is None or not (rnd.is_published or manager):
        raise Http404("no such round")
    return rnd


def table_get(tournament: Tournament, number: int, table: int) -> Table:
    found = (
        Table.objects.select_related("round", "match")
        .prefetch_related(
            Prefetch("seats", queryset=TableSeat.objects.select_related("player").order_by("seat"))
        )
        .filter(round__tournament=tournament, round__number=number, number=table)
        .first()
    )
    if found is None:
        raise Http404("no such table")
    return found


def round_day(rnd: Round) -> date:
    """The day a round's tables are played: the day it was published (federation
    time), else today."""
    return timezone.localtime(rnd.published_at or timezone.now()).date()


def latest_rules(tournament: Tournament) -> dict[str, Any] | None:
    """The rules of the tournament's latest table result (the rules its next table is
    offered with: a tournament has no rules setting of its own), or None."""
    latest = (
        Table.objects.filter(round__tournament=tournament, match__isnull=False)
        .order_by("-match_id")
        .values_list("match__record", flat=True)
        .first()
    )
    rules = latest.get("rules") if isinstance(latest, dict) else None
    return rules if isinstance(rules, dict) else None


def latest_ratings(*, game: Game, players: Iterable[Player]) -> dict[int, int]:
    """Each player's ranking number (FLADUB) in their newest published list of ``game``
    (provisional entries included); players never listed are left out."""
    ids = [p.pk for p in players]
    entries = (
        RankingEntry.objects.filter(ranking__game=game, player_id__in=ids)
        .order_by("player_id", "-ranking__month", "-ranking__revision")
        .values_list("player_id", "fladub")
    )
    ratings: dict[int, int] = {}
    for player_id, fladub in entries:
        ratings.setdefault(player_id, fladub)
    return ratings


def player_search(query: str, *, limit: int = 20) -> QuerySet[Player]:
    """Players by handle, or by name where they consented to show it, whatever the
    case and accents ("chloe" finds "Chloé"; ``Player.objects.search``)."""
    return Player.objects.search(query).select_related("club").order_by("handle")[:limit]


def apart_handles(tournament: Tournament) -> list[tuple[str, str]]:
    """The tournament's pairs kept apart, as handles (a deleted player's pair is gone)."""
    ids = {pk for pair in tournament.apart_pairs for pk in pair}
    handles = dict(Player.objects.filter(pk__in=ids).values_list("pk", "handle"))
    return [
        (handles[a], handles[b]) for a, b in tournament.apart_pairs if a in handles and b in handles
    ]
