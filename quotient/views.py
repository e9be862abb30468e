"""Pages that combine apps: the front page and a player's page."""

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from federation.models import Game, Player
from ratings.selectors import player_history
from scoring.models import Match
from scoring.selectors import match_list


def home(request: HttpRequest) -> HttpResponse:
    """The front page: the games, the latest results and where to go next."""
    context = {
        "games": Game.objects.all(),
        "recent": match_list()[:10],
        "match_count": Match.objects.count(),
    }
    return render(request, "home.html", context)


def player_detail(request: HttpRequest, handle: str) -> HttpResponse:
    """A player's public page: their matches and their world-ranking history (it
    combines scoring and ratings, so it lives here, above both)."""
    player = get_object_or_404(Player.objects.select_related("club"), handle__iexact=handle)
    page = Paginator(match_list(player=player.handle), 25).get_page(request.GET.get("page"))
    history = player_history(player_id=player.pk)[:60]
    return render(
        request,
        "players/detail.html",
        {"player": player, "page": page, "history": history},
    )
