"""The schedule: when the tournament starts, when a round starts (``tournaments.schedule``
says how the times follow from each other)."""

from __future__ import annotations

import zoneinfo
from datetime import datetime, time
from typing import Any

from django.db import transaction

from tournaments.errors import TournamentError
from tournaments.models import Round, Tournament
from tournaments.services._common import _allow, _lock

#: the longest round a calendar shows (a day)
MAX_ROUND_MINUTES = 24 * 60


def schedule_check(*, time_zone: str, round_minutes: int) -> None:
    if time_zone not in zoneinfo.available_timezones():
        raise TournamentError("time-zone-unknown", zone=str(time_zone)[:64])
    if not 1 <= round_minutes <= MAX_ROUND_MINUTES:
        raise TournamentError("round-minutes", most=MAX_ROUND_MINUTES)


def tournament_schedule(
    *,
    tournament: Tournament,
    by: Any = None,
    start_time: time | None = None,
    time_zone: str | None = None,
    round_minutes: int | None = None,
) -> Tournament:
    """Change the tournament's start time, time zone or round length."""
    _allow(by, tournament)
    with transaction.atomic():
        locked = _lock(tournament)
        for name, value in (
            ("start_time", start_time),
            ("time_zone", time_zone),
            ("round_minutes", round_minutes),
        ):
            if value is not None:
                setattr(locked, name, value)
        schedule_check(time_zone=locked.time_zone, round_minutes=locked.round_minutes)
        locked.schedule_changes += 1
        locked.save()
    return locked


def round_schedule(*, round: Round, starts_at: datetime | None, by: Any = None) -> Round:
    """Give a round its start (None: right after the round before); calendars update."""
    tournament = round.tournament
    _allow(by, tournament)
    with transaction.atomic():
        locked = _lock(tournament)
        rnd = Round.objects.get(pk=round.pk)
        if rnd.starts_at != starts_at:
            rnd.starts_at = starts_at
            rnd.save(update_fields=["starts_at"])
            locked.schedule_changes += 1
            locked.save(update_fields=["schedule_changes"])
    return rnd
