"""Server-rendered pages for matches and players (thin: selectors do the work)."""

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from scoring.selectors import match_list, parse_month, score_sheet
from tournaments.models import Player


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
    context = {
        "match": match,
        "sheet": score_sheet(match.result),
        "seats": list(match.seats.all()),
    }
    return render(request, "scoring/match_detail.html", context)


def player_detail(request: HttpRequest, handle: str) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("club"), handle__iexact=handle)
    page = Paginator(match_list(player=player.handle), 25).get_page(request.GET.get("page"))
    return render(request, "scoring/player_detail.html", {"player": player, "page": page})
