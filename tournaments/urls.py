from django.urls import path

from tournaments import views

urlpatterns = [
    path("players/<str:handle>/", views.player_detail, name="player-detail"),
]
