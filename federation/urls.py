from django.urls import path

from federation import views

urlpatterns = [
    path("organiser/players/new/", views.player_register, name="player-register"),
]
