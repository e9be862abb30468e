from django.urls import include, path
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import DefaultRouter

from federation.api import ClubViewSet, PlayerViewSet
from tournaments.api import MatchViewSet

router = DefaultRouter()
router.register("clubs", ClubViewSet, basename="club")
router.register("players", PlayerViewSet, basename="player")
router.register("matches", MatchViewSet, basename="match")

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("", include("ratings.api_urls")),
    path("", include(router.urls)),
]
