"""Tournament pages, under ``/tournaments/`` (public, print, CSV, and the organiser's)."""

from django.urls import path

from tournaments import (
    views,
    views_checkin,
    views_confirm,
    views_exchange,
    views_feeds,
    views_manage,
    views_reports,
    views_results,
)

urlpatterns = [
    path("", views.tournament_index, name="tournament-list"),
    path("new/", views_manage.tournament_create, name="tournament-create"),
    path("my-tables/", views_reports.my_tables, name="tournament-my-tables"),
    path("<slug:slug>/", views.tournament_detail, name="tournament-detail"),
    path("<slug:slug>/standings/", views.standings, name="tournament-standings"),
    path("<slug:slug>/standings/print/", views.standings_print, name="tournament-standings-print"),
    path("<slug:slug>/standings.csv", views.standings_csv, name="tournament-standings-csv"),
    path("<slug:slug>/crosstable/", views.crosstable, name="tournament-crosstable"),
    path("<slug:slug>/calendar.ics", views_feeds.tournament_ics, name="tournament-calendar"),
    path("<slug:slug>/export.trf", views_exchange.export_trf, name="tournament-export-trf"),
    path("<slug:slug>/export.json", views_exchange.export_json, name="tournament-export-json"),
    path("<slug:slug>/crosstable.csv", views.crosstable_csv, name="tournament-crosstable-csv"),
    path("<slug:slug>/rounds/<int:number>/", views.round_detail, name="tournament-round"),
    path(
        "<slug:slug>/rounds/<int:number>/print/", views.round_print, name="tournament-round-print"
    ),
    path(
        "<slug:slug>/rounds/<int:number>/sheets/",
        views.round_sheets,
        name="tournament-round-sheets",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table>/result/",
        views_results.table_result,
        name="tournament-table-result",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table>/qr.svg",
        views_reports.table_qr,
        name="tournament-table-qr",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table>/report/",
        views_reports.table_report,
        name="tournament-table-report",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table>/report/confirm/",
        views_reports.table_report_reply,
        {"action": "confirm"},
        name="tournament-table-report-confirm",
    ),
    path(
        "<slug:slug>/rounds/<int:number>/tables/<int:table>/report/contest/",
        views_reports.table_report_reply,
        {"action": "contest"},
        name="tournament-table-report-contest",
    ),
    path("<slug:slug>/check-in/", views_checkin.check_in, name="tournament-self-check-in"),
    path("<slug:slug>/check-in/qr.svg", views_checkin.check_in_qr, name="tournament-check-in-qr"),
    path(
        "<slug:slug>/check-in/print/",
        views_checkin.check_in_print,
        name="tournament-check-in-print",
    ),
    path(
        "<slug:slug>/manage/check-ins.json",
        views_checkin.check_ins_json,
        name="tournament-check-ins",
    ),
    path("<slug:slug>/manage/", views_manage.manage, name="tournament-manage"),
    path("<slug:slug>/manage/event.json", views_manage.event_json, name="tournament-event"),
    path(
        "<slug:slug>/manage/registrations/",
        views_manage.registrations_add,
        name="tournament-registrations-add",
    ),
    path(
        "<slug:slug>/manage/registrations/<int:pk>/check-in/",
        views_manage.registration_check_in,
        name="tournament-check-in",
    ),
    path(
        "<slug:slug>/manage/registrations/<int:pk>/withdraw/",
        views_confirm.registration_withdraw,
        name="tournament-withdraw",
    ),
    path("<slug:slug>/manage/apart/", views_manage.tournament_apart, name="tournament-apart"),
    path("<slug:slug>/manage/late/", views_manage.registration_add_late, name="tournament-late"),
    path("<slug:slug>/manage/pair/", views_manage.round_pair, name="tournament-pair"),
    path(
        "<slug:slug>/manage/rounds/<int:number>/repair/",
        views_confirm.round_repair,
        name="tournament-repair",
    ),
    path(
        "<slug:slug>/manage/rounds/<int:number>/swap/",
        views_manage.round_swap,
        name="tournament-swap",
    ),
    path(
        "<slug:slug>/manage/rounds/<int:number>/publish/",
        views_confirm.round_publish,
        name="tournament-publish",
    ),
    path(
        "<slug:slug>/manage/rounds/<int:number>/tables/<int:table>/accept/<int:report>/",
        views_confirm.table_accept,
        name="tournament-table-accept",
    ),
    path(
        "<slug:slug>/manage/rounds/<int:number>/byes/",
        views_manage.round_bye_grant,
        name="tournament-bye",
    ),
]
