"""Server-rendered match pages (thin: selectors do the work)."""

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from scoring.selectors import match_list, parse_month, score_table, show_value


def match_index(request: HttpRequest) -> HttpResponse:
    params = request.GET
    month = parse_month(params.get("month", ""))
    matches = match_list(
        game=params.get("game") or None, club=params.get("club") or None,
        player=params.get("player") or None, month=month,
    )
    page = Paginator(matches, 25).get_page(params.get("page"))
    return render(request, "scoring/match_list.html", {"page": page})


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(match_list(), pk=pk)
    columns, rows = score_table(match.result)
    seats = [(seat, show_value(seat.details)) for seat in match.seats.all()]
    context = {"match": match, "columns": columns, "rows": rows, "seats": seats}
    return render(request, "scoring/match_detail.html", context)
