"""A player's public page: their matches and their world-ranking history."""

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from ratings.selectors import player_history
from scoring.selectors import match_list
from tournaments.models import Player


def player_detail(request: HttpRequest, handle: str) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("club"), handle__iexact=handle)
    page = Paginator(match_list(player=player.handle), 25).get_page(request.GET.get("page"))
    history = player_history(player_id=player.pk)[:60]
    return render(
        request,
        "tournaments/player_detail.html",
        {"player": player, "page": page, "history": history},
    )
