"""The match API as the federation sees it: matches plus the tournament round they
belong to. It lives here, at the top of the app graph, because it combines scoring's
matches with tournaments' tables; scoring knows nothing of tournaments."""

from __future__ import annotations

import functools
from typing import Any

from django.db import connection
from django.http import HttpRequest, HttpResponseBase
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import serializers

from core.lean import LeanThrottles, handled, json_response, lean
from core.params import MAXIMUM, digits
from scoring.api import matches as scoring_api
from scoring.api import serializers as scoring_serializers
from scoring.api.serializers import detail_body
from scoring.models import Match
from scoring.selectors import DETAIL_WIDTH, match_detail_rows
from scoring.services import Recorded
from tournaments.models import Round, Table, Tournament
from tournaments.services import round_match_record


@functools.cache
def _round_joins() -> str:
    """The joins from the match ``m`` to its table's round (``tr``) and tournament
    (``tn``), as ``match_detail_rows`` takes them."""
    table, round_, tournament = (
        connection.ops.quote_name(model._meta.db_table) for model in (Table, Round, Tournament)
    )
    return (
        f" LEFT JOIN {table} tt ON tt.match_id = m.id"
        f" LEFT JOIN {round_} tr ON tr.id = tt.round_id"
        f" LEFT JOIN {tournament} tn ON tn.id = tr.tournament_id"
    )


class MatchDetailSerializer(scoring_serializers.MatchDetailSerializer):
    round = serializers.SerializerMethodField()

    class Meta(scoring_serializers.MatchDetailSerializer.Meta):
        fields = [
            *scoring_serializers.MatchListSerializer.Meta.fields,
            "round",
            "result",
            "analysis",
            "analysis_state",
            "score_sheet",
        ]

    def get_round(self, match: Match) -> dict[str, Any] | None:
        table = getattr(match, "tournament_table", None)
        if table is None:
            return None
        return {"tournament": table.round.tournament.slug, "number": table.round.number}


class MatchSubmitSerializer(scoring_serializers.MatchSubmitSerializer):
    round = serializers.PrimaryKeyRelatedField(
        queryset=Round.objects.select_related("tournament__game"),
        required=False,
        allow_null=True,
    )


#: scoring's actions that answer with the match's detail: here that detail names the
#: round (``detail_serializer_class``), so their schema says so too
_DETAIL_ACTIONS = {
    name: extend_schema(
        responses={
            200: MatchDetailSerializer,
            412: OpenApiResponse(description="stale If-Match: match-version-changed"),
        }
    )
    for name in ("withdraw", "correct")
    if hasattr(scoring_api.MatchViewSet, name)
}


@extend_schema_view(
    create=extend_schema(request=MatchSubmitSerializer, responses={201: MatchDetailSerializer}),
    **_DETAIL_ACTIONS,
)
class MatchViewSet(LeanThrottles, scoring_api.MatchViewSet):
    """Matches: anyone reads; a club's organisers (and federation admins) submit, with
    an optional tournament ``round``."""

    serializer_class = MatchDetailSerializer
    detail_serializer_class = MatchDetailSerializer
    submit_serializer_class = MatchSubmitSerializer

    def get_queryset(self):
        queryset = super().get_queryset()
        if self.action == "list":
            return queryset
        return queryset.select_related("tournament_table__round__tournament")

    def detail_body(self, pk: int) -> dict[str, Any] | None:
        """Scoring's detail read as rows, with the match's ``round`` after its seats
        (null outside a tournament), read in the same query."""
        rows = match_detail_rows(pk, columns=", tn.slug, tr.number", joins=_round_joins())
        if not rows:
            return None
        slug, number = rows[0][DETAIL_WIDTH:]
        found = None if slug is None else {"tournament": slug, "number": number}
        return detail_body(rows, after_seats={"round": found})

    @classmethod
    def as_view(cls, actions=None, **initkwargs):
        """The detail's view answers a plain read itself (``core.lean``:
        :func:`lean_detail`), the list's a plain read of ``?player=`` (or of the whole
        list) by its handler (``core.lean.handled``); the other views are DRF's."""
        view = super().as_view(actions, **initkwargs)
        if actions is not None and actions.get("get") == "retrieve":
            return lean(view, lean_detail)
        if actions is not None and actions.get("get") == "list":
            # a player's matches (or the whole list): the list's own handler, no dispatch
            return lean(view, functools.partial(handled, view), reads=("player",))
        return view

    def record(self, data: dict[str, Any], user: Any) -> Recorded:
        if data.get("round") is None:
            return super().record(data, user)
        return round_match_record(
            round=data["round"],
            club=data["club"],
            played_on=data["played_on"],
            record=data["record"],
            submitted_by=user,
            game_number=data.get("game_number", 1),
        )

    def created_body(self, recorded: Recorded) -> dict[str, Any]:
        """Scoring's answer with the match's ``round`` after its seats, as
        ``MatchDetailSerializer`` orders it (null for a match submitted without one:
        nothing to read)."""
        body = super().created_body(recorded)
        data = self.request.data  # validated: an object
        with_round = isinstance(data, dict) and data.get("round") is not None
        found = MatchDetailSerializer().get_round(recorded.match) if with_round else None
        after = list(body).index("seats") + 1
        items = list(body.items())
        return dict([*items[:after], ("round", found), *items[after:]])


def lean_detail(request: HttpRequest, pk: str) -> HttpResponseBase | None:
    """``GET /api/v1/matches/{id}/`` for a plain request (``core.lean``): the body of
    ``retrieve``'s JSON way (``detail_body``: one query) and its ``ETag``, without
    DRF's dispatch; None (the view answers) for an id that is not plain digits, no
    such match (its 404), or a database other than PostgreSQL (the query's dialect)."""
    number = digits(pk, MAXIMUM)
    if number is None or connection.vendor != "postgresql":
        return None
    body = _DETAIL.detail_body(number)
    if body is None:
        return None
    return json_response(body, {"ETag": f'"{body["version"]}"'})


#: what writes the detail's body (``detail_body`` reads no request)
_DETAIL = MatchViewSet()
