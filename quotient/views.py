from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scoring.models import Game, Match
from scoring.selectors import match_list


def home(request: HttpRequest) -> HttpResponse:
    """The front page: the games, the latest results and where to go next."""
    context = {
        "games": Game.objects.all(),
        "recent": match_list()[:10],
        "match_count": Match.objects.count(),
    }
    return render(request, "home.html", context)
