"""When a tournament and its rounds take place (calendars, webhooks, the archive).

The tournament starts on ``starts_on`` at ``start_time`` in ``time_zone``. Round n
starts at the time the organiser gave it, else when the round before ends (its start
plus ``round_minutes``; round 1: the tournament's start). So moving one round moves
the ones after it that have no time of their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from tournaments.models import Round, Tournament


def zone(tournament: Tournament) -> ZoneInfo:
    return ZoneInfo(tournament.time_zone)


def tournament_start(tournament: Tournament) -> datetime:
    return datetime.combine(tournament.starts_on, tournament.start_time, tzinfo=zone(tournament))


def round_length(tournament: Tournament) -> timedelta:
    return timedelta(minutes=tournament.round_minutes)


def round_starts(tournament: Tournament, rounds: Iterable[Round]) -> dict[int, datetime]:
    """The start of every round, planned or paired (in the tournament's time zone)."""
    given = {rnd.number: rnd.starts_at for rnd in rounds}
    last = max([tournament.rounds_planned, *given]) if given else tournament.rounds_planned
    starts: dict[int, datetime] = {}
    start = tournament_start(tournament)
    for number in range(1, last + 1):
        if given.get(number) is not None:
            start = given[number].astimezone(zone(tournament))  # type: ignore[union-attr]
        elif number > 1:
            start = starts[number - 1] + round_length(tournament)
        starts[number] = start
    return starts


def round_start(rnd: Round) -> datetime:
    """One round's start (reads the tournament's other rounds when it has no time)."""
    if rnd.starts_at is not None:
        return rnd.starts_at.astimezone(zone(rnd.tournament))
    earlier = rnd.tournament.rounds.filter(number__lt=rnd.number)
    return round_starts(rnd.tournament, [*earlier, rnd])[rnd.number]


def tournament_end(tournament: Tournament, starts: dict[int, datetime]) -> datetime:
    last = starts[max(starts)] if starts else tournament_start(tournament)
    return last + round_length(tournament)
