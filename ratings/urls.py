from django.urls import path

from ratings import views, views_whatif

urlpatterns = [
    path("rankings/", views.ranking_index, name="ranking-index"),
    # before the game's page: "about" is not a game
    path("rankings/about/", views.ranking_about, name="ranking-about"),
    path("rankings/<str:game>/", views.ranking_game, name="ranking-game"),
    path("rankings/<str:game>/<str:month>/", views.ranking_month, name="ranking-month"),
    path("players/<str:handle>/what-if/", views_whatif.what_if_page, name="player-what-if"),
]
