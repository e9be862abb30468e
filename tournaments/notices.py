"""Mails to the players of a tournament (``federation.notifications``): a round's
pairings published (their table and seat), a table result waiting for their
confirmation, their table's dispute settled by the organiser. Sent once the write
commits, once per object and player."""

from __future__ import annotations

from core.site import absolute_url
from federation.notifications import Kind, notify
from scoring.models import Match
from tournaments.models import Round, Table, TableReport, TableSeat


def round_published(rnd: Round) -> None:
    """Each seated player with an account: their table and seat in the new round."""
    tournament = rnd.tournament
    seats = (
        TableSeat.objects.filter(table__round=rnd, player__user__isnull=False)
        .select_related("table", "player__user")
        .order_by("table__number", "seat")
    )
    for seat in seats:
        context = {
            "tournament": tournament.name,
            "round": rnd.number,
            "table": seat.table.number,
            "seat": seat.seat + 1,
            "url": absolute_url("tournament-round", tournament.slug, rnd.number),
        }
        notify(Kind.PAIRINGS_PUBLISHED, seat.player, f"round:{rnd.pk}", context)


def report_waiting(report: TableReport) -> None:
    """The table's other players with an account: a result waits for their confirmation."""
    table = report.table
    rnd = table.round
    tournament = rnd.tournament
    url = absolute_url("tournament-table-report", tournament.slug, rnd.number, table.number)
    seats = (
        table.seats.filter(player__user__isnull=False)
        .exclude(player_id=report.reported_by_id)
        .select_related("player__user")
    )
    for seat in seats:
        context = {
            "tournament": tournament.name,
            "round": rnd.number,
            "table": table.number,
            "reported_by": report.reported_by.public_display_name,
            "url": url,
        }
        notify(Kind.REPORT_TO_CONFIRM, seat.player, f"report:{report.pk}", context)


def table_dispute_settled(table: Table, match: Match, *, accepted: str = "") -> None:
    """The table's players with an account: the organiser settled the table's dispute,
    accepting the report of ``accepted`` (a name) or entering the result."""
    rnd = table.round
    tournament = rnd.tournament
    seats = table.seats.filter(player__user__isnull=False).select_related("player__user")
    for seat in seats:
        context = {
            "title": tournament.name,
            "tournament": tournament.name,
            "round": rnd.number,
            "table": table.number,
            "outcome": "accepted" if accepted else "entered",
            "accepted": accepted,
            "url": absolute_url("match-detail", match.pk),
        }
        notify(Kind.DISPUTE_SETTLED, seat.player, f"table:{table.pk}", context)
