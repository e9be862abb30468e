"""What if (``ratings.whatif``): the page ``/players/<h>/what-if/`` and the API
``GET /api/v1/players/<h>/what-if/?game=&opponents=a,b,c&place=1``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from core.refusals import refused_onto
from federation.models import Game, Player
from ratings.whatif import MOST_AT_TABLE, what_if, what_if_table


def _player(handle: str) -> Player:
    return get_object_or_404(Player.objects.select_related("club").by_handle(handle))


def what_if_page(request: HttpRequest, handle: str) -> HttpResponse:
    """The question's form, and with a question its estimate (or why there is none)."""
    player = _player(handle)
    asked = {name: request.GET.get(name, "")[:400] for name in ("game", "opponents", "place")}
    estimate, error = None, None
    if any(asked.values()):
        with refused_onto() as refused:
            game, table, place = what_if_table(
                player, asked["game"], asked["opponents"], asked["place"]
            )
            estimate = what_if(player=player, game=game, table=table, place=place)
        error = refused.error
    context = {
        "player": player,
        "asked": asked,
        "estimate": estimate,
        "error": error,
        "games": Game.objects.all(),
        "most": MOST_AT_TABLE,
    }
    return render(request, "ratings/what_if.html", context, status=400 if error else 200)


@extend_schema(
    operation_id="players_what_if",
    parameters=[
        OpenApiParameter("game", str, required=True),
        OpenApiParameter("opponents", str, required=True, description="handles, comma-separated"),
        OpenApiParameter("place", int, description="the player's finishing place (1 if absent)"),
    ],
    responses={200: OpenApiTypes.OBJECT},
)
@api_view(["GET"])
def what_if_api(request: Request, handle: str) -> Response:
    """``{"game", "month", "estimate": true, "table": [{"handle", "name", "place",
    "win_probability"}], "player": {"handle", "place", "published", "without_table",
    "with_table", "change"}}``."""
    player = _player(handle)
    query = request.query_params
    game, table, place = what_if_table(
        player, query.get("game"), query.get("opponents"), query.get("place")
    )
    return Response(what_if(player=player, game=game, table=table, place=place).as_dict())
