from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from scoring.models import Game


def ranking_index(request: HttpRequest) -> HttpResponse:
    return render(request, "ratings/index.html", {"games": Game.objects.all()})


def ranking_game(request: HttpRequest, game: str) -> HttpResponse:
    game_obj = get_object_or_404(Game, key=game)
    return render(request, "ratings/game.html", {"game": game_obj, "lists": []})
