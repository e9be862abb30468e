"""The schedule's API: ``POST /api/v1/tournaments/{slug}/schedule/`` changes the start
time, time zone or round length; ``POST .../{slug}/rounds/{n}/schedule/``
``{"starts_at"}`` gives a round its start (null: right after the round before).
Calendars follow at once. For the tournament's club organisers and federation admins."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from federation.permissions import ReadOnlyOrOrganiser
from tournaments import selectors, services
from tournaments.api.tournaments import RoundSerializer, TournamentSerializer
from tournaments.models import Tournament

NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="round number")


class TournamentScheduleSerializer(serializers.Serializer):
    start_time = serializers.TimeField(required=False)
    time_zone = serializers.CharField(max_length=64, required=False)
    round_minutes = serializers.IntegerField(required=False, min_value=1, max_value=24 * 60)


class RoundScheduleSerializer(serializers.Serializer):
    starts_at = serializers.DateTimeField(allow_null=True)


class ScheduleViewSet(viewsets.GenericViewSet):
    """When a tournament and its rounds start."""

    permission_classes = [ReadOnlyOrOrganiser]
    serializer_class = TournamentSerializer
    lookup_field = "slug"
    lookup_value_regex = r"[-a-zA-Z0-9_]+"
    filterset_fields: list[str] = []

    def get_queryset(self):
        return selectors.tournament_list(user=self.request.user)

    def _managed(self) -> Tournament:
        try:
            tournament = selectors.tournament_get(slug=self.kwargs["slug"], user=self.request.user)
        except Http404 as exc:
            raise NotFound("no such tournament") from exc
        if not selectors.can_manage(self.request.user, tournament):
            raise PermissionDenied("Only the club's organisers and federation admins run it.")
        return tournament

    @extend_schema(request=TournamentScheduleSerializer, responses={200: TournamentSerializer})
    @action(detail=True, methods=["post"], url_path="schedule")
    def schedule(self, request: Request, slug: str | None = None) -> Response:
        """Change the tournament's start time, time zone or round length."""
        payload = TournamentScheduleSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        changed = services.tournament_schedule(
            tournament=self._managed(), by=request.user, **payload.validated_data
        )
        return Response(TournamentSerializer(changed).data)

    @extend_schema(
        parameters=[NUMBER], request=RoundScheduleSerializer, responses={200: RoundSerializer}
    )
    @action(detail=True, methods=["post"], url_path=r"rounds/(?P<number>[0-9]+)/schedule")
    def round_schedule(
        self, request: Request, slug: str | None = None, number: str = "0"
    ) -> Response:
        """Give a round its start time (null: right after the round before)."""
        tournament = self._managed()
        rnd = tournament.rounds.filter(number=int(number)).first()
        if rnd is None:
            raise NotFound("no such round")
        payload = RoundScheduleSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        services.round_schedule(round=rnd, by=request.user, **payload.validated_data)
        full = selectors.round_get(tournament, rnd.number, manager=True)
        return Response(RoundSerializer(full).data)
