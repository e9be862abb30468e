"""Scoring's pages (``scoring.web``)."""

from django.urls import path

from scoring.web import (
    correct,
    disputes,
    formats,
    imports,
    matches,
    mine,
    paper,
    pickers,
    sheet,
    summary,
    withdraw,
)

urlpatterns = [
    path("help/formats/", formats.record_formats, name="record-formats"),
    path("matches/", matches.match_index, name="match-list"),
    path("matches/submit/", matches.match_submit, name="match-submit"),
    path("matches/mine/", mine.my_submissions, name="my-submissions"),
    path("matches/disputes/", disputes.dispute_list, name="dispute-list"),
    path(
        "matches/disputes/<int:pk>/settle/",
        disputes.dispute_settle_page,
        name="dispute-settle",
    ),
    path("matches/<int:pk>/contest/", disputes.match_contest, name="match-contest"),
    path(
        "matches/enter/divisor/sheet/",
        sheet.match_enter_sheet,
        name="match-enter-sheet",
    ),
    path(
        "matches/enter/divisor/sheet/print/",
        paper.blank_divisor_sheet,
        name="match-sheet-paper",
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
    path("matches/<int:pk>/correct/", correct.match_correct_page, name="match-correct"),
    path("matches/<int:pk>/withdraw/", withdraw.match_withdraw_page, name="match-withdraw"),
]
