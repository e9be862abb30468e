"""``/api/v1/``: every endpoint of the API, and its root listing them.

The root lists each list endpoint by name with its absolute URL (``clubs``,
``players``, ``matches``, ``imports``, ``tournaments``, ``rankings``, ``webhooks``,
``series``), the token
login (``auth_token``), the OpenAPI schema and its documentation, and under
``templates`` the endpoints of one object as URI templates (RFC 6570,
``.../players/{handle}/``). Names are reversed in this URLconf: some are also page
names (``match-list`` is the HTML list of matches too).
"""

from django.urls import get_script_prefix, include, path, reverse
from rest_framework import routers
from rest_framework.request import Request
from rest_framework.response import Response

from federation.api import ClubViewSet, PlayerViewSet, me_view
from hooks.api import WebhookViewSet
from quotient.auth import token_login
from quotient.views_clubs import club_stats_api
from quotient.views_versus import versus_api
from scoring.api.disputes import DisputeSettle, MatchDisputes
from scoring.api.imports import ImportViewSet
from tournaments.api.matches import MatchViewSet

#: name in the root -> URL name in this URLconf
LISTS = {
    "clubs": "club-list",
    "players": "player-list",
    "matches": "match-list",
    "imports": "import-list",
    "tournaments": "tournament-list",
    "rankings": "api-ranking-index",
    "webhooks": "api-webhook-list",
    "series": "series-list",
    "auth_token": "api-token",
}
#: name in ``templates`` -> (URL name in this URLconf, its arguments as placeholders)
TEMPLATES: dict[str, tuple[str, tuple[str, ...]]] = {
    "club": ("club-detail", ("slug",)),
    "club_stats": ("api-club-stats", ("slug",)),
    "player": ("player-detail", ("handle",)),
    "player_history": ("api-player-history", ("handle",)),
    "player_versus": ("api-player-versus", ("handle", "other")),
    "player_ranking": ("api-player-ranking", ("handle", "game", "month")),
    "match": ("match-detail", ("id",)),
    "tournament": ("tournament-detail", ("slug",)),
    "ranking_months": ("api-ranking-months", ("game",)),
    "ranking": ("api-ranking-detail", ("game", "month")),
}


def api_url(request: Request, name: str, *args: str) -> str:
    """The absolute URL of the API endpoint ``name`` (resolved in this URLconf)."""
    inside = reverse(name, args=args, urlconf=__name__).removeprefix(get_script_prefix())
    return request.build_absolute_uri(reverse("api-root") + inside)


def api_template(request: Request, name: str, placeholders: tuple[str, ...]) -> str:
    """``name``'s URL with ``{placeholder}`` in place of each argument (reversed with
    numbers every converter accepts, then replaced)."""
    stand_ins = [str(90210 + n) for n in range(len(placeholders))]
    url = api_url(request, name, *stand_ins)
    for stand_in, placeholder in zip(stand_ins, placeholders, strict=True):
        url = url.replace(f"/{stand_in}/", f"/{{{placeholder}}}/")
    return url


class ApiRoot(routers.APIRootView):
    """Every endpoint of the API: lists by name, objects as URI templates."""

    def get(self, request: Request, *args, **kwargs) -> Response:
        body: dict = {name: api_url(request, url_name) for name, url_name in LISTS.items()}
        body["schema"] = request.build_absolute_uri(reverse("schema"))
        body["docs"] = request.build_absolute_uri(reverse("api-docs"))
        body["templates"] = {
            name: api_template(request, url_name, placeholders)
            for name, (url_name, placeholders) in TEMPLATES.items()
        }
        body["templates"]["ranking_csv"] = body["templates"]["ranking"] + "?format=csv"
        return Response(body)


class Router(routers.DefaultRouter):
    APIRootView = ApiRoot


router = Router()
router.register("clubs", ClubViewSet, basename="club")
router.register("players", PlayerViewSet, basename="player")
router.register("matches", MatchViewSet, basename="match")
router.register("imports", ImportViewSet, basename="import")
router.register("webhooks", WebhookViewSet, basename="api-webhook")

urlpatterns = [
    path("auth/token/", token_login, name="api-token"),
    path("me/", me_view, name="api-me"),
    path("players/<str:handle>/vs/<str:other>/", versus_api, name="api-player-versus"),
    path("clubs/<slug:slug>/stats/", club_stats_api, name="api-club-stats"),
    path("matches/<int:pk>/disputes/", MatchDisputes.as_view(), name="api-match-disputes"),
    path(
        "matches/<int:pk>/disputes/<int:dispute>/settle/",
        DisputeSettle.as_view(),
        name="api-dispute-settle",
    ),
    path("", include("ratings.api.urls")),
    path("", include("tournaments.api.urls")),
    path("", include(router.urls)),
]
