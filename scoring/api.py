"""REST API for matches: list, detail and submission (``POST /api/v1/matches/``)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.response import Response

from scoring.errors import MatchRejected, warning
from scoring.models import Match
from scoring.selectors import match_list, parse_month, score_sheet
from scoring.services import match_record
from tournaments.models import Club, Round
from tournaments.permissions import ReadOnlyOrOrganiser


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
    round = serializers.SerializerMethodField()

    class Meta(MatchListSerializer.Meta):
        fields = [*MatchListSerializer.Meta.fields, "round", "result", "analysis", "score_sheet"]

    def get_score_sheet(self, match: Match) -> list[dict]:
        return score_sheet(match.result)

    def get_round(self, match: Match) -> dict | None:
        if match.round is None:
            return None
        return {"tournament": match.round.tournament.slug, "number": match.round.number}


class MatchSubmitSerializer(serializers.Serializer):
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all())
    played_on = serializers.DateField()
    record = serializers.JSONField()
    round = serializers.PrimaryKeyRelatedField(
        queryset=Round.objects.select_related("tournament"), required=False, allow_null=True
    )


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
class MatchViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Matches: anyone reads; a club's organisers (and federation admins) submit."""

    permission_classes = [ReadOnlyOrOrganiser]
    serializer_class = MatchDetailSerializer

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
        ).select_related("round__tournament")

    def get_serializer_class(self):
        if self.action == "list":
            return MatchListSerializer
        if self.action == "create":
            return MatchSubmitSerializer
        return MatchDetailSerializer

    @extend_schema(request=MatchSubmitSerializer, responses={201: MatchDetailSerializer})
    def create(self, request, *args, **kwargs):
        payload = MatchSubmitSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        lang = request_language(request)
        try:
            recorded = match_record(
                club=data["club"],
                played_on=data["played_on"],
                record=data["record"],
                round=data.get("round"),
                submitted_by=request.user,
            )
        except DjangoPermissionDenied as exc:
            raise PermissionDenied(str(exc)) from exc
        except MatchRejected as exc:
            error = exc.payload(lang)
            return Response(
                {"detail": error["message"], "error": error}, status=status.HTTP_400_BAD_REQUEST
            )
        body = MatchDetailSerializer(recorded.match).data
        body["warnings"] = [warning(code, lang, **params) for code, params in recorded.warnings]
        return Response(body, status=status.HTTP_201_CREATED)
