"""Rounds: pair in one click, re-pair, swap with warnings, publish."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from federation.models import Player
from tournaments import notices, pairing, webhooks
from tournaments.errors import TournamentError
from tournaments.models import (
    Round,
    RoundBye,
    Table,
    TableSeat,
    Tournament,
)
from tournaments.pairing import Warning
from tournaments.services._common import _allow, _lock
from tournaments.services.registrations import _snapshot


def _next_number(tournament: Tournament) -> int:
    """The number of the round to pair, once the one before is complete."""
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError("tournament-finished")
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status == Round.Status.PAIRED:
        raise TournamentError("round-pending", round=last.number)
    if last is not None and last.status != Round.Status.COMPLETE:
        raise TournamentError("round-incomplete", round=last.number)
    number = last.number + 1 if last else 1
    if number > tournament.rounds_planned:
        raise TournamentError("rounds-all-paired", rounds=tournament.rounds_planned)
    return number


def _seat(rnd: Round, drawn: dict[str, Any], players: dict[str, Player]) -> None:
    """Store the engine's tables (seats in turn order) and byes for ``rnd``."""
    for entry in drawn["tables"]:
        table = Table.objects.create(round=rnd, number=entry["table"])
        TableSeat.objects.bulk_create(
            TableSeat(table=table, seat=k, player=players[h]) for k, h in enumerate(entry["seats"])
        )
    RoundBye.objects.bulk_create(RoundBye(round=rnd, player=players[h]) for h in drawn["byes"])


def round_pair(*, tournament: Tournament, by: Any = None, now: datetime | None = None) -> Round:
    """Pair the next round in one click (the previous one must be complete). When the
    engine says the event is over (a knockout won, a round robin played out) before
    the rounds planned, the tournament is finished and the refusal says so."""
    _allow(by, tournament)
    over: TournamentError | None = None
    with transaction.atomic():
        locked = _lock(tournament)
        number = _next_number(locked)
        if number == 1:  # ratings not taken at check-in (no list then) are taken now
            _snapshot(locked, list(locked.registrations.filter(checked_in=True, rating=None)))
        try:
            drawn, players = pairing.pair_next(locked, number)
        except TournamentError as exc:
            if exc.code != "tournament-over":
                raise
            over = exc
            _finish(locked)
        else:
            rnd = Round.objects.create(
                tournament=locked,
                number=number,
                status=Round.Status.PAIRED,
                diagnostics=drawn["diagnostics"],
                paired_at=now or timezone.now(),
            )
            _seat(rnd, drawn, players)
            if locked.status == Tournament.Status.REGISTRATION:
                locked.status = Tournament.Status.RUNNING
                locked.save(update_fields=["status"])
    if over is not None:
        raise over
    return rnd


def _unpublished(round: Round) -> Round:
    rnd = Round.objects.select_related("tournament").get(pk=round.pk)
    if rnd.is_published:
        raise TournamentError("round-published", round=rnd.number)
    return rnd


def round_repair(*, round: Round, by: Any = None, now: datetime | None = None) -> Round:
    """Pair an unpublished round again from the current registrations (after a
    withdrawal, a late check-in...); manual swaps are lost."""
    _allow(by, round.tournament)
    with transaction.atomic():
        locked = _lock(round.tournament)
        rnd = _unpublished(round)
        drawn, players = pairing.pair_next(locked, rnd.number)
        rnd.tables.all().delete()
        rnd.byes.all().delete()
        rnd.diagnostics = drawn["diagnostics"]
        rnd.paired_at = now or timezone.now()
        rnd.save(update_fields=["diagnostics", "paired_at"])
        _seat(rnd, drawn, players)
    return rnd


def _place(rnd: Round, player: Player) -> TableSeat | RoundBye:
    seat = TableSeat.objects.filter(table__round=rnd, player=player).first()
    if seat is not None:
        return seat
    bye = rnd.byes.filter(player=player).first()
    if bye is None:
        raise TournamentError("swap-not-in-round", player=player.handle, round=rnd.number)
    if bye.granted:
        raise TournamentError("swap-granted-bye", player=player.handle)
    return bye


def round_swap(*, round: Round, first: Player, second: Player, by: Any = None) -> list[Warning]:
    """Exchange two players of an unpublished round (their tables and seats, or a
    table and a bye). Returns the warnings of the new pairing that concern them."""
    _allow(by, round.tournament)
    if first.pk == second.pk:
        raise TournamentError("swap-same")
    with transaction.atomic():
        _lock(round.tournament)
        rnd = _unpublished(round)
        a, b = _place(rnd, first), _place(rnd, second)
        if isinstance(a, RoundBye) and isinstance(b, RoundBye):
            raise TournamentError("swap-both-byes", first=first.handle, second=second.handle)
        spots = [_spot(b), _spot(a)]  # first takes second's place and back
        a.delete()
        b.delete()
        for player, (table, seat) in zip((first, second), spots, strict=True):
            if table is None:
                RoundBye.objects.create(round=rnd, player=player)
            else:
                TableSeat.objects.create(table=table, seat=seat, player=player)
        warnings = pairing.round_warnings(rnd)
    concerned = {first.handle, second.handle}
    return [w for w in warnings if concerned & set(w.players)]


def _spot(place: TableSeat | RoundBye) -> tuple[Table | None, int]:
    return (place.table, place.seat) if isinstance(place, TableSeat) else (None, 0)


def round_publish(*, round: Round, by: Any = None, now: datetime | None = None) -> Round:
    """Make a paired round final and public; its tables may then take results."""
    _allow(by, round.tournament)
    with transaction.atomic():
        locked = _lock(round.tournament)
        rnd = _unpublished(round)
        seated = TableSeat.objects.filter(table__round=rnd).values_list("player_id", flat=True)
        gone = [
            reg.player.handle
            for reg in locked.registrations.select_related("player").filter(player__in=seated)
            if not reg.plays_in(rnd.number)
        ]
        if gone:
            raise TournamentError(
                "seated-withdrawn", players=", ".join(gone), count=len(gone), round=rnd.number
            )
        rnd.status = Round.Status.PUBLISHED
        rnd.published_at = now or timezone.now()
        rnd.save(update_fields=["status", "published_at"])
        webhooks.round_published(rnd)
        notices.round_published(rnd)
        _settle(locked, rnd)
    return rnd


def _settle(tournament: Tournament, rnd: Round) -> None:
    """A published round whose every table has its match is complete; the last
    planned round complete finishes the tournament."""
    if rnd.status != Round.Status.PUBLISHED or rnd.tables.filter(match__isnull=True).exists():
        return
    rnd.status = Round.Status.COMPLETE
    rnd.save(update_fields=["status"])
    if rnd.number >= tournament.rounds_planned:
        _finish(tournament)


def _finish(tournament: Tournament) -> None:
    """The tournament is over (reported to the webhooks once committed)."""
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    webhooks.tournament_finished(tournament)
