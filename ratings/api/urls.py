from django.urls import path

from ratings.api import views as api
from ratings.views_whatif import what_if_api

urlpatterns = [
    path("rankings/", api.ranking_index, name="api-ranking-index"),
    path("rankings/<str:game>/", api.ranking_month_list, name="api-ranking-months"),
    path("rankings/<str:game>/<str:month>/", api.ranking_detail, name="api-ranking-detail"),
    path("players/<str:handle>/what-if/", what_if_api, name="api-player-what-if"),
    path("players/<str:handle>/history/", api.player_history_view, name="api-player-history"),
    path(
        "players/<str:handle>/rankings/<str:game>/<str:month>/",
        api.player_ranking_view,
        name="api-player-ranking",
    ),
]
