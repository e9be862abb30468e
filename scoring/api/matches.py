"""REST API for matches: list, detail and submission (``POST /api/v1/matches/``), and
what may happen to a match afterwards: ``withdraw/``, ``correct/`` and its
``history/``; federation admins review ``repeated/`` results.

A refused record answers ``{"detail", "error": {"code", "move", "message",
"params"}}``: 400 for an invalid record, 409 for a duplicate (``params.match`` names
the stored match) or a withdrawn match, 413 for a record over 256 KB.

The list is paged by keys (``core.pagination.KeysetPagination``): ``next`` and
``previous`` are cursors on ``(played_on, id)``, ``?page=N`` still answers, and
``count`` is exact up to 1,000 matches, estimated above. Its rows leave out the
record, the replay and the analysis (the detail has them).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any, cast

from django.db import connection
from django.http import HttpResponseBase
from django.utils import timezone
from django.utils.dateparse import parse_date
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, PermissionDenied, ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from core.api_cache import conditional
from core.errors import warning
from core.generations import MATCHES, PLAYERS
from core.http_cache import SHORT
from core.pagination import COUNT_CAP, KeysetPagination
from core.params import MAXIMUM, digits
from federation.idempotency import idempotent
from federation.months import parse_month
from federation.permissions import ReadOnlyOrOrganiser, can_write_for_club, is_federation_admin
from scoring.api.serializers import (
    CorrectSerializer,
    MatchDetailSerializer,
    MatchEventSerializer,
    MatchListSerializer,
    MatchSubmitSerializer,
    RepeatedResultSerializer,
    WithdrawSerializer,
    created_body,
    detail_body,
    list_rows,
    submitted_writer,
    version_records,
)
from scoring.errors import MatchRejected
from scoring.models import Match, Status
from scoring.records import RECORD_LIMIT
from scoring.selectors import (
    OVER_CAP,
    match_detail_rows,
    match_first_page,
    match_first_page_json,
    match_list,
    match_values,
    repeated_results,
)
from scoring.services import (
    Recorded,
    SubmissionReads,
    match_correct,
    match_record,
    match_withdraw,
    submission_reads,
)

#: the largest body a submission or a correction may send: the record's own limit is
#: checked on the record itself; this one keeps a huge body from being parsed at all
BODY_LIMIT = 4 * RECORD_LIMIT
#: how far back the review of repeated results looks by default
REVIEW_DAYS = 90
#: what stands for a first page's rows before they are set in its JSON
#: (``first_page_json``): no link of a page holds a NUL
_RESULTS = "\x00results\x00"
#: the query parameters ``get_queryset`` filters by (on every action, the detail too)
LIST_FILTERS = ("game", "club", "player", "month", "status")


def _date(text: str, name: str) -> Any:
    try:
        day = parse_date(text)
    except ValueError:
        day = None
    if day is None:
        raise ValidationError({name: "Use YYYY-MM-DD, e.g. 2026-11-02."})
    return day


def if_match(request: Request) -> frozenset[int] | None:
    """The match versions an ``If-Match`` header accepts (``"3"``, ``W/"3"``, a list);
    None without the header or with ``*``: no precondition. A tag that is not a
    version accepts nothing (412)."""
    header = request.headers.get("If-Match", "").strip()
    tags = [tag.strip() for tag in header.split(",") if tag.strip()]
    if not tags or "*" in tags:
        return None
    versions = set()
    for tag in tags:
        bare = tag.removeprefix("W/").strip('"')
        if bare.isascii() and bare.isdigit() and len(bare) <= 9:
            versions.add(int(bare))
    return frozenset(versions)


def etag(match: Match) -> dict[str, str]:
    """The ``ETag`` header of a match: its ``version``, the validator ``If-Match``
    takes back."""
    return {"ETag": f'"{match.version}"'}


#: the precondition of a correction or a withdrawal, as the schema shows it
IF_MATCH = OpenApiParameter(
    "If-Match",
    str,
    location=OpenApiParameter.HEADER,
    required=False,
    description=(
        'The match\'s version as its ETag (e.g. "3"), from GET /api/v1/matches/{id}/: '
        "the change is refused with 412 match-version-changed if someone changed the match "
        "meanwhile. Without it, the last writer wins."
    ),
)


def body_limited(view: Callable[..., Response]) -> Callable[..., Response]:
    """Refuse a body over :data:`BODY_LIMIT` with a 413 before anything parses it."""

    @functools.wraps(view)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > BODY_LIMIT:
            raise MatchRejected("record-too-large", limit_kb=RECORD_LIMIT // 1024)
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
        # a list never shows records and replays
        return match_list(**self.list_filters(), summary=self.action == "list")

    def list_filters(self) -> dict[str, Any]:
        """The list's filters of the query (``match_list``'s arguments); a 400 for a
        month or a status that is not one."""
        params = self.request.query_params
        month = None
        if params.get("month"):
            month = parse_month(params["month"])
            if month is None:
                raise ValidationError({"month": "Use YYYY-MM, e.g. 2026-11."})
        return {
            "game": params.get("game"),
            "club": params.get("club"),
            "player": params.get("player"),
            "month": month,
            "status": self._statuses(params.get("status")),
        }

    def list(  # type: ignore[override]  # the cached rendered bytes, not a Response
        self, request: Request, *args: Any, **kwargs: Any
    ) -> HttpResponseBase:
        """A page of the list, built from rows (``list_rows``), not from instances, and
        kept rendered in the server-side cache until a match, a player or a club
        changes (the ``matches`` and ``players`` generations): a conditional GET is a
        304 from the cache alone. Kept for ``SHORT`` seconds: every submission starts
        new keys, so old pages are not left to fill the cache."""
        filters = self.list_filters()  # a bad filter is refused before any cache read

        def page() -> dict:
            paginator = cast(KeysetPagination, self.paginator)
            first = self.first_page(request, filters)
            if first is not None:
                return first
            matches = match_list(**filters)
            rows = paginator.paginate_queryset(
                match_values(matches), request, self, counted=matches
            )
            return self.get_paginated_response(list_rows(rows)).data

        return conditional(
            request,
            ["match-list"],
            (MATCHES, PLAYERS),
            page,
            SHORT,
            body=lambda: self.first_page_json(request, filters),
        )

    #: ``first_page_json`` counted the list over the cap (``first_page`` then answers None)
    over_cap = False

    def first_page_json(self, request: Request, filters: dict[str, Any]) -> bytes | None:
        """``first_page`` as ``JSONRenderer`` writes it, its rows written by the database
        (``match_first_page_json``: no dict built a row) and set in the rest; None where
        ``first_page`` or the paginator's way answers (and indented JSON: the renderer's
        own)."""
        params = request.query_params
        if any(name in params for name in ("cursor", "page", "page_size")):
            return None
        renderer, media_type = request.accepted_renderer, request.accepted_media_type
        context = {"request": request}
        if not isinstance(renderer, JSONRenderer) or renderer.get_indent(media_type, context):
            return None
        when = submitted_writer()
        if connection.vendor != "postgresql" or when is None:
            return None
        paginator = cast(KeysetPagination, self.paginator)
        page = match_first_page_json(paginator.page_size, COUNT_CAP, when, **filters)
        if page is OVER_CAP:
            self.over_cap = True  # first_page would count it again: the paginator's way
        if page is None or page is OVER_CAP:
            return None
        paginator.first_page(request, page.keys, more=page.more, count=page.count)
        data = self.get_paginated_response(_RESULTS).data
        head, *tail = renderer.render(data, media_type, context).split(
            renderer.render(_RESULTS, media_type)
        )
        if len(tail) != 1:  # never: no text of a link holds a NUL
            return None
        return head + page.results.encode() + tail[0]

    def first_page(self, request: Request, filters: dict[str, Any]) -> dict | None:
        """The list's first page in JSON as the paginator writes it, read in one query
        (``match_first_page``: rows and seats, a player's count with them), counted
        from its rows when they fit on it, else with one query more; None where the
        paginator's way answers (another page, a page size, the browsable API, a count
        over the cap)."""
        params = request.query_params
        paged = any(name in params for name in ("cursor", "page", "page_size"))
        if paged or self.over_cap or request.accepted_renderer.format != "json":
            return None
        if connection.vendor != "postgresql":
            return None
        paginator = cast(KeysetPagination, self.paginator)
        size = paginator.page_size
        rows, more, count = match_first_page(size, COUNT_CAP, **filters)
        if count is None:
            return None
        paginator.first_page(request, rows, more=more, count=count)
        return self.get_paginated_response(list_rows(rows, with_seats=True)).data

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

    #: the club, the rights, the game and the players of the submission, read together
    #: (``submission_reads``) before its serializer reads the club
    reads: SubmissionReads | None = None

    def record(self, data: dict[str, Any], user: Any) -> Recorded:
        """Store a validated submission (``match_record``); subclasses add their links."""
        return match_record(
            club=data["club"],
            played_on=data["played_on"],
            record=data["record"],
            submitted_by=user,
            game_number=data.get("game_number", 1),
            reads=self.reads,
        )

    @body_limited
    @idempotent
    def create(self, request, *args, **kwargs):
        data = request.data
        if isinstance(data, dict):  # a JSON object or a form: else the serializer refuses
            self.reads = submission_reads(request.user, data.get("club"), data.get("record"))
        validated = self.submit_serializer_class.plain(data, self.reads)
        if validated is None:  # not a plain submission: the serializer's walk answers
            context = {"reads": self.reads}
            payload = self.submit_serializer_class(data=request.data, context=context)
            payload.is_valid(raise_exception=True)
            validated = payload.validated_data
        recorded = self.record(validated, request.user)
        body = self.created_body(recorded)
        body["warnings"] = [warning(code, **params) for code, params in recorded.warnings]
        return Response(body, status=status.HTTP_201_CREATED, headers=etag(recorded.match))

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

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The match, with its ``version`` as ``ETag`` (for ``If-Match``). In JSON, read
        in one query as rows (``match_detail_rows``, ``detail_body``): the same body
        as the serializer's; the browsable API, a filter in the query or a key that is
        not a plain number take the serializer's way."""
        pk = self.plain_pk(request, kwargs.get(self.lookup_url_kwarg or self.lookup_field))
        if pk is not None:
            body = self.detail_body(pk)
            if body is not None:
                return Response(body, headers={"ETag": f'"{body["version"]}"'})
        match = self.get_object()
        data = self.get_serializer(match).data
        return Response(data, headers=etag(match))

    @staticmethod
    def plain_pk(request: Request, key: Any) -> int | None:
        """``key`` as a match's id when the detail may be read as rows: asked for in
        JSON, no filter of the list in the query (``get_queryset`` would apply it),
        PostgreSQL (the SQL's dialect), an id of plain digits within ``bigint``."""
        if request.accepted_renderer.format != "json" or connection.vendor != "postgresql":
            return None
        params = request.query_params
        if any(params.get(name) for name in LIST_FILTERS):
            return None
        return digits(key, MAXIMUM) if isinstance(key, str) else None

    def detail_body(self, pk: int) -> dict[str, Any] | None:
        """The detail of match ``pk`` as ``detail_serializer_class`` writes it, from
        rows; None when there is no such match (the serializer's way answers the 404).
        Subclasses add their fields (a tournament's round)."""
        rows = match_detail_rows(pk)
        return detail_body(rows) if rows else None

    @extend_schema(
        request=WithdrawSerializer,
        parameters=[IF_MATCH],
        responses={200: MatchDetailSerializer, 412: OpenApiResponse(description="stale If-Match")},
    )
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        """Withdraw the match (kept with its history, never rated again)."""
        match = self._changeable()
        payload = WithdrawSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        done = match_withdraw(
            match=match,
            reason=payload.validated_data["reason"],
            by=request.user,
            versions=if_match(request),
        )
        return Response(self._shown(match), headers=etag(done))

    @extend_schema(
        request=CorrectSerializer,
        parameters=[IF_MATCH],
        responses={200: MatchDetailSerializer, 412: OpenApiResponse(description="stale If-Match")},
    )
    @action(detail=True, methods=["post"])
    @body_limited
    def correct(self, request, pk=None):
        """Replace the match's record by a corrected one (replayed like a submission)."""
        match = self._changeable()
        payload = CorrectSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        done = match_correct(
            match=match,
            record=data["record"],
            reason=data["reason"],
            by=request.user,
            versions=if_match(request),
        )
        return Response(self._shown(match), headers=etag(done.match))

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
