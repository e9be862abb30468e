"""Public ranking pages: the games' latest lists, a game's month (filtered by club,
country or name, ranked players then provisional ones), and what the number means."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, render
from django_countries import countries

from federation.models import Game
from federation.months import month_label, parse_month
from ratings.engine.params import weight
from ratings.selectors import (
    ranking_clubs,
    ranking_countries,
    ranking_entries,
    ranking_filter,
    ranking_games,
    ranking_get,
    ranking_months,
)
from ratings.services import ranking_params

PER_PAGE = 100
#: the filters of a list's page, and the longest value each keeps
FILTERS = {"club": 60, "country": 2, "name": 100}


def ranking_index(request: HttpRequest) -> HttpResponse:
    games = [(row.game, row.months[0] if row.months else None) for row in ranking_games()]
    return render(request, "ratings/index.html", {"games": games})


def ranking_game(request: HttpRequest, game: str) -> HttpResponse:
    game_obj = get_object_or_404(Game, key=game)
    months = ranking_months(game=game)
    latest = months.first()
    if latest is None:
        return render(request, "ratings/game.html", {"game": game_obj, "months": []})
    return ranking_month(request, game, month_label(latest.month))


def list_filters(query: QueryDict) -> dict[str, str]:
    """The filters asked for (``?club=&country=&name=``), trimmed; empty: not asked."""
    return {name: query.get(name, "").strip()[:length] for name, length in FILTERS.items()}


def ranking_month(request: HttpRequest, game: str, month: str) -> HttpResponse:
    game_obj = get_object_or_404(Game, key=game)
    first_day = parse_month(month)
    ranking = ranking_get(game=game, month=first_day) if first_day else None
    if ranking is None:
        raise Http404("no published list for this month")
    filters = list_filters(request.GET)
    ranked = ranking_filter(ranking_entries(ranking, provisional=False), **filters)
    provisional = ranking_filter(ranking_entries(ranking, provisional=True), **filters)
    context = {
        "game": game_obj,
        "ranking": ranking,
        "month": month_label(ranking.month),
        "page": Paginator(ranked, PER_PAGE).get_page(request.GET.get("page")),
        "provisional_page": Paginator(provisional, PER_PAGE).get_page(
            request.GET.get("provisional_page")
        ),
        "filters": filters,
        "filtered": any(filters.values()),
        "clubs": ranking_clubs(ranking),
        "countries": sorted(
            ((code, countries.name(code)) for code in ranking_countries(ranking)),
            key=lambda pair: pair[1],
        ),
        "months": ranking_months(game=game)[:24],
    }
    return render(request, "ratings/game.html", context)


def ranking_about(request: HttpRequest) -> HttpResponse:
    """How the number is computed, in plain words (``docs/ranking.md`` for players)."""
    params = ranking_params()
    ages = range(params.window + 1)
    context = {
        "params": params,
        "scale": 200 / params.sigma0,  # the number's points per unit of mu - 3 sigma
        "weights": [(age, _plain(weight(age, params))) for age in ages],
    }
    return render(request, "ratings/about.html", context)


def _plain(number: float) -> int | float:
    """``1.0`` as ``1``, other weights as they are (the template localizes them)."""
    return int(number) if number.is_integer() else round(number, 4)
