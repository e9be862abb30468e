"""REST API of tournaments: reads for everyone (public tournaments; the others for
their club's organisers and federation admins), writes for those organisers.

``GET /api/v1/tournaments/`` (paginated), ``GET /api/v1/tournaments/{slug}/``,
``GET .../{slug}/rounds/{n}/`` (tables with seats in turn order, byes, each table's
match), ``GET .../{slug}/standings/`` (``?after=n``). Writes: ``POST
/api/v1/tournaments/``, ``PATCH .../{slug}/`` (who is kept apart: ``keep_clubs_apart``,
``apart`` pairs of handles), ``POST .../registrations/`` (handles, optionally checked in),
``POST .../rounds/`` (pair the next round), ``POST .../rounds/{n}/publish/``.
Creating POSTs honour ``Idempotency-Key``. A refusal answers ``{"detail", "error":
{"code", "message", "params"}}`` with 400 (bad input) or 409 (the tournament's state).
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from core.params import whole_number
from federation.idempotency import idempotent
from federation.models import Club, Game
from federation.permissions import ReadOnlyOrOrganiser
from tournaments import pairing, selectors, services
from tournaments.models import Registration, Round, Tournament
from tournaments.services import MAX_ROUNDS


def _status_field(choices: type[models.TextChoices]) -> serializers.CharField:
    """A read-only status, its values in the description: several models of the API
    have a ``status``, and named enums of one field name would collide."""
    values = ", ".join(choices.values)
    return serializers.CharField(read_only=True, help_text=f"one of: {values}")


class TournamentSerializer(serializers.ModelSerializer):
    status = _status_field(Tournament.Status)
    game = serializers.CharField(source="game.key")
    club = serializers.CharField(source="club.slug")
    table_sizes = serializers.ListField(child=serializers.IntegerField())
    bye_points = serializers.DecimalField(
        max_digits=6, decimal_places=2, coerce_to_string=False, allow_null=True
    )

    class Meta:
        model = Tournament
        fields = [
            "slug",
            "name",
            "game",
            "club",
            "starts_on",
            "format",
            "table_sizes",
            "rounds_planned",
            "status",
            "public",
            "bye_points",
            "keep_clubs_apart",
            "start_time",
            "time_zone",
            "round_minutes",
        ]


def _apart_pairs(**kwargs: Any) -> serializers.ListField:
    """Pairs of handles to keep apart (family): ``[["ana", "ben"], ...]``."""
    pair = serializers.ListField(
        child=serializers.CharField(max_length=40), min_length=2, max_length=2
    )
    return serializers.ListField(
        child=pair, max_length=2000, help_text="pairs of player handles to keep apart", **kwargs
    )


class RegistrationSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="player.handle")
    name = serializers.CharField(source="player.public_display_name")

    class Meta:
        model = Registration
        fields = ["player", "name", "checked_in", "rating", "joins_round", "withdrawn_from_round"]


class RoundSummarySerializer(serializers.ModelSerializer):
    status = _status_field(Round.Status)

    class Meta:
        model = Round
        fields = ["number", "status", "published_at", "starts_at"]


class TournamentDetailSerializer(TournamentSerializer):
    registrations = serializers.SerializerMethodField()
    rounds = serializers.SerializerMethodField()
    apart = serializers.SerializerMethodField(
        help_text="pairs of handles kept apart; null unless you run the tournament"
    )

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "apart", "registrations", "rounds"]

    @extend_schema_field(_apart_pairs(allow_null=True))
    def get_apart(self, tournament: Tournament) -> list[list[str]] | None:
        if not self.context.get("manager", False):
            return None  # who is family is the organisers' business
        return [list(pair) for pair in selectors.apart_handles(tournament)]

    @extend_schema_field(RegistrationSerializer(many=True))
    def get_registrations(self, tournament: Tournament) -> list[dict[str, Any]]:
        regs = selectors.registration_list(tournament)
        return list(RegistrationSerializer(regs, many=True).data)

    @extend_schema_field(RoundSummarySerializer(many=True))
    def get_rounds(self, tournament: Tournament) -> list[dict[str, Any]]:
        manager = self.context.get("manager", False)
        rounds = selectors.round_list(tournament, published_only=not manager)
        return list(RoundSummarySerializer(rounds, many=True).data)


class TableSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="0 is the first to play (the record's order)")
    player = serializers.CharField(source="player.handle")
    name = serializers.CharField(source="player.public_display_name")


class RoundTableSerializer(serializers.Serializer):
    table = serializers.IntegerField(source="number")
    seats = TableSeatSerializer(many=True)
    match = serializers.IntegerField(source="match_id", allow_null=True)
    match_status = serializers.SerializerMethodField(
        help_text="recorded, corrected or withdrawn (a withdrawn match counts as not played)"
    )

    def get_match_status(self, table: Any) -> str | None:
        return table.match.status if table.match_id is not None else None


class RoundByeSerializer(serializers.Serializer):
    player = serializers.CharField(source="player.handle")
    name = serializers.CharField(source="player.public_display_name")
    granted = serializers.BooleanField()


class RoundSerializer(serializers.ModelSerializer):
    status = _status_field(Round.Status)
    tables = RoundTableSerializer(many=True)
    byes = RoundByeSerializer(many=True)
    diagnostics = serializers.JSONField()

    class Meta:
        model = Round
        fields = [
            "number",
            "status",
            "published_at",
            "starts_at",
            "tables",
            "byes",
            "diagnostics",
        ]


class StandingLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField(source="player.handle")
    name = serializers.CharField(source="player.public_display_name")
    points = serializers.FloatField()
    buchholz = serializers.FloatField()
    sonneborn_berger = serializers.FloatField()
    score = serializers.FloatField()
    withdrawn = serializers.BooleanField()


class StandingsSerializer(serializers.Serializer):
    after_round = serializers.IntegerField()
    standings = StandingLineSerializer(many=True)


class TournamentCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=160)
    slug = serializers.SlugField(max_length=80, required=False)
    game = serializers.SlugRelatedField(slug_field="key", queryset=Game.objects.all())
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all())
    starts_on = serializers.DateField()
    format = serializers.ChoiceField(choices=Tournament.Format.choices, default="swiss")
    table_sizes = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=9), min_length=1, max_length=8
    )
    rounds_planned = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS)
    bye_points = serializers.DecimalField(
        max_digits=6, decimal_places=2, min_value=0, required=False, allow_null=True
    )
    public = serializers.BooleanField(default=False)
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**31 - 1)
    keep_clubs_apart = serializers.BooleanField(default=False)
    apart = _apart_pairs(default=list)


class TournamentApartSerializer(serializers.Serializer):
    keep_clubs_apart = serializers.BooleanField(required=False)
    apart = _apart_pairs(required=False)
    start_time = serializers.TimeField(required=False)
    time_zone = serializers.CharField(max_length=64, required=False)
    round_minutes = serializers.IntegerField(required=False, min_value=1, max_value=24 * 60)


class RegistrationsAddSerializer(serializers.Serializer):
    handles = serializers.ListField(
        child=serializers.CharField(max_length=40), min_length=1, max_length=2000
    )
    check_in = serializers.BooleanField(default=False)


class RegistrationsAddedSerializer(serializers.Serializer):
    added = RegistrationSerializer(many=True)


ROUND_NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="round number")


class TournamentViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Tournaments: anyone reads the public ones; organisers create and run theirs."""

    queryset = Tournament.objects.select_related("game", "club")
    serializer_class = TournamentSerializer
    permission_classes = [ReadOnlyOrOrganiser]
    lookup_field = "slug"
    lookup_value_regex = r"[-a-zA-Z0-9_]+"
    filterset_fields: list[str] = []

    def get_queryset(self):
        return selectors.tournament_list(user=self.request.user)

    def get_object(self) -> Tournament:
        try:
            return selectors.tournament_get(slug=self.kwargs["slug"], user=self.request.user)
        except Http404 as exc:
            raise NotFound("no such tournament") from exc

    def _managed(self) -> Tournament:
        tournament = self.get_object()
        if not selectors.can_manage(self.request.user, tournament):
            raise PermissionDenied("Only the club's organisers and federation admins run it.")
        return tournament

    def get_serializer_class(self):
        if self.action == "retrieve":
            return TournamentDetailSerializer
        return TournamentSerializer

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        tournament = self.get_object()
        manager = selectors.can_manage(request.user, tournament)
        return Response(TournamentDetailSerializer(tournament, context={"manager": manager}).data)

    @extend_schema(request=TournamentCreateSerializer, responses={201: TournamentDetailSerializer})
    @idempotent
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        payload = TournamentCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        tournament = services.tournament_create(**payload.validated_data, created_by=request.user)
        body = TournamentDetailSerializer(tournament, context={"manager": True}).data
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(request=TournamentApartSerializer, responses={200: TournamentDetailSerializer})
    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Change who the pairing keeps apart (the rounds paired from now on)."""
        tournament = self._managed()
        payload = TournamentApartSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        current = [list(pair) for pair in selectors.apart_handles(tournament)]
        tournament = services.tournament_apart_set(
            tournament=tournament,
            keep_clubs_apart=data.get("keep_clubs_apart", tournament.keep_clubs_apart),
            apart=data.get("apart", current),
            by=request.user,
        )
        return Response(TournamentDetailSerializer(tournament, context={"manager": True}).data)

    @extend_schema(
        request=RegistrationsAddSerializer, responses={201: RegistrationsAddedSerializer}
    )
    @action(detail=True, methods=["post"], url_path="registrations")
    @idempotent
    def registrations(self, request: Request, slug: str | None = None) -> Response:
        """Register players by handle (all or none); ``check_in`` checks them in too."""
        tournament = self._managed()
        payload = RegistrationsAddSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        added = services.registrations_add(
            tournament=tournament,
            handles=payload.validated_data["handles"],
            check_in=payload.validated_data["check_in"],
            by=request.user,
        )
        body = {"added": RegistrationSerializer(added, many=True).data}
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(
        methods=["GET"], request=None, responses={200: RoundSummarySerializer(many=True)}
    )
    @extend_schema(methods=["POST"], request=None, responses={201: RoundSerializer})
    @action(detail=True, methods=["get", "post"], url_path="rounds", pagination_class=None)
    def rounds(self, request: Request, slug: str | None = None) -> Response:
        """GET: the rounds (published ones unless you run it). POST: pair the next round."""
        if request.method == "GET":
            tournament = self.get_object()
            manager = selectors.can_manage(request.user, tournament)
            rounds = selectors.round_list(tournament, published_only=not manager)
            return Response(RoundSummarySerializer(rounds, many=True).data)
        return self._pair(request)

    @idempotent
    def _pair(self, request: Request) -> Response:
        tournament = self._managed()
        rnd = services.round_pair(tournament=tournament, by=request.user)
        full = selectors.round_get(tournament, rnd.number, manager=True)
        return Response(RoundSerializer(full).data, status=status.HTTP_201_CREATED)

    @extend_schema(parameters=[ROUND_NUMBER], responses={200: RoundSerializer})
    @action(detail=True, methods=["get"], url_path=r"rounds/(?P<number>[0-9]+)")
    def round_detail(
        self, request: Request, slug: str | None = None, number: str = "0"
    ) -> Response:
        """One round: its tables (seats in turn order, the match once recorded) and byes."""
        tournament = self.get_object()
        manager = selectors.can_manage(request.user, tournament)
        try:
            rnd = selectors.round_get(tournament, int(number), manager=manager)
        except Http404 as exc:
            raise NotFound("no such round") from exc
        return Response(RoundSerializer(rnd).data)

    @extend_schema(parameters=[ROUND_NUMBER], request=None, responses={200: RoundSerializer})
    @action(detail=True, methods=["post"], url_path=r"rounds/(?P<number>[0-9]+)/publish")
    def round_publish(
        self, request: Request, slug: str | None = None, number: str = "0"
    ) -> Response:
        """Publish a paired round: its tables become final and public."""
        tournament = self._managed()
        rnd = tournament.rounds.filter(number=int(number)).first()
        if rnd is None:
            raise NotFound("no such round")
        services.round_publish(round=rnd, by=request.user)
        return Response(
            RoundSerializer(selectors.round_get(tournament, rnd.number, manager=True)).data
        )

    @extend_schema(
        parameters=[OpenApiParameter("after", OpenApiTypes.INT, description="after round n")],
        responses={200: StandingsSerializer},
    )
    @action(detail=True, methods=["get"], url_path="standings", pagination_class=None)
    def standings(self, request: Request, slug: str | None = None) -> Response:
        """The standings after the complete rounds (or after round ``?after=n``)."""
        tournament = self.get_object()
        asked = whole_number(request.query_params.get("after"), parameter="after", maximum=999)
        after, lines = pairing.standings_after(tournament, asked)
        return Response(StandingsSerializer({"after_round": after, "standings": lines}).data)
