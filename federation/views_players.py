"""Pages of player accounts: a user claims their player, an organiser decides."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.refusals import refused_onto
from federation.forms import PlayerClaimForm
from federation.models import PlayerClaim
from federation.players import claim_decide, claim_request, claims_to_decide, player_of


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
    context = {"form": form, "player": player_of(request.user), "claims": claims}
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
