"""Disputes on the site (``scoring.disputes``): a seated player contests a match from
its page (``/matches/<id>/contest/``, a POST); its club's organisers and the
federation's admins list the disputes (``/matches/disputes/``, by club and status,
paginated) and settle them (``/matches/disputes/<d>/settle/``, a POST). Every refusal
comes back as a message on the page it came from."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from core.refusals import refused_onto
from federation.permissions import organised_clubs
from federation.players import player_of
from scoring.disputes import (
    DISPUTE_DAYS,
    dispute_open,
    dispute_settle,
    disputes_to_settle,
    disputes_visible,
    may_settle,
)
from scoring.models import Dispute, Match

PAGE_SIZE = 25


class ContestForm(forms.Form):
    """Why a player contests the match."""

    reason = forms.CharField(
        label=gettext_lazy("Why do you contest this result?"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class SettleForm(forms.Form):
    """How an organiser settles a dispute."""

    outcome = forms.ChoiceField(
        label=gettext_lazy("Outcome"),
        choices=[
            (Dispute.Status.UPHELD, gettext_lazy("Upheld (match corrected or withdrawn)")),
            (Dispute.Status.REJECTED, gettext_lazy("Rejected")),
        ],
    )
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=2000)


def match_disputes_context(request: HttpRequest, match: Match) -> dict[str, Any]:
    """What the match page shows of its disputes: the disputes (to its players and
    organisers) and the contest form (to its seated linked players)."""
    rows = disputes_visible(match, request.user)
    player = player_of(request.user)
    seated = player is not None and match.seats.filter(player=player).exists()
    return {
        "disputes": list(rows) if rows is not None else [],
        "may_contest": seated
        and match.status != "withdrawn"
        and timezone.now() - match.submitted_at <= timedelta(days=DISPUTE_DAYS),
        "contest_form": ContestForm(),
        "dispute_days": DISPUTE_DAYS,
        "may_settle": may_settle(request.user, match),
    }


@login_required
@require_POST
def match_contest(request: HttpRequest, pk: int) -> HttpResponse:
    """A seated player contests the match (its page's form)."""
    match = get_object_or_404(Match.objects.select_related("club"), pk=pk)
    with refused_onto(request=request) as refused:
        dispute_open(match=match, user=request.user, reason=request.POST.get("reason"))
    if refused.exception is None:
        messages.success(request, _("Your dispute was sent to the club's organisers."))
    return redirect("match-detail", pk=match.pk)


@login_required
def dispute_list(request: HttpRequest) -> HttpResponse:
    """The disputes the user may settle, open ones first by default."""
    clubs = organised_clubs(request.user).order_by("name")
    rows = disputes_to_settle(request.user)
    club = request.GET.get("club", "")
    if club:
        rows = rows.filter(match__club__slug=club)
    state = request.GET.get("status", Dispute.Status.OPEN)
    if state in Dispute.Status.values:
        rows = rows.filter(status=state)
    page = Paginator(rows.order_by("-created_at", "-id"), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    for dispute in page.object_list:  # one form each, its own ids
        dispute.settle_form = SettleForm(auto_id=f"id_%s_{dispute.pk}")  # type: ignore[attr-defined]
    return render(
        request,
        "scoring/disputes.html",
        {
            "page": page,
            "clubs": clubs,
            "club": club,
            "state": state,
            "states": Dispute.Status.choices,
        },
    )


@login_required
@require_POST
def dispute_settle_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Settle a dispute from the list (others: 403)."""
    dispute = get_object_or_404(Dispute.objects.select_related("match__club"), pk=pk)
    with refused_onto(request=request) as refused:
        dispute_settle(
            dispute=dispute,
            by=request.user,
            outcome=request.POST.get("outcome"),
            reason=request.POST.get("reason"),
        )
    if refused.exception is None:
        messages.success(request, _("The dispute was settled."))
    back = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return redirect(back)
    return redirect("dispute-list")
