from django.urls import include, path
from rest_framework.routers import DefaultRouter

from federation.api import ClubViewSet, PlayerViewSet
from quotient.auth import token_login
from tournaments.api import MatchViewSet

router = DefaultRouter()
router.register("clubs", ClubViewSet, basename="club")
router.register("players", PlayerViewSet, basename="player")
router.register("matches", MatchViewSet, basename="match")

urlpatterns = [
    path("auth/token/", token_login, name="api-token"),
    path("", include("ratings.api_urls")),
    path("", include(router.urls)),
]
