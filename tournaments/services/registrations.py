"""Registrations: bulk paste, check-in, withdrawal, late entry and granted byes."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.db.models.functions import Lower

from federation.models import Player
from tournaments.errors import TournamentError
from tournaments.models import (
    Registration,
    Round,
    RoundBye,
    TableSeat,
    Tournament,
)
from tournaments.selectors import latest_ratings
from tournaments.services._common import _allow, _lock


def parse_handles(text: str | Iterable[str]) -> list[str]:
    """Handles from a pasted list (lines, commas, spaces), in order, without repeats."""
    words = re.split(r"[\s,;]+", text) if isinstance(text, str) else list(text)
    seen: dict[str, str] = {}
    for word in (w.strip().lstrip("@") for w in words):
        if word and word.lower() not in seen:
            seen[word.lower()] = word
    return list(seen.values())


def _players(handles: list[str]) -> list[Player]:
    """The players of ``handles`` (any case); all unknown ones refused together."""
    lowered = Player.objects.annotate(lowered=Lower("handle"))
    found = {p.lowered: p for p in lowered.filter(lowered__in=[h.lower() for h in handles])}
    missing = [h for h in handles if h.lower() not in found]
    if missing:
        raise TournamentError("unknown-handles", handles=", ".join(missing))
    return [found[h.lower()] for h in handles]


def _first_open_round(tournament: Tournament) -> int:
    """The first round not published yet: where a change of players takes effect."""
    top = tournament.rounds.exclude(status=Round.Status.PAIRED).aggregate(top=Max("number"))
    return (top["top"] or 0) + 1


def _snapshot(tournament: Tournament, registrations: list[Registration]) -> None:
    """Each registration's rating: the player's newest published ranking number."""
    ratings = latest_ratings(game=tournament.game, players=[r.player for r in registrations])
    changed = [r for r in registrations if r.rating != ratings.get(r.player_id)]
    for reg in changed:
        reg.rating = ratings.get(reg.player_id)
    Registration.objects.bulk_update(changed, ["rating"])


def registrations_add(
    *, tournament: Tournament, handles: str | Iterable[str], check_in: bool = False, by: Any = None
) -> list[Registration]:
    """Register the players of a pasted list of handles (all or none; the already
    registered are kept as they are). Before round 1 is published only; later
    arrivals are late entrants (:func:`registration_add_late`)."""
    _allow(by, tournament)
    wanted = parse_handles(handles)
    if not wanted:
        raise TournamentError("no-handles")
    players = _players(wanted)
    with transaction.atomic():
        locked = _lock(tournament)
        if _first_open_round(locked) > 1:
            raise TournamentError("tournament-started")
        known = set(locked.registrations.values_list("player_id", flat=True))
        added = Registration.objects.bulk_create(
            Registration(tournament=locked, player=p, checked_in=check_in)
            for p in players
            if p.pk not in known
        )
        if check_in:
            _snapshot(locked, added)
    return added


def registration_check_in(
    *, registration: Registration, checked_in: bool = True, by: Any = None
) -> Registration:
    """Check a player in (their rating is taken now), or undo it before they played."""
    tournament = registration.tournament
    _allow(by, tournament)
    with transaction.atomic():
        _lock(tournament)
        reg = Registration.objects.select_related("player").get(pk=registration.pk)
        if not checked_in and _has_played(reg):
            raise TournamentError("already-playing", player=reg.player.handle)
        reg.checked_in = checked_in
        reg.save(update_fields=["checked_in"])
        if checked_in:
            _snapshot(tournament, [reg])
    return reg


def _has_played(reg: Registration) -> bool:
    seats = TableSeat.objects.filter(table__round__tournament_id=reg.tournament_id)
    byes = RoundBye.objects.filter(round__tournament_id=reg.tournament_id)
    return (
        seats.filter(player_id=reg.player_id).exists()
        or byes.filter(player_id=reg.player_id).exists()
    )


def registration_withdraw(
    *, registration: Registration, from_round: int | None = None, by: Any = None
) -> Registration:
    """Withdraw a player from round ``from_round`` on (default: the first round not
    published). Their earlier results stay in the standings."""
    tournament = registration.tournament
    _allow(by, tournament)
    with transaction.atomic():
        locked = _lock(tournament)
        reg = Registration.objects.select_related("player").get(pk=registration.pk)
        first_open = _first_open_round(locked)
        number = first_open if from_round is None else from_round
        if number < first_open:
            raise TournamentError(
                "withdraw-published", player=reg.player.handle, round=number, next=first_open
            )
        reg.withdrawn_from_round = number
        reg.save(update_fields=["withdrawn_from_round"])
    return reg


def registration_add_late(
    *, tournament: Tournament, player: Player, by: Any = None
) -> Registration:
    """A late entrant: registered and checked in, paired from the first round not yet
    published; the rounds before are missed (no points) unless a bye is granted."""
    _allow(by, tournament)
    with transaction.atomic():
        locked = _lock(tournament)
        if locked.status == Tournament.Status.FINISHED:
            raise TournamentError("tournament-finished")
        if locked.registrations.filter(player=player).exists():
            raise TournamentError("already-registered", player=player.handle)
        reg = Registration.objects.create(
            tournament=locked,
            player=player,
            checked_in=True,
            joins_round=_first_open_round(locked),
        )
        _snapshot(locked, [reg])
    return reg


def round_bye_grant(*, round: Round, player: Player, by: Any = None) -> RoundBye:
    """Grant a late entrant a bye (the tournament's bye points) for a round they missed."""
    tournament = round.tournament
    _allow(by, tournament)
    with transaction.atomic():
        _lock(tournament)
        rnd = Round.objects.get(pk=round.pk)
        reg = tournament.registrations.filter(player=player).first()
        if reg is None:
            raise TournamentError("not-registered", player=player.handle)
        if reg.joins_round <= rnd.number:
            raise TournamentError("bye-not-missed", player=player.handle, round=rnd.number)
        if not rnd.is_published:
            raise TournamentError("bye-unpublished", round=rnd.number)
        if rnd.byes.filter(player=player).exists():
            raise TournamentError("bye-exists", player=player.handle, round=rnd.number)
        return RoundBye.objects.create(round=rnd, player=player, granted=True)
