"""REST API for matches: list, detail and submission (``POST /api/v1/matches/``)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.response import Response

from federation.idempotency import idempotent
from federation.models import Club
from federation.permissions import ReadOnlyOrOrganiser
from scoring.errors import MatchRejected, warning
from scoring.models import Match
from scoring.selectors import match_list, parse_month, score_sheet
from scoring.services import Recorded, match_record


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField(source="player.handle")
    name = serializers.CharField(source="player.public_display_name")
    score = serializers.IntegerField(allow_null=True)
    rank = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    deduction = serializers.IntegerField(allow_null=True)


class MatchListSerializer(serializers.ModelSerializer):
    game = serializers.CharField(source="game.key")
    club = serializers.CharField(source="club.slug")
    seats = SeatSerializer(many=True)
    counted_month = serializers.DateField(format="%Y-%m", allow_null=True)

    class Meta:
        model = Match
        fields = [
            "id",
            "game",
            "club",
            "played_on",
            "submitted_at",
            "verification",
            "finished",
            "late",
            "counted_month",
            "seats",
        ]


class MatchDetailSerializer(MatchListSerializer):
    result = serializers.JSONField()
    analysis = serializers.JSONField()
    score_sheet = serializers.SerializerMethodField()

    class Meta(MatchListSerializer.Meta):
        fields = [*MatchListSerializer.Meta.fields, "result", "analysis", "score_sheet"]

    def get_score_sheet(self, match: Match) -> list[dict]:
        return score_sheet(match.result)


class MatchSubmitSerializer(serializers.Serializer):
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all())
    played_on = serializers.DateField()
    record = serializers.JSONField()


def request_language(request) -> str:
    return "fr" if (getattr(request, "LANGUAGE_CODE", "") or "").startswith("fr") else "en"


@extend_schema(
    parameters=[
        OpenApiParameter("game", str, description="game key, e.g. divisor"),
        OpenApiParameter("club", str, description="club slug"),
        OpenApiParameter("player", str, description="player handle"),
        OpenApiParameter("month", str, description="month played, YYYY-MM"),
    ]
)
@extend_schema_view(
    create=extend_schema(request=MatchSubmitSerializer, responses={201: MatchDetailSerializer})
)
class MatchViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Matches: anyone reads; a club's organisers (and federation admins) submit."""

    permission_classes = [ReadOnlyOrOrganiser]
    serializer_class = MatchDetailSerializer
    #: apps above scoring extend the match with what they know (a tournament's round)
    detail_serializer_class: type[MatchDetailSerializer] = MatchDetailSerializer
    submit_serializer_class: type[MatchSubmitSerializer] = MatchSubmitSerializer

    def get_queryset(self):
        params = self.request.query_params
        month = None
        if params.get("month"):
            month = parse_month(params["month"])
            if month is None:
                raise ValidationError({"month": "Use YYYY-MM, e.g. 2026-11."})
        return match_list(
            game=params.get("game"),
            club=params.get("club"),
            player=params.get("player"),
            month=month,
        )

    def get_serializer_class(self):
        if self.action == "list":
            return MatchListSerializer
        if self.action == "create":
            return self.submit_serializer_class
        return self.detail_serializer_class

    def record(self, data: dict[str, Any], user: Any) -> Recorded:
        """Store a validated submission (``match_record``); subclasses add their links."""
        return match_record(
            club=data["club"],
            played_on=data["played_on"],
            record=data["record"],
            submitted_by=user,
        )

    @idempotent
    def create(self, request, *args, **kwargs):
        payload = self.submit_serializer_class(data=request.data)
        payload.is_valid(raise_exception=True)
        lang = request_language(request)
        try:
            recorded = self.record(payload.validated_data, request.user)
        except DjangoPermissionDenied as exc:
            raise PermissionDenied(str(exc)) from exc
        except MatchRejected as exc:
            error = exc.payload(lang)
            return Response(
                {"detail": error["message"], "error": error}, status=status.HTTP_400_BAD_REQUEST
            )
        body = self.detail_serializer_class(recorded.match).data
        body["warnings"] = [warning(code, lang, **params) for code, params in recorded.warnings]
        return Response(body, status=status.HTTP_201_CREATED)
