"""Scoring's pages (``scoring.web``)."""

from django.urls import path

from scoring.web import formats, imports, matches, mine, pickers, sheet, summary

urlpatterns = [
    path("help/formats/", formats.record_formats, name="record-formats"),
    path("matches/", matches.match_index, name="match-list"),
    path("matches/submit/", matches.match_submit, name="match-submit"),
    path("matches/mine/", mine.my_submissions, name="my-submissions"),
    path(
        "matches/enter/divisor/sheet/",
        sheet.match_enter_sheet,
        name="match-enter-sheet",
    ),
    path("matches/enter/players/", pickers.entry_players, name="match-enter-players"),
    path(
        "matches/enter/<str:game>/",
        summary.match_enter_summary,
        name="match-enter-summary",
    ),
    path("matches/import/", imports.match_import, name="match-import"),
    path(
        "matches/import/<int:pk>/",
        imports.match_import_detail,
        name="match-import-detail",
    ),
    path("matches/<int:pk>/", matches.match_detail, name="match-detail"),
]
