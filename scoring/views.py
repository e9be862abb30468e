"""Server-rendered match pages and the organisers' submission form (thin views)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring.errors import MatchRejected, warning
from scoring.forms import MatchSubmitForm
from scoring.selectors import match_list, parse_month, score_table, show_value
from scoring.services import match_record


def match_index(request: HttpRequest) -> HttpResponse:
    params = request.GET
    month = parse_month(params.get("month", ""))
    matches = match_list(
        game=params.get("game") or None,
        club=params.get("club") or None,
        player=params.get("player") or None,
        month=month,
    )
    page = Paginator(matches, 25).get_page(params.get("page"))
    return render(request, "scoring/match_list.html", {"page": page})


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(match_list(), pk=pk)
    columns, rows = score_table(match.result)
    seats = [(seat, show_value(seat.details)) for seat in match.seats.all()]
    context = {"match": match, "columns": columns, "rows": rows, "seats": seats}
    return render(request, "scoring/match_detail.html", context)


def _language() -> str:
    return "fr" if (get_language() or "").startswith("fr") else "en"


@login_required
def match_submit(request: HttpRequest) -> HttpResponse:
    """Paste or upload a record; it is replayed and stored whole, or refused with the move."""
    form = MatchSubmitForm(request.POST or None, request.FILES or None, user=request.user)
    error = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            recorded = match_record(
                club=data["club"],
                played_on=data["played_on"],
                record=data["record"],
                submitted_by=request.user,
            )
        except PermissionDenied:
            error = {"message": _("You may only submit matches for a club you organise.")}
        except MatchRejected as exc:
            error = exc.payload(_language())
        else:
            for code, params in recorded.warnings:
                messages.warning(request, warning(code, _language(), **params)["message"])
            messages.success(request, _("The match was recorded."))
            return redirect("match-detail", pk=recorded.match.pk)
    status = 400 if request.method == "POST" else 200
    return render(
        request, "scoring/match_submit.html", {"form": form, "error": error}, status=status
    )
