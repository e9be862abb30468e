from django.urls import path

from scoring import views, views_import, views_organiser, views_pickers, views_sheet, views_summary

urlpatterns = [
    path("matches/", views.match_index, name="match-list"),
    path("matches/submit/", views.match_submit, name="match-submit"),
    path("matches/mine/", views_organiser.my_submissions, name="my-submissions"),
    path(
        "matches/enter/divisor/sheet/",
        views_sheet.match_enter_sheet,
        name="match-enter-sheet",
    ),
    path("matches/enter/players/", views_pickers.entry_players, name="match-enter-players"),
    path(
        "matches/enter/<str:game>/",
        views_summary.match_enter_summary,
        name="match-enter-summary",
    ),
    path("matches/import/", views_import.match_import, name="match-import"),
    path(
        "matches/import/<int:pk>/",
        views_import.match_import_detail,
        name="match-import-detail",
    ),
    path("matches/<int:pk>/", views.match_detail, name="match-detail"),
]
