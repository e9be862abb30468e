"""REST API for matches: list, detail and submission (``POST /api/v1/matches/``), and
what may happen to a match afterwards: ``withdraw/``, ``correct/`` and its
``history/``; federation admins review ``repeated/`` results.

A refused record answers ``{"detail", "error": {"code", "move", "message",
"params"}}``: 400 for an invalid record, 409 for a duplicate (``params.match`` names
the stored match) or a withdrawn match, 413 for a record over 256 KB.

The list is paged by keys (``quotient.pagination.KeysetPagination``): ``next`` and
``previous`` are cursors on ``(played_on, id)``, ``?page=N`` still answers, and
``count`` is exact up to 1,000 matches, estimated above. Its rows leave out the
record, the replay and the analysis (the detail has them).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any, cast

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import HttpResponseBase
from django.utils import timezone
from django.utils.dateparse import parse_date
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from federation.idempotency import idempotent
from federation.models import Club
from federation.months import parse_month
from federation.permissions import ReadOnlyOrOrganiser, can_write_for_club, is_federation_admin
from quotient.api_cache import conditional
from quotient.generations import MATCHES, PLAYERS
from quotient.http_cache import SHORT
from quotient.pagination import KeysetPagination
from scoring.engine.common import RecordError
from scoring.errors import MatchRejected, warning
from scoring.models import Match, MatchEvent, MatchSeat, Status, Verification
from scoring.records import RECORD_LIMIT
from scoring.selectors import (
    match_list,
    match_values,
    repeated_results,
    score_sheet,
    seat_values,
)
from scoring.services import Recorded, match_correct, match_record, match_withdraw

#: the HTTP status of a refusal, by its code (any other refusal is a 400)
REJECTION_STATUS = {"duplicate-match": 409, "match-withdrawn": 409, "record-too-large": 413}
#: the largest body a submission or a correction may send: the record's own limit is
#: checked on the record itself; this one keeps a huge body from being parsed at all
BODY_LIMIT = 4 * RECORD_LIMIT
#: how far back the review of repeated results looks by default
REVIEW_DAYS = 90


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField(source="player.handle")
    name = serializers.CharField(source="player.public_display_name")
    score = serializers.IntegerField(allow_null=True)
    rank = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    deduction = serializers.IntegerField(allow_null=True)


def list_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A page of the list as ``MatchListSerializer`` writes it (its fields, in order;
    a test compares the two), built from the rows of ``match_values``: on a page of
    fifty matches, model instances and DRF's field-by-field walk cost several times
    the page's queries."""
    # the dates written by the fields MatchListSerializer has for them, the zone
    # looked up once a page rather than once a row
    zone = serializers.DateTimeField().default_timezone()
    when = serializers.DateTimeField(default_timezone=zone).to_representation
    day = serializers.DateField().to_representation
    month = serializers.DateField(format="%Y-%m").to_representation
    seats = seat_values([row["id"] for row in rows])
    return [
        {
            "id": row["id"],
            "game": row["game_key"],
            "club": row["club_slug"],
            "played_on": day(row["played_on"]),
            "game_number": row["game_number"],
            "submitted_at": when(row["submitted_at"]),
            "status": row["status"],
            "version": row["version"],
            "verification": row["verification"],
            "finished": row["finished"],
            "late": row["late"],
            "counted_month": month(row["counted_month"]),
            "seats": seats[row["id"]],
        }
        for row in rows
    ]


def created_body(match: Match, seats: Sequence[MatchSeat]) -> dict[str, Any]:
    """The answer to a submission: the match as ``MatchDetailSerializer`` writes it (its
    fields, in order; a test compares the two), built from the match and ``seats`` in
    memory, like ``list_rows`` (a submission is the most frequent write)."""
    when = serializers.DateTimeField().to_representation
    return {
        "id": match.pk,
        "game": match.game.key,
        "club": match.club.slug,
        "played_on": serializers.DateField().to_representation(match.played_on),
        "game_number": match.game_number,
        "submitted_at": when(match.submitted_at),
        "status": match.status,
        "version": match.version,
        "verification": match.verification,
        "finished": match.finished,
        "late": match.late,
        "counted_month": match.counted_month and f"{match.counted_month:%Y-%m}",
        "seats": [
            {
                "seat": seat.seat,
                "player": seat.player.handle,
                "name": seat.player.public_display_name,
                "score": seat.score,
                "rank": seat.rank,
                "points": seat.points,
                "deduction": seat.deduction,
            }
            for seat in seats
        ],
        "result": match.result,
        "analysis": match.analysis,
        "score_sheet": score_sheet(match.result),
    }


class MatchListSerializer(serializers.Serializer):
    """A match as the list shows it. Its fields are declared rather than read off the
    model (a ``ModelSerializer`` builds them anew at every use, a noticeable part of a
    submission's answer); they say what the model's fields would."""

    id = serializers.IntegerField(read_only=True, label="ID")
    game = serializers.CharField(source="game.key", read_only=True)
    club = serializers.CharField(source="club.slug", read_only=True)
    played_on = serializers.DateField(read_only=True, label=_("played on"))
    game_number = serializers.IntegerField(
        read_only=True, label=_("game number"), help_text=Match.game_number.field.help_text
    )
    submitted_at = serializers.DateTimeField(read_only=True, label=_("submitted at"))
    status = serializers.ChoiceField(choices=Status.choices, read_only=True, label=_("status"))
    version = serializers.IntegerField(
        read_only=True, label=_("version"), help_text=Match.version.field.help_text
    )
    verification = serializers.ChoiceField(
        choices=Verification.choices, read_only=True, label=_("verification")
    )
    finished = serializers.BooleanField(read_only=True, label=_("finished"))
    late = serializers.BooleanField(
        read_only=True, label=_("late"), help_text=Match.late.field.help_text
    )
    counted_month = serializers.DateField(format="%Y-%m", allow_null=True, read_only=True)
    seats = SeatSerializer(many=True, read_only=True)

    class Meta:
        fields = [
            "id",
            "game",
            "club",
            "played_on",
            "game_number",
            "submitted_at",
            "status",
            "version",
            "verification",
            "finished",
            "late",
            "counted_month",
            "seats",
        ]

    def get_fields(self) -> dict[str, serializers.Field]:
        """The declared fields in the order of ``Meta.fields`` (subclasses insert
        theirs, e.g. a tournament's ``round``)."""
        fields = super().get_fields()
        return {name: fields[name] for name in self.Meta.fields}


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
    game_number = serializers.IntegerField(
        min_value=1,
        max_value=999,
        required=False,
        default=1,
        help_text="Tells apart identical results of one day: the second is game 2.",
    )
    record = serializers.JSONField()


class WithdrawSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=1000)


class CorrectSerializer(serializers.Serializer):
    record = serializers.JSONField()
    reason = serializers.CharField(max_length=1000)


class MatchEventSerializer(serializers.Serializer):
    """One event of a match's history. ``by`` is shown to those who may change the
    match (the club's organisers, federation admins), null for anyone else; ``record``
    is the record of the version the event made (null for a withdrawal)."""

    action = serializers.CharField()
    by = serializers.SerializerMethodField()
    at = serializers.DateTimeField()
    reason = serializers.CharField()
    version = serializers.IntegerField()
    fingerprint = serializers.CharField()
    record = serializers.SerializerMethodField()

    def get_by(self, event: MatchEvent) -> str | None:
        if not self.context.get("show_by") or event.by is None:
            return None
        return event.by.get_username()

    def get_record(self, event: MatchEvent) -> Any:
        if event.action == MatchEvent.Action.WITHDRAWN:
            return None
        return self.context["records"].get(event.version)


class RepeatedMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.CharField(source="club.slug")
    game_number = serializers.IntegerField()
    status = serializers.CharField()
    submitted_at = serializers.DateTimeField()


class RepeatedResultSerializer(serializers.Serializer):
    game = serializers.CharField()
    played_on = serializers.DateField()
    seats = serializers.SerializerMethodField()
    matches = RepeatedMatchSerializer(many=True)

    def get_seats(self, group: Any) -> list[dict[str, Any]]:
        return [
            {"player": handle, "rank": rank, "score": score} for handle, rank, score in group.seats
        ]


def version_records(match: Match, events: list[MatchEvent]) -> dict[int, Any]:
    """The record of each version: a correction keeps the one it replaced."""
    records = {
        event.version - 1: event.replaced_record
        for event in events
        if event.action == MatchEvent.Action.CORRECTED
    }
    records[match.version] = match.record
    return records


def _date(text: str, name: str) -> Any:
    try:
        day = parse_date(text)
    except ValueError:
        day = None
    if day is None:
        raise ValidationError({name: "Use YYYY-MM-DD, e.g. 2026-11-02."})
    return day


def rejection(exc: MatchRejected, request: Request) -> Response:
    """The answer to a refused record: its error, with the status its code calls for."""
    error = exc.payload()
    code = REJECTION_STATUS.get(error["code"], status.HTTP_400_BAD_REQUEST)
    return Response({"detail": error["message"], "error": error}, status=code)


def body_limited(view: Callable[..., Response]) -> Callable[..., Response]:
    """Refuse a body over :data:`BODY_LIMIT` with a 413 before anything parses it."""

    @functools.wraps(view)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > BODY_LIMIT:
            too_large = RecordError("record-too-large", None, limit_kb=RECORD_LIMIT // 1024)
            return rejection(MatchRejected(too_large), request)
        return view(self, request, *args, **kwargs)

    return wrapper


@extend_schema(
    parameters=[
        OpenApiParameter("game", str, description="game key, e.g. divisor"),
        OpenApiParameter("club", str, description="club slug"),
        OpenApiParameter("player", str, description="player handle"),
        OpenApiParameter("month", str, description="month played, YYYY-MM"),
        OpenApiParameter(
            "status", str, description="recorded, corrected or withdrawn (comma-separated)"
        ),
    ]
)
@extend_schema_view(
    create=extend_schema(request=MatchSubmitSerializer, responses={201: MatchDetailSerializer})
)
class MatchViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Matches: anyone reads; a club's organisers (and federation admins) submit,
    correct and withdraw them."""

    permission_classes = [ReadOnlyOrOrganiser]
    serializer_class = MatchDetailSerializer
    #: apps above scoring extend the match with what they know (a tournament's round)
    detail_serializer_class: type[MatchDetailSerializer] = MatchDetailSerializer
    submit_serializer_class: type[MatchSubmitSerializer] = MatchSubmitSerializer

    pagination_class = KeysetPagination

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
            status=self._statuses(params.get("status")),
            summary=self.action == "list",  # a list never shows records and replays
        )

    def list(  # type: ignore[override]  # the cached rendered bytes, not a Response
        self, request: Request, *args: Any, **kwargs: Any
    ) -> HttpResponseBase:
        """A page of the list, built from rows (``list_rows``), not from instances, and
        kept rendered in the server-side cache until a match, a player or a club
        changes (the ``matches`` and ``players`` generations): a conditional GET is a
        304 from the cache alone. Kept for ``SHORT`` seconds: every submission starts
        new keys, so old pages are not left to fill the cache."""
        matches = self.get_queryset()  # a bad filter is refused before any cache read

        def page() -> dict:
            paginator = cast(KeysetPagination, self.paginator)
            rows = paginator.paginate_queryset(
                match_values(matches), request, self, counted=matches
            )
            return self.get_paginated_response(list_rows(rows)).data

        return conditional(request, ["match-list"], (MATCHES, PLAYERS), page, SHORT)

    @staticmethod
    def _statuses(text: str | None) -> Sequence[str] | None:
        if not text:
            return None
        wanted = [part.strip() for part in text.split(",") if part.strip()]
        unknown = [part for part in wanted if part not in Status.values]
        if unknown or not wanted:
            raise ValidationError({"status": f"Use one or more of {', '.join(Status.values)}."})
        return wanted

    def get_serializer_class(self):
        return {
            "list": MatchListSerializer,
            "create": self.submit_serializer_class,
            "withdraw": WithdrawSerializer,
            "correct": CorrectSerializer,
            "history": MatchEventSerializer,
            "repeated": RepeatedResultSerializer,
        }.get(self.action, self.detail_serializer_class)

    def record(self, data: dict[str, Any], user: Any) -> Recorded:
        """Store a validated submission (``match_record``); subclasses add their links."""
        return match_record(
            club=data["club"],
            played_on=data["played_on"],
            record=data["record"],
            submitted_by=user,
            game_number=data.get("game_number", 1),
        )

    @body_limited
    @idempotent
    def create(self, request, *args, **kwargs):
        payload = self.submit_serializer_class(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            recorded = self.record(payload.validated_data, request.user)
        except DjangoPermissionDenied as exc:
            raise PermissionDenied(str(exc)) from exc
        except MatchRejected as exc:
            return rejection(exc, request)
        body = self.created_body(recorded)
        body["warnings"] = [warning(code, **params) for code, params in recorded.warnings]
        return Response(body, status=status.HTTP_201_CREATED)

    def created_body(self, recorded: Recorded) -> dict[str, Any]:
        """The stored match as ``GET /api/v1/matches/{id}/`` shows it, from memory (its
        game, club, seats and players are there: nothing is read back)."""
        return created_body(recorded.match, recorded.seats)

    # -- after the submission -------------------------------------------------------

    def _changeable(self) -> Match:
        """The match of the URL, once the user may change it (else 403)."""
        match = self.get_object()
        if not can_write_for_club(self.request.user, match.club):
            raise PermissionDenied("You may only change matches of a club you organise.")
        return match

    def _shown(self, match: Match) -> dict[str, Any]:
        """The match as ``GET /api/v1/matches/{id}/`` shows it."""
        fresh = match_list(summary=False).get(pk=match.pk)
        return self.detail_serializer_class(fresh, context=self.get_serializer_context()).data

    @extend_schema(request=WithdrawSerializer, responses={200: MatchDetailSerializer})
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        """Withdraw the match (kept with its history, never rated again)."""
        match = self._changeable()
        payload = WithdrawSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            match_withdraw(match=match, reason=payload.validated_data["reason"], by=request.user)
        except DjangoPermissionDenied as exc:
            raise PermissionDenied(str(exc)) from exc
        except MatchRejected as exc:
            return rejection(exc, request)
        return Response(self._shown(match))

    @extend_schema(request=CorrectSerializer, responses={200: MatchDetailSerializer})
    @action(detail=True, methods=["post"])
    @body_limited
    def correct(self, request, pk=None):
        """Replace the match's record by a corrected one (replayed like a submission)."""
        match = self._changeable()
        payload = CorrectSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        try:
            match_correct(
                match=match, record=data["record"], reason=data["reason"], by=request.user
            )
        except DjangoPermissionDenied as exc:
            raise PermissionDenied(str(exc)) from exc
        except MatchRejected as exc:
            return rejection(exc, request)
        return Response(self._shown(match))

    @extend_schema(responses={200: MatchEventSerializer(many=True)})
    @action(detail=True, methods=["get"], pagination_class=None)
    def history(self, request, pk=None):
        """Every event of the match, oldest first, starting with its recording."""
        match = self.get_object()
        events = list(match.events.select_related("by").order_by("at", "id"))
        context = {
            "show_by": can_write_for_club(request.user, match.club),
            "records": version_records(match, events),
        }
        return Response(MatchEventSerializer(events, many=True, context=context).data)

    @extend_schema(
        parameters=[OpenApiParameter("since", str, description="first day, YYYY-MM-DD")],
        responses={200: RepeatedResultSerializer(many=True)},
    )
    @action(detail=False, methods=["get"], pagination_class=None)
    def repeated(self, request):
        """Federation admins: the same result entered under several game numbers."""
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        if not is_federation_admin(request.user):
            raise PermissionDenied("Only federation admins review repeated results.")
        since = timezone.localdate() - timedelta(days=REVIEW_DAYS)
        if request.query_params.get("since"):
            since = _date(request.query_params["since"], "since")
        groups = repeated_results(since=since)
        return Response(RepeatedResultSerializer(groups, many=True).data)
