"""A table's result from a phone: the QR code of the table and its report page.

``/tournaments/<slug>/rounds/<n>/tables/<t>/qr.svg`` is a QR code (segno) of the
table's report page, for the round's sheets and the manage page.
``…/tables/<t>/report/`` is for the table's seated players (logged in, their account
linked to their player): the game's guided form (the club entry's score sheet or
summary, the table's players fixed) stores a *report* (``services.reports``), and the
reports of the others are shown with a button to confirm and a form to contest them.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.refusals import refused_onto
from core.site import absolute_url
from federation.players import player_of
from scoring.web.entry import GAMES, Saver
from scoring.web.forms import MatchHeaderForm
from tournaments import selectors
from tournaments.models import Table, Tournament
from tournaments.qr import qr_svg
from tournaments.services.reports import (
    ACCEPTABLE,
    report_confirm,
    report_contest,
    report_standings,
    report_submit,
    seated_player,
    table_state,
)
from tournaments.views_results import _which, table_form_page


def _table(slug: str, number: int, table: int) -> tuple[Tournament, Table]:
    tournament = get_object_or_404(Tournament.objects.select_related("game", "club"), slug=slug)
    found = selectors.table_get(tournament, number, table)
    if not found.round.is_published:
        raise Http404("round not published")
    return tournament, found


def table_qr(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """The QR code (SVG) of the table's report page, for a published round."""
    tournament, found = _table(slug, number, table)
    address = absolute_url("tournament-table-report", tournament.slug, number, found.number)
    response = HttpResponse(qr_svg(address), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=3600"
    return response


def _report_saver(found: Table) -> Saver:
    def save(
        request: HttpRequest, header: MatchHeaderForm, record: dict[str, Any] | None
    ) -> tuple[HttpResponse | None, dict[str, Any] | None]:
        if record is None or not header.is_valid():
            return None, None
        with refused_onto() as refused:
            report_submit(table=found, user=request.user, record=record)
            messages.success(request, _("Your report waits for the other players' confirmation."))
            return redirect(request.path), None
        return None, refused.error

    return save


@login_required
def table_report(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """The seated player's page: the table's reports, and the guided form to report."""
    tournament, found = _table(slug, number, table)
    player = seated_player(found, request.user)  # refused (403) for anyone else
    game = tournament.game.key
    which = _which(request, game)
    if which == "record" or game not in GAMES:
        which = "sheet" if game == "divisor" else "summary"
    state = table_state(found)
    # each open report with its result as the engine replays it: what the others confirm
    opened = {r.pk: r for r in found.reports.filter(status__in=ACCEPTABLE)}
    for row in state["reports"]:
        if row["id"] in opened:
            row["result"] = report_standings(opened[row["id"]])
    extra = {
        "me": player.handle,
        "state": state,
        "seats_fixed": _("The table's players, in seat order."),
    }
    templates = ("tournaments/table_report_sheet.html", "tournaments/table_report_summary.html")
    return table_form_page(request, found, which, _report_saver(found), templates, extra)


@login_required
@require_POST
def table_report_reply(
    request: HttpRequest, slug: str, number: int, table: int, action: str
) -> HttpResponse:
    """Confirm or contest a report from the report page."""
    _tournament, found = _table(slug, number, table)
    report_id = request.POST.get("report")
    with refused_onto(request=request):
        if action == "confirm":
            report = report_confirm(table=found, user=request.user, report_id=report_id)
            if report.status == "recorded":
                messages.success(request, _("Every player confirmed: the result is recorded."))
            else:
                messages.success(request, _("Your confirmation is stored."))
        else:
            reason = request.POST.get("reason")
            report_contest(table=found, user=request.user, report_id=report_id, reason=reason)
            messages.success(request, _("The result is contested: the organiser settles it."))
    return redirect("tournament-table-report", slug=slug, number=number, table=table)


@login_required
def my_tables(request: HttpRequest) -> HttpResponse:
    """``/tournaments/my-tables/``: the linked player's tables of published rounds still
    waiting for their result, each with its state and its report page."""
    player = player_of(request.user)
    tables = []
    if player is not None:
        found = (
            Table.objects.filter(seats__player=player, match__isnull=True)
            .exclude(round__status="paired")
            .select_related("round__tournament")
            .order_by("-round__published_at", "number")[:20]
        )
        tables = [(t, table_state(t)["state"]) for t in found]
    return render(request, "tournaments/my_tables.html", {"player": player, "tables": tables})
