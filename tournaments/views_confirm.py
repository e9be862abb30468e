"""The manage page's irreversible actions, confirmed first: publish a round, pair a
round again, withdraw a player (``core.confirm``).

The manage page sends a GET to the action's address; the answer names what will
happen and its button POSTs with ``confirm=1``, which the action of
``views_manage`` then carries out. A POST without ``confirm=1`` is answered with
the same confirmation page, nothing done."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core.confirm import confirm_page, confirmed
from core.refusals import refused_onto
from tournaments import selectors, views_manage
from tournaments.models import Registration, Round, TableReport, Tournament
from tournaments.services.reports import report_accept, report_standings


def _manage_url(tournament: Tournament) -> str:
    return reverse("tournament-manage", args=[tournament.slug])


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(
        Round.objects.prefetch_related("tables", "byes"), tournament=tournament, number=number
    )


@login_required
@require_http_methods(["GET", "POST"])
def round_publish(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    if confirmed(request):
        return views_manage.round_publish(request, slug, number)
    tournament = views_manage._managed(request, slug)
    rnd = _round(tournament, number)
    counts = {"tables": len(rnd.tables.all()), "byes": len(rnd.byes.all())}
    return confirm_page(
        request,
        title=_("Publish round %(round)s of %(tournament)s?")
        % {"round": number, "tournament": tournament.name},
        facts=[_("%(tables)s tables, %(byes)s byes.") % counts],
        consequence=_(
            "Publishing shows the tables to everyone and makes them final: no swap "
            "and no new pairing of this round afterwards. Results can then be entered."
        ),
        button=_("Publish round %(round)s") % {"round": number},
        cancel=_manage_url(tournament),
    )


@login_required
@require_http_methods(["GET", "POST"])
def round_repair(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    if confirmed(request):
        return views_manage.round_repair(request, slug, number)
    tournament = views_manage._managed(request, slug)
    rnd = _round(tournament, number)
    return confirm_page(
        request,
        title=_("Pair round %(round)s of %(tournament)s again?")
        % {"round": rnd.number, "tournament": tournament.name},
        facts=[_("%(tables)s tables paired now.") % {"tables": len(rnd.tables.all())}],
        consequence=_(
            "The round's tables and byes, with any swaps made by hand, are replaced by "
            "a new pairing. This cannot be undone."
        ),
        button=_("Pair round %(round)s again") % {"round": rnd.number},
        cancel=_manage_url(tournament),
    )


@login_required
@require_http_methods(["GET", "POST"])
def registration_withdraw(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    if confirmed(request):
        return views_manage.registration_withdraw(request, slug, pk)
    tournament = views_manage._managed(request, slug)
    reg = get_object_or_404(
        Registration.objects.select_related("player"), pk=pk, tournament=tournament
    )
    data = request.POST if request.method == "POST" else request.GET
    from_round = data.get("from_round", "").strip()
    player = reg.player.public_display_name
    if from_round.isdigit():
        when = _("%(player)s withdraws from round %(round)s on.") % {
            "player": player,
            "round": from_round,
        }
    else:
        from_round = ""
        when = _("%(player)s withdraws from the next round on.") % {"player": player}
    return confirm_page(
        request,
        title=_("Withdraw %(player)s from %(tournament)s?")
        % {"player": player, "tournament": tournament.name},
        facts=[when],
        consequence=_(
            "A withdrawn player is no longer paired; their results so far stay in the "
            "standings. This cannot be undone."
        ),
        button=_("Withdraw %(player)s") % {"player": player},
        cancel=_manage_url(tournament),
        fields={"from_round": from_round},
    )


@login_required
@require_http_methods(["GET", "POST"])
def table_accept(
    request: HttpRequest, slug: str, number: int, table: int, report: int
) -> HttpResponse:
    """The organiser settles a table's dispute with one of its reports (403 for
    anyone else); the confirmed POST records it (``services.reports.report_accept``)."""
    tournament = views_manage._managed(request, slug)
    found = selectors.table_get(tournament, number, table)
    chosen = get_object_or_404(
        TableReport.objects.select_related("reported_by"), pk=report, table=found
    )
    if confirmed(request):
        with refused_onto(request=request):
            report_accept(table=found, user=request.user, report_id=chosen.pk)
            messages.success(
                request,
                _(
                    "The report of %(player)s is accepted: the result of table %(table)s is recorded."
                )
                % {"player": chosen.reported_by.public_display_name, "table": found.number},
            )
        return redirect(_manage_url(tournament) + "#disputes")
    ranks = ", ".join(
        f"{row['rank']}. {row['player']} ({row['score']})" for row in report_standings(chosen)
    )
    return confirm_page(
        request,
        title=_("Accept the report of %(player)s for table %(table)s, round %(round)s?")
        % {
            "player": chosen.reported_by.public_display_name,
            "table": found.number,
            "round": number,
        },
        facts=[_("Its result: %(ranks)s.") % {"ranks": ranks}],
        consequence=_(
            "The table's result is recorded from this report, as if every player had "
            "confirmed it; the other reports are closed and the players are told by mail."
        ),
        button=_("Accept this report"),
        cancel=_manage_url(tournament) + "#disputes",
    )
