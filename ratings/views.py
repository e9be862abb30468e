"""Public ranking pages: the list of a game's month, and the months published."""

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from federation.models import Game
from ratings.selectors import ranking_entries, ranking_get, ranking_months
from scoring.selectors import parse_month


def ranking_index(request: HttpRequest) -> HttpResponse:
    games = [(game, ranking_months(game=game.key).first()) for game in Game.objects.all()]
    return render(request, "ratings/index.html", {"games": games})


def ranking_game(request: HttpRequest, game: str) -> HttpResponse:
    game_obj = get_object_or_404(Game, key=game)
    months = ranking_months(game=game)
    latest = months.first()
    if latest is None:
        return render(request, "ratings/game.html", {"game": game_obj, "months": []})
    return ranking_month(request, game, latest.month.strftime("%Y-%m"))


def ranking_month(request: HttpRequest, game: str, month: str) -> HttpResponse:
    game_obj = get_object_or_404(Game, key=game)
    first_day = parse_month(month)
    ranking = ranking_get(game=game, month=first_day) if first_day else None
    if ranking is None:
        raise Http404("no published list for this month")
    page = Paginator(ranking_entries(ranking, provisional=False), 100).get_page(
        request.GET.get("page")
    )
    context = {
        "game": game_obj,
        "ranking": ranking,
        "page": page,
        "provisional_count": ranking.entries.filter(provisional=True).count(),
        "months": ranking_months(game=game)[:24],
    }
    return render(request, "ratings/game.html", context)
