"""Self check-in from a phone: the tournament's registration QR code opens
``/tournaments/<slug>/check-in/``, where a registered player (their account linked to
their player) checks themself in with one button (``services.checkin``). The organiser
prints the QR code (``check-in/print/``) and sees the check-ins live on the manage page
(``manage/check-ins.json``, polled by ``static/quotient/checkin.js``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from core.refusals import refused_onto
from core.site import absolute_url
from federation.players import player_of
from tournaments import selectors
from tournaments.models import Tournament
from tournaments.qr import qr_svg
from tournaments.services.checkin import (
    check_in_open,
    own_registration,
    registration_self_check_in,
)
from tournaments.views_manage import _managed


def check_in_address(tournament: Tournament) -> str:
    """The absolute address of the check-in page (by ``SITE_URL``), the QR code's text."""
    return absolute_url("tournament-self-check-in", tournament.slug)


def _visible(request: HttpRequest, slug: str) -> Tournament:
    """The tournament, if public, managed by the user, or the user's player is in it."""
    tournament = get_object_or_404(Tournament.objects.select_related("game", "club"), slug=slug)
    if not (
        tournament.public
        or selectors.can_manage(request.user, tournament)
        or own_registration(tournament, request.user) is not None
    ):
        raise Http404("no such tournament")
    return tournament


@login_required
def check_in(request: HttpRequest, slug: str) -> HttpResponse:
    """The player's page: their registration and one button to check in."""
    tournament = _visible(request, slug)
    if request.method == "POST":
        with refused_onto(request=request):
            registration_self_check_in(tournament=tournament, user=request.user)
            messages.success(request, _("You are checked in. Good luck!"))
        return redirect("tournament-self-check-in", slug=slug)
    context = {
        "tournament": tournament,
        "player": player_of(request.user),
        "registration": own_registration(tournament, request.user),
        "open": check_in_open(tournament),
    }
    return render(request, "tournaments/check_in.html", context)


def check_in_qr(request: HttpRequest, slug: str) -> HttpResponse:
    """The registration QR code (SVG) of the check-in page."""
    tournament = _visible(request, slug)
    response = HttpResponse(qr_svg(check_in_address(tournament)), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=3600"
    return response


@login_required
def check_in_print(request: HttpRequest, slug: str) -> HttpResponse:
    """The registration QR code on a page of its own, to print and put at the door."""
    tournament = _managed(request, slug)
    context = {"tournament": tournament, "address": check_in_address(tournament)}
    return render(request, "tournaments/print_check_in.html", context)


@login_required
def check_ins_json(request: HttpRequest, slug: str) -> JsonResponse:
    """Who is checked in, for the manage page's live refresh."""
    tournament = _managed(request, slug)
    rows = tournament.registrations.order_by("pk").values_list("pk", "checked_in")
    registrations = [{"id": pk, "checked_in": done} for pk, done in rows]
    return JsonResponse(
        {
            "open": check_in_open(tournament),
            "registered": len(registrations),
            "checked_in": sum(r["checked_in"] for r in registrations),
            "registrations": registrations,
        }
    )
