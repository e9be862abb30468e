"""Reading a tournament archive back (``POST /api/v1/tournaments/import/``): checked
whole first (``checks``), then stored in one transaction — refused, nothing stays.

Into an empty federation the import creates the club (federation admins only) and the
players it does not know (their public name as name: initials where the player did not
consent); players already known by handle are used as they are. Each table's match is
recorded by ``match_record`` like any submission (replayed, checked, counted in the
ranking), so the standings and the crosstable come out as they were.
"""

from __future__ import annotations

from datetime import date, datetime, time
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models.functions import Lower
from django.utils import timezone

from federation.models import Club, Game, Player
from federation.permissions import is_federation_admin
from scoring.errors import MatchRejected
from scoring.models import Status
from scoring.services import match_record, match_withdraw
from tournaments.exchange.checks import ArchiveRejected, consistency_check, json_path, schema_check
from tournaments.models import Registration, Round, RoundBye, Table, TableSeat, Tournament
from tournaments.services import tournament_create

WITHDRAWN_REASON = "Withdrawn in the archived tournament."


def _club(data: dict[str, Any], by: Any) -> Club:
    club = Club.objects.filter(slug=data["slug"]).first()
    if club is not None:
        return club
    if by is not None and not is_federation_admin(by):
        raise ArchiveRejected("archive-unknown-club", club=data["slug"])
    return Club.objects.create(
        slug=data["slug"],
        name=data["name"],
        city=data.get("city", ""),
        country=data.get("country", ""),
    )


def _players(data: list[dict[str, Any]], club: Club, by: Any) -> dict[str, Player]:
    """Every player of the archive by handle in lower case, the unknown ones created
    (in their club when it exists here; an organiser's import places new players in
    the tournament's club only)."""
    wanted = [p["handle"].lower() for p in data]
    found: dict[str, Player] = {
        p.folded: p
        for p in Player.objects.annotate(folded=Lower("handle")).filter(folded__in=wanted)
    }
    slugs = {p.get("club") for p in data}
    if by is not None and not is_federation_admin(by):
        slugs &= {club.slug}
    clubs = {c.slug: c for c in Club.objects.filter(slug__in=slugs)}
    for player in data:
        if player["handle"].lower() not in found:
            found[player["handle"].lower()] = Player.objects.create(
                handle=player["handle"],
                display_name=player["name"],
                public_name=player["name_public"],
                country=player.get("country", ""),
                club=clubs.get(player.get("club") or ""),
            )
    return found


def _tournament(data: dict[str, Any], game: Game, club: Club, by: Any) -> Tournament:
    start_time = data.get("start_time")
    bye_points = data.get("bye_points")
    return tournament_create(
        name=data["name"],
        slug=data["slug"],
        game=game,
        club=club,
        starts_on=date.fromisoformat(data["starts_on"]),
        format=data["format"],
        table_sizes=data["table_sizes"],
        rounds_planned=data["rounds_planned"],
        bye_points=None if bye_points is None else Decimal(str(bye_points)),
        public=data.get("public", False),
        seed=data.get("seed"),
        created_by=by,
        start_time=time.fromisoformat(start_time) if start_time else None,
        time_zone=data.get("time_zone"),
        round_minutes=data.get("round_minutes"),
    )


def _moment(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _match(table: Table, data: dict[str, Any], club: Club, by: Any, path: list[Any]) -> None:
    try:
        recorded = match_record(
            club=club,
            played_on=date.fromisoformat(data["played_on"]),
            record=data["record"],
            submitted_by=by,
            game_number=data.get("game_number", 1),
        )
        if data.get("status") == Status.WITHDRAWN:
            match_withdraw(match=recorded.match, reason=WITHDRAWN_REASON, by=by)
    except MatchRejected as exc:
        reason = exc.message()
        raise ArchiveRejected("archive-match-refused", path=json_path(path), reason=reason) from exc
    table.match = recorded.match
    table.save(update_fields=["match"])


def _round(
    tournament: Tournament, data: dict[str, Any], players: dict[str, Player], by: Any, index: int
) -> None:
    published = _moment(data.get("published_at"))
    rnd = Round.objects.create(
        tournament=tournament,
        number=data["number"],
        status=data["status"],
        starts_at=_moment(data.get("starts_at")),
        published_at=published,
        paired_at=published or timezone.now(),
    )
    for t, entry in enumerate(data["tables"]):
        table = Table.objects.create(round=rnd, number=entry["number"])
        TableSeat.objects.bulk_create(
            TableSeat(table=table, seat=k, player=players[h.lower()])
            for k, h in enumerate(entry["seats"])
        )
        if entry.get("match") is not None:
            path = ["rounds", index, "tables", t, "match"]
            _match(table, entry["match"], tournament.club, by, path)
    RoundBye.objects.bulk_create(
        RoundBye(round=rnd, player=players[b["player"].lower()], granted=b["granted"])
        for b in data["byes"]
    )


def _registrations(
    tournament: Tournament, data: list[dict[str, Any]], players: dict[str, Player]
) -> None:
    Registration.objects.bulk_create(
        Registration(
            tournament=tournament,
            player=players[reg["player"].lower()],
            checked_in=reg["checked_in"],
            rating=reg.get("rating"),
            joins_round=reg.get("joins_round", 1),
            withdrawn_from_round=reg.get("withdrawn_from_round"),
        )
        for reg in data
    )


def archive_import(*, data: Any, by: Any) -> Tournament:
    """Store the tournament of the archive ``data``, all of it or nothing."""
    schema_check(data)
    consistency_check(data)
    game = Game.objects.filter(key=data["tournament"]["game"]).first()
    if game is None:
        raise ArchiveRejected("archive-unknown-game", game=data["tournament"]["game"])
    with transaction.atomic():
        club = _club(data["tournament"]["club"], by)
        tournament = _tournament(data["tournament"], game, club, by)
        players = _players(data["players"], club, by)
        _registrations(tournament, data["registrations"], players)
        for index, rnd in enumerate(data["rounds"]):
            _round(tournament, rnd, players, by, index)
        tournament.status = data["tournament"]["status"]
        tournament.save(update_fields=["status"])
    return tournament
