"""Calendar feeds (RFC 5545, through ``icalendar``): tournaments and their rounds.

Each tournament is one event (from its start to the end of its last round) and each
of its rounds one more (``"<tournament> — Round n"``, from the round's start for
``round_minutes``), planned rounds included: their times follow from the schedule
(``tournaments.schedule``). Times carry the tournament's time zone (a VTIMEZONE per
zone). UIDs are stable (``tournament-<id>@<host>``, ``round-<id>-<n>@<host>``) and
SEQUENCE is the tournament's count of schedule changes, so that a calendar replaces an
event whose time moved. Links are absolute (``SITE_URL``).

A *player's feed* holds only the rounds the player is paired in (at a table or with
a bye), each saying where they sit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import icalendar
from django.db.models import Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from core.site import absolute_url, site_host
from federation.models import Player
from tournaments.models import Round, RoundBye, Table, TableSeat, Tournament
from tournaments.schedule import round_length, round_starts, tournament_end, tournament_start

PRODUCT = "-//Quotient//Tournaments//EN"


@dataclass
class Seating:
    """Where a player is in one round: a table (with the others there) or a bye."""

    table: int | None = None
    seat: int | None = None
    others: list[str] = field(default_factory=list)


def feed(name: str, events: list[icalendar.Event]) -> bytes:
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODUCT)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    for event in events:
        calendar.add_component(event)
    calendar.add_missing_timezones()
    return calendar.to_ical()


def _event(
    uid: str, summary: str, start: datetime, end: datetime, sequence: int
) -> icalendar.Event:
    event = icalendar.Event()
    event.add("uid", f"{uid}@{site_host()}")
    event.add("dtstamp", timezone.now().astimezone(UTC))
    event.add("dtstart", start)
    event.add("dtend", end)
    event.add("summary", summary)
    event.add("sequence", sequence)
    return event


def _location(tournament: Tournament) -> str:
    club = tournament.club
    return f"{club.name}, {club.city}" if club.city else club.name


def tournament_events(tournament: Tournament, rounds: Iterable[Round]) -> list[icalendar.Event]:
    """The tournament's event, then one per round (planned ones included)."""
    starts = round_starts(tournament, rounds)
    main = _event(
        f"tournament-{tournament.pk}",
        tournament.name,
        tournament_start(tournament),
        tournament_end(tournament, starts),
        tournament.schedule_changes,
    )
    url = absolute_url("tournament-detail", tournament.slug)
    main.add("url", url)
    main.add("location", _location(tournament))
    main.add("description", f"{tournament.game.label} · {tournament.club.name}\n{url}")
    return [main, *(_round_event(tournament, n, start) for n, start in starts.items())]


def _round_event(
    tournament: Tournament, number: int, start: datetime, seating: Seating | None = None
) -> icalendar.Event:
    summary = _("%(tournament)s — Round %(number)s") % {
        "tournament": tournament.name,
        "number": number,
    }
    event = _event(
        f"round-{tournament.pk}-{number}",
        summary,
        start,
        start + round_length(tournament),
        tournament.schedule_changes,
    )
    url = absolute_url("tournament-round", tournament.slug, number)
    event.add("url", url)
    event.add("location", _location(tournament))
    event.add("description", "\n".join([*_where(seating), url]))
    return event


def _where(seating: Seating | None) -> list[str]:
    if seating is None:
        return []
    if seating.table is None:
        return [_("A bye this round.")]
    where = _("Table %(table)s, seat %(seat)s") % {"table": seating.table, "seat": seating.seat}
    if seating.others:
        where += " — " + _("with %(players)s") % {"players": ", ".join(seating.others)}
    return [where]


def tournaments_feed(name: str, tournaments: QuerySet[Tournament]) -> bytes:
    """Every tournament of ``tournaments`` with all its rounds."""
    events: list[icalendar.Event] = []
    for tournament in tournaments.select_related("game", "club").prefetch_related("rounds"):
        events += tournament_events(tournament, tournament.rounds.all())
    return feed(name, events)


def player_feed(player: Player) -> bytes:
    """The rounds ``player`` is paired in (published ones), and their tournaments."""
    placed = _placements(player)
    events: list[icalendar.Event] = []
    for tournament, rounds in placed.items():
        starts = round_starts(tournament, tournament.rounds.all())
        events += tournament_events(tournament, [])[:1]
        for number, seating in rounds.items():
            events.append(_round_event(tournament, number, starts[number], seating))
    return feed(player.public_display_name, events)


def _placements(player: Player) -> dict[Tournament, dict[int, Seating]]:
    """The published rounds ``player`` sits in, by tournament."""
    seats = TableSeat.objects.select_related("player").order_by("seat")
    tables = (
        Table.objects.filter(seats__player=player, round__status__in=PUBLISHED)
        .select_related("round__tournament__club", "round__tournament__game")
        .prefetch_related(Prefetch("seats", queryset=seats), "round__tournament__rounds")
    )
    byes = RoundBye.objects.filter(player=player, round__status__in=PUBLISHED).select_related(
        "round__tournament__club", "round__tournament__game"
    )
    placed: dict[Tournament, dict[int, Seating]] = {}
    for table in tables:
        mine = next(s for s in table.seats.all() if s.player_id == player.pk)
        others = [s.player.public_display_name for s in table.seats.all() if s is not mine]
        rounds = placed.setdefault(table.round.tournament, {})
        rounds[table.round.number] = Seating(table.number, mine.seat + 1, others)
    for bye in byes:
        placed.setdefault(bye.round.tournament, {})[bye.round.number] = Seating()
    return placed


PUBLISHED = [Round.Status.PUBLISHED, Round.Status.COMPLETE]
