"""``/api/v1/tournaments/<slug>/rounds/<n>/tables/<t>/``: a table's result reported
by its seated players (``tournaments.services.reports``).

``GET`` the table (its players, its match, its reports and their replies: for its
players and the club's organisers); ``POST report/`` ``{"record"}``, ``confirm/``
``{"report"}``, ``contest/`` ``{"report", "reason"}`` (the table's players only);
``accept/`` ``{"report"}`` (the club's organisers: a dispute settled by accepting
one report).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from federation.permissions import can_write_for_club
from federation.players import player_of
from tournaments.models import Table
from tournaments.services.reports import (
    report_accept,
    report_confirm,
    report_contest,
    report_submit,
    table_state,
)


def _table(slug: str, number: int, table: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__tournament__club", "round__tournament__game"),
        round__tournament__slug=slug,
        round__number=number,
        number=table,
    )


def _body(request: Request) -> dict[str, Any]:
    """The posted object (a list or anything else reads as an empty one)."""
    data = request.data
    return data if isinstance(data, dict) else {}


class _TableView(APIView):
    permission_classes = [IsAuthenticated]


_Answer = inline_serializer(
    "TableReportAnswer", {"status": serializers.CharField(), "report": serializers.IntegerField()}
)


class TableDetail(_TableView):
    @extend_schema(responses=inline_serializer("TableState", {"state": serializers.CharField()}))
    def get(self, request: Request, slug: str, number: int, table: int) -> Response:
        found = _table(slug, number, table)
        player = player_of(request.user)
        seated = player is not None and found.seats.filter(player=player).exists()
        if not seated and not can_write_for_club(request.user, found.round.tournament.club):
            raise PermissionDenied
        return Response(table_state(found))


class TableReportView(_TableView):
    @extend_schema(
        request=inline_serializer("TableReportBody", {"record": serializers.JSONField()}),
        responses={201: _Answer},
    )
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        report = report_submit(
            table=_table(slug, number, table),
            user=request.user,
            record=_body(request).get("record"),
        )
        return Response({"status": "reported", "report": report.pk}, status=status.HTTP_201_CREATED)


class TableConfirmView(_TableView):
    @extend_schema(
        request=inline_serializer("TableConfirmBody", {"report": serializers.IntegerField()}),
        responses=_Answer,
    )
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        found = _table(slug, number, table)
        report = report_confirm(
            table=found, user=request.user, report_id=_body(request).get("report")
        )
        found.refresh_from_db()
        body = {"status": report.status, "report": report.pk, "match": found.match_id}
        return Response(body)


class TableContestView(_TableView):
    @extend_schema(
        request=inline_serializer(
            "TableContestBody",
            {"report": serializers.IntegerField(), "reason": serializers.CharField()},
        ),
        responses=_Answer,
    )
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        report = report_contest(
            table=_table(slug, number, table),
            user=request.user,
            report_id=_body(request).get("report"),
            reason=_body(request).get("reason"),
        )
        return Response({"status": report.status, "report": report.pk})


class TableAcceptView(_TableView):
    @extend_schema(
        request=inline_serializer("TableAcceptBody", {"report": serializers.IntegerField()}),
        responses=_Answer,
    )
    def post(self, request: Request, slug: str, number: int, table: int) -> Response:
        found = _table(slug, number, table)
        report = report_accept(
            table=found, user=request.user, report_id=_body(request).get("report")
        )
        found.refresh_from_db()
        return Response({"status": report.status, "report": report.pk, "match": found.match_id})
