"""Pages of player accounts: a user claims their player, an organiser decides."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.refusals import refused_onto
from federation.forms import PlayerClaimForm, PlayerInviteForm
from federation.models import Player, PlayerClaim
from federation.players import (
    claim_decide,
    claim_request,
    claims_to_decide,
    invitation_accept,
    invitation_open,
    invitation_send,
    player_of,
)
from federation.views_notifications import setting_form


@login_required
def player_claim(request: HttpRequest) -> HttpResponse:
    """``/account/player/``: the account's player, or a form to claim one."""
    form = PlayerClaimForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with refused_onto(form):
            claim_request(user=request.user, handle=form.cleaned_data["handle"])
            messages.success(request, _("Your claim waits for an organiser of the club."))
            return redirect("player-claim")
    claims = PlayerClaim.objects.filter(user_id=request.user.pk or 0).select_related("player")[:10]
    player = player_of(request.user)
    mails = setting_form(player)
    context = {"form": form, "player": player, "claims": claims, "mails": mails}
    return render(request, "federation/player_claim.html", context)


@login_required
def claim_list(request: HttpRequest) -> HttpResponse:
    """``/organiser/claims/``: the claims waiting for this organiser."""
    return render(request, "federation/claim_list.html", {"claims": claims_to_decide(request.user)})


@login_required
@require_POST
def claim_decision(request: HttpRequest, pk: int) -> HttpResponse:
    claim = get_object_or_404(PlayerClaim, pk=pk)
    approve = request.POST.get("decision") == "approve"
    with refused_onto(request=request):
        claim_decide(claim=claim, by=request.user, approve=approve)
        if approve:
            messages.success(request, _("The account is linked to its player."))
        else:
            messages.success(request, _("The claim is rejected."))
    return redirect("claim-list")


@login_required
def invitation_new(request: HttpRequest) -> HttpResponse:
    """``/organiser/invitations/new/``: invite a player of one's club by e-mail."""
    form = PlayerInviteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        player = Player.objects.by_handle(form.cleaned_data["handle"]).first()
        if player is None:
            form.add_error("handle", _("There is no player with this handle."))
        else:
            with refused_onto(form):
                invitation_send(player=player, email=form.cleaned_data["email"], by=request.user)
                messages.success(request, _("The invitation is sent."))
                return redirect("invitation-new")
    return render(request, "federation/invitation_new.html", {"form": form})


def invitation_accept_page(request: HttpRequest, token: str) -> HttpResponse:
    """``/account/invitation/<token>/``: a logged-in user links their account; anyone
    else creates one (username and password) that is linked at once."""
    with refused_onto(request=request) as refused:
        invitation = invitation_open(token)
    if refused.exception is not None:
        return render(request, "federation/invitation.html", {"invalid": True}, status=410)
    form: Any = None if request.user.is_authenticated else UserCreationForm(request.POST or None)
    if request.method == "POST":
        if form is not None and form.is_valid():
            user = form.save()
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        if request.user.is_authenticated:
            with refused_onto(request=request):
                invitation_accept(token=token, user=request.user)
                messages.success(request, _("The account is linked to its player."))
                return redirect("player-claim")
    context = {"invitation": invitation, "form": form}
    return render(request, "federation/invitation.html", context)
