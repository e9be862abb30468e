from django.urls import path

from federation import views

urlpatterns = [
    path("players/", views.player_search, name="player-search"),
    path("organiser/players/new/", views.player_register, name="player-register"),
]
