"""``/api/v1/series/``: season points (``tournaments.series``). Everyone reads a series
and its standings; federation admins create, change and delete them.

A series reads as ``{"slug", "name", "game", "points", "counted", "tournaments",
"computed_at", "standings": [{"rank", "player", "name", "points", "results",
"events": [{"tournament", "name", "place", "points", "counted"}]}]}``; it is written
with ``name``, ``slug``, ``game`` (a key), ``tournaments`` (slugs), ``points`` (by
place) and ``counted``. A tournament of another game is a 400
``series-tournament-game``, nothing stored."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from federation.models import Game
from federation.permissions import ReadOnlyOrFederationAdmin
from tournaments.models import Series, Tournament
from tournaments.series import series_as_dict, series_check, series_recompute


class SeriesSerializer(serializers.ModelSerializer):
    game = serializers.SlugRelatedField(slug_field="key", queryset=Game.objects.all())
    tournaments = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Tournament.objects.select_related("game"),
        many=True,
        required=False,
    )
    points = serializers.JSONField(required=False)
    counted = serializers.IntegerField(required=False)

    class Meta:
        model = Series
        fields = ["slug", "name", "game", "tournaments", "points", "counted"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        current = self.instance
        game = attrs.get("game") or (current.game if current else None)
        if game is None:
            raise serializers.ValidationError({"game": "required"})
        tournaments = attrs.get("tournaments")
        if tournaments is None and current is not None:
            tournaments = list(current.tournaments.select_related("game"))
        series_check(
            game=game,
            tournaments=tournaments or [],
            points=attrs.get("points"),
            counted=attrs.get("counted"),
        )
        return attrs


class SeriesViewSet(viewsets.ModelViewSet):
    """Series of tournaments and their standings."""

    queryset = Series.objects.select_related("game")
    serializer_class = SeriesSerializer
    permission_classes = [ReadOnlyOrFederationAdmin]
    lookup_field = "slug"

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return Response(series_as_dict(self.get_object()))

    @extend_schema(responses={201: OpenApiTypes.OBJECT})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        payload = self.get_serializer(data=request.data)
        payload.is_valid(raise_exception=True)
        with transaction.atomic():
            series = payload.save(created_by=request.user)
        series_recompute(series)
        return Response(series_as_dict(series), status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        payload = self.get_serializer(
            self.get_object(), data=request.data, partial=kwargs.get("partial", False)
        )
        payload.is_valid(raise_exception=True)
        with transaction.atomic():
            series = payload.save()
        series_recompute(series)
        return Response(series_as_dict(series))
