from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerSplitView,
)

from quotient import health, monitoring, offline, views, views_clubs, views_versus
from ratings import views_embed as ranking_embeds
from tournaments import views_embed as tournament_embeds
from tournaments import views_feeds, views_series

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("metrics", monitoring.metrics, name="metrics"),
    # entry that works offline (quotient.offline): the worker's scope is the whole site
    path("sw.js", offline.service_worker, name="service-worker"),
    path("manifest.webmanifest", offline.manifest, name="web-manifest"),
    path("offline/", offline.outbox, name="offline-outbox"),
    path("admin/", admin.site.urls),
    path("accounts/", include("quotient.accounts.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("quotient.api_urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # the split view serves its start-up script as a file: no inline script (CSP)
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
    # the match page reads ratings too: served from here, before scoring's own URLs
    path("matches/<int:pk>/", views.match_detail, name="match-detail"),
    path("", include("federation.urls")),
    path("", include("scoring.web.urls")),
    path("", include("ratings.urls")),
    # pages other sites frame (core.embed): the only ones with frame-ancestors *
    path("embed/rankings/<str:game>/", ranking_embeds.ranking_embed, name="embed-ranking"),
    path(
        "embed/tournaments/<slug:slug>/standings/",
        tournament_embeds.standings_embed,
        name="embed-tournament-standings",
    ),
    # calendar feeds (tournaments.calendar)
    path("tournaments.ics", views_feeds.tournaments_ics, name="tournaments-calendar"),
    path("clubs/", views_clubs.club_list, name="club-list-page"),
    path("clubs/<slug:slug>/", views_clubs.club_page, name="club-page"),
    path("clubs/<slug:slug>/calendar.ics", views_feeds.club_ics, name="club-calendar"),
    path("calendar/<str:token>.ics", views_feeds.player_ics, name="player-calendar-feed"),
    path("players/<str:handle>/calendar/", views_feeds.player_calendar, name="player-calendar"),
    path(
        "players/<str:handle>/calendar/renew/",
        views_feeds.player_calendar_renew,
        name="player-calendar-renew",
    ),
    path("tournaments/", include("tournaments.urls")),
    path("series/", views_series.series_list, name="series-list-page"),
    path("series/<slug:slug>/", views_series.series_page, name="series-page"),
    path("series/<slug:slug>/standings.csv", views_series.series_csv_view, name="series-csv"),
    path("webhooks/", include("hooks.urls")),
    path("players/<str:handle>/vs/", views_versus.versus_choose, name="player-versus-choose"),
    path("players/<str:handle>/vs/<str:other>/", views_versus.versus_page, name="player-versus"),
    path("players/<str:handle>/", views.player_detail, name="player-detail"),
]

handler400 = "core.error_pages.bad_request"
handler403 = "core.error_pages.permission_denied"
handler404 = "core.error_pages.page_not_found"
handler500 = "core.error_pages.server_error"
