"""``/api/v1/tournaments/...`` (a simple router: the API root stays quotient's)."""

from django.urls import include, path
from rest_framework.routers import SimpleRouter

from tournaments.api.checkin import SelfCheckInView
from tournaments.api.exchange import ArchiveImport
from tournaments.api.schedule import ScheduleViewSet
from tournaments.api.series import SeriesViewSet
from tournaments.api.tables import (
    TableAcceptView,
    TableConfirmView,
    TableContestView,
    TableDetail,
    TableReportView,
)
from tournaments.api.tournaments import TournamentViewSet

TABLE = "tournaments/<slug:slug>/rounds/<int:number>/tables/<int:table>/"

router = SimpleRouter()
router.register("tournaments", TournamentViewSet, basename="tournament")
router.register("tournaments", ScheduleViewSet, basename="tournament-schedule")
router.register("series", SeriesViewSet, basename="series")

urlpatterns = [
    # before the router's tournaments/{slug}/ ("import" is a reserved slug)
    path("tournaments/import/", ArchiveImport.as_view(), name="api-tournament-import"),
    path("tournaments/<slug:slug>/check-in/", SelfCheckInView.as_view(), name="api-check-in"),
    path(TABLE, TableDetail.as_view(), name="api-table-detail"),
    path(TABLE + "report/", TableReportView.as_view(), name="api-table-report"),
    path(TABLE + "confirm/", TableConfirmView.as_view(), name="api-table-confirm"),
    path(TABLE + "contest/", TableContestView.as_view(), name="api-table-contest"),
    path(TABLE + "accept/", TableAcceptView.as_view(), name="api-table-accept"),
    path("", include(router.urls)),
]
