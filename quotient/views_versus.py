"""Head-to-head pages and API (``quotient.versus``): ``/players/<a>/vs/`` chooses the
other player (the accent-insensitive player search), ``/players/<a>/vs/<b>/`` shows
the record, ``GET /api/v1/players/<a>/vs/<b>/`` answers it as JSON."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from federation.models import Game, Player
from quotient.versus import head_to_head, versus_game

#: longer queries are cut (as the player search does)
QUERY_LENGTH = 100


def _player(handle: str) -> Player:
    return get_object_or_404(Player.objects.select_related("club").by_handle(handle))


def versus_choose(request: HttpRequest, handle: str) -> HttpResponse:
    """Compare ``handle`` with…: search the other player by handle or public name."""
    player = _player(handle)
    query = request.GET.get("q", "").strip()[:QUERY_LENGTH]
    found = Player.objects.none()
    if query:
        found = Player.objects.search(query).exclude(pk=player.pk).select_related("club")
    page = Paginator(found.order_by("handle"), 25).get_page(request.GET.get("page"))
    context = {"player": player, "query": query, "page": page}
    return render(request, "players/versus_choose.html", context)


def versus_page(request: HttpRequest, handle: str, other: str) -> HttpResponse:
    """The record of two players against each other, in any game or ``?game=``."""
    a, b = _player(handle), _player(other)
    game = versus_game(request.GET.get("game"))
    record = head_to_head(a, b, game)
    context = {"record": record, "a": a, "b": b, "game": game, "games": Game.objects.all()}
    return render(request, "players/versus.html", context)


@extend_schema(
    operation_id="players_versus",
    parameters=[OpenApiParameter("game", str, description="one game's key; all games if absent")],
    responses={200: OpenApiTypes.OBJECT},
)
@api_view(["GET"])
def versus_api(request: Request, handle: str, other: str) -> Response:
    """``{"players", "game", "meetings", "wins", "losses", "ties", "points_for",
    "points_against", "last_meetings", "numbers"}`` from the first player's side."""
    a, b = _player(handle), _player(other)
    record = head_to_head(a, b, versus_game(request.query_params.get("game")))
    return Response(record.as_dict())
