"""Withdrawing a match, confirmed first (``/matches/<id>/withdraw/``).

The match page's withdrawal form is a GET to this address with the reason; the
answer names the match and what withdrawing does, and its button POSTs the reason
with ``confirm=1`` (``core.confirm``). A POST of the match page with
``action=withdraw`` but without ``confirm=1`` is answered with the same page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from core.confirm import confirm_page, confirmed
from core.refusals import refused_onto
from federation.permissions import can_write_for_club
from scoring.models import Match, Status
from scoring.selectors import match_rows
from scoring.services import match_withdraw
from scoring.templatetags.results import by_rank
from scoring.web.forms import MatchWithdrawForm


@login_required
def match_withdraw_page(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the confirmation (the reason given, or asked for); POST with
    ``confirm=1`` and a reason: the match is withdrawn."""
    match = get_object_or_404(match_rows(), pk=pk)
    if not can_write_for_club(request.user, match.club) or match.status == Status.WITHDRAWN:
        raise PermissionDenied
    return withdraw_confirmation(request, match)


def withdraw_confirmation(request: HttpRequest, match: Match) -> HttpResponse:
    """The confirmation page of ``match``'s withdrawal, or the withdrawal itself for a
    confirmed POST (the caller checked the user's right)."""
    data = request.POST if request.method == "POST" else request.GET
    form = MatchWithdrawForm(data if "reason" in data else None)
    if confirmed(request) and form.is_valid():
        with refused_onto(form):
            match_withdraw(match=match, reason=form.cleaned_data["reason"], by=request.user)
            messages.success(request, _("The match was withdrawn."))
            return redirect("match-detail", pk=match.pk)
    players = ", ".join(
        (f"{seat.rank}. " if seat.rank else "") + seat.player.public_display_name
        for seat in by_rank(match.seats.all())
    )
    facts = [
        _("Match #%(number)s, %(game)s, %(club)s, %(day)s")
        % {
            "number": match.pk,
            "game": match.game.label,
            "club": match.club.name,
            "day": date_format(match.played_on, "DATE_FORMAT"),
        },
        _("Players: %(players)s") % {"players": players},
    ]
    return confirm_page(
        request,
        title=_("Withdraw match #%(number)s?") % {"number": match.pk},
        facts=facts,
        consequence=_(
            "A withdrawn match stays visible with its history but no longer counts in "
            "the ranking. This cannot be undone."
        ),
        button=_("Withdraw the match"),
        cancel=reverse("match-detail", args=[match.pk]),
        form=form,
        status=400 if request.method == "POST" and form.errors else 200,
        path=reverse("match-withdraw", args=[match.pk]),
    )
