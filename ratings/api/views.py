"""REST API of the world ranking (read-only).

``GET /api/v1/rankings/`` lists the games, each with its published months (paginated
as the rest of the API). ``GET /api/v1/rankings/{game}/{YYYY-MM}/`` -> ``{"game",
"month", "revision", "published_at", "inputs_hash", "parameters", "engine_version",
"entries": [...], "entries_page": {...}, "provisional": [...], "provisional_page":
{...}}``; entries are paginated with ``?page=`` (provisional ones with
``?provisional_page=``) and ``?page_size=`` (100, at most 500), each page's links
beside it. The same list with ``?format=csv`` is the whole list as ``text/csv``
(``rank,player,name,club,country,fladub,mu,sigma,results_counted,movement``; ranked
players by position, then provisional ones without a rank). ``GET
/api/v1/rankings/{game}/`` lists the published months, ``GET
/api/v1/players/{handle}/history/`` a player's entries, paginated as the rest of the
API, and ``GET /api/v1/players/{handle}/rankings/{game}/{YYYY-MM}/`` -> ``{"fladub",
"rank", "results": [{"match", "played_on", "age", "weight"}]}`` the results the
player's number of that list counted.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import cast
from urllib import parse

from django.core.paginator import InvalidPage
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api_cache import body_key, conditional, rendered, served
from core.generations import Generation
from core.http_cache import Validators, generations_and_body, not_modified, page_parts
from core.lean import LeanThrottles, handled, lean
from core.memos import memo
from core.pagination import Pagination
from federation.models import Game, Player
from federation.months import parse_month
from ratings.api.csv_export import CSVRenderer, ranking_csv
from ratings.api.history import lean_history
from ratings.api.serializers import (
    MONTH_FORMAT,
    PlayerHistorySerializer,
    PlayerRankingSerializer,
    RankingGameSerializer,
    RankingListSerializer,
    RankingMonthSerializer,
    history_body,
    list_head,
    provisional_entry,
    ranked_entry,
)
from ratings.caching import (
    LISTS,
    MATCHES,
    PLAYERS,
    changed_at,
    list_key,
    published_list,
    tag,
)
from ratings.models import RankingEntry, RankingList
from ratings.selectors import (
    EntryRow,
    ListPart,
    Rows,
    entries_json,
    entry_results,
    page_slice,
    player_entry,
    player_history,
    player_history_rows,
    ranking_games,
    ranking_get,
    ranking_months,
    ranking_part,
    read_slices,
    written,
)

#: what stands for a page's provisional entries before they are set in its JSON: no
#: text of an answer holds a NUL (PostgreSQL's texts cannot)
_SPLICE = "\x00provisional\x00"
#: what stands for its ranked entries (``entries_json``)
_ENTRIES = "\x00entries\x00"


class EntryPagination(Pagination):
    """One of a list's two paginations: ``?page=`` for the ranked entries,
    ``?provisional_page=`` for the provisional ones, ``?page_size=`` for both. A
    malformed number is a 400, a page past the end a 404."""

    page_size = 100
    max_page_size = 500

    def __init__(self, page_query_param: str) -> None:
        self.page_query_param = page_query_param
        self.invalid_page_message = f"{page_query_param} {{page_number}} does not exist"

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param, str(self.page_size))
        if not _positive(raw):
            raise ValidationError({self.page_size_query_param: "a positive number"})
        return min(int(raw), self.max_page_size)

    def get_page_number(self, request: Request, paginator) -> int:
        raw = request.query_params.get(self.page_query_param, "1")
        if not _positive(raw):
            raise ValidationError({self.page_query_param: "a page number from 1"})
        return int(raw)

    def paginate_queryset(self, queryset, request: Request, view=None) -> list:
        """The page's rows, as the base class pages them, taken from the page's list
        at once (the base class walks the page an item at a time)."""
        self.request = request
        size = self.get_page_size(request)
        paginator = self.django_paginator_class(queryset, size)
        number = self.get_page_number(request, paginator)
        try:
            self.page = paginator.page(number)
        except InvalidPage as exc:
            raise NotFound(self.invalid_page_message.format(page_number=number)) from exc
        if paginator.num_pages > 1 and self.template is not None:
            self.display_page_controls = True
        return list(self.page.object_list)

    def get_next_link(self) -> str | None:
        """The next page's link, as the base class writes it."""
        if self.page is None or self.request is None or not self.page.has_next():
            return None
        return self._links().replace(self.page_query_param, self.page.next_page_number())

    def get_previous_link(self) -> str | None:
        """The previous page's link, ``page=1`` written out (the base class drops it)."""
        if self.page is None or self.request is None or not self.page.has_previous():
            return None
        return self._links().replace(self.page_query_param, self.page.previous_page_number())

    def _links(self) -> Links:
        """The request's absolute URL, built and parsed once for the links of both
        paginations (kept on the request)."""
        request = cast(Request, self.request)
        links = getattr(request, "_entry_links", None)
        if links is None:
            links = Links(request.build_absolute_uri())
            request._entry_links = links  # type: ignore[attr-defined]
        return links

    def paginate(self, queryset, request: Request) -> tuple[list[EntryRow], dict]:
        """One page of ``queryset`` and its links (``count``, ``next``, ``previous``)."""
        rows: list[EntryRow] = self.paginate_queryset(queryset, request) or []
        count = self.page.paginator.count if self.page is not None else len(rows)
        return rows, {
            "count": count,
            "next": self.get_next_link(),
            "previous": self.get_previous_link(),
        }


class Links:
    """``replace_query_param`` on one URL, parsed once: the same links, each written
    from the parsed query (DRF's parses the URL again for each)."""

    def __init__(self, url: str) -> None:
        self.parts = parse.urlsplit(url)
        self.query = parse.parse_qs(self.parts.query, keep_blank_values=True)

    def replace(self, key: str, value: object) -> str:
        """``replace_query_param(url, key, value)``."""
        query = {**self.query, key: [str(value)]}
        encoded = parse.urlencode(sorted(query.items()), doseq=True)
        return parse.urlunsplit(self.parts._replace(query=encoded))


def _read_pages(request: Request, parts: list[tuple[Rows, str]], players: Generation) -> None:
    """Read the pages the query asks of ``parts`` (each with its page parameter) in
    one query, before their paginations take them (a page they refuse is not read)."""
    wanted = [found for part, param in parts if (found := _page_wanted(request, part, param))]
    read_slices(wanted, tag(players))


def _page_wanted(request: Request, part: Rows, param: str) -> tuple[ListPart, int, int] | None:
    """The slice of ``part`` the query's page ``param`` asks for, as ``read_slices``
    takes it; None for a part without page marks or a page its pagination refuses."""
    raw = request.query_params.get("page_size", str(EntryPagination.page_size))
    if not isinstance(part, ListPart) or not _positive(raw):
        return None
    size = min(int(raw), EntryPagination.max_page_size)
    found = page_slice(part, request.query_params.get(param, "1"), size)
    return (part, *found) if found is not None else None


#: the published lists this process read, by cache key (``list_key``: the lists'
#: generation in it), as instances: ``published_list``'s own copy is unpickled at each
#: read. The API only reads them. A few: one list is asked for at a time.
_LISTS: dict[str, RankingList] = memo({})
KEPT_LISTS = 8


def _published(
    game: str, month: date, revision: int | None, lists: Generation
) -> RankingList | None:
    """``published_list``, its instance kept by the process while the key stands."""
    key = list_key(game, month, revision, lists)
    ranking = _LISTS.get(key)
    if ranking is None:
        ranking = published_list(game=game, month=month, revision=revision, lists=lists)
        if ranking is not None:
            if len(_LISTS) >= KEPT_LISTS:
                _LISTS.clear()
            _LISTS[key] = ranking
    return ranking


def _positive(raw: str) -> bool:
    return raw.isascii() and raw.isdigit() and int(raw) >= 1


def _month(text: str) -> date:
    first_day = parse_month(text)
    if first_day is None:
        raise ValidationError({"month": MONTH_FORMAT})
    return first_day


class RankingDetail(LeanThrottles, APIView):
    """One published list: ranked entries and provisional players, paginated; or, with
    ``?format=csv``, the whole list as CSV. A plain read of a page (``?page=`` or none)
    is its ``get`` without DRF's dispatch (``core.lean.handled``)."""

    renderer_classes = [*APIView.renderer_classes, CSVRenderer]

    @extend_schema(
        operation_id="rankings_month_retrieve",
        parameters=[
            OpenApiParameter("page", int),
            OpenApiParameter("provisional_page", int),
            OpenApiParameter("page_size", int),
            OpenApiParameter("revision", int),
            OpenApiParameter(
                "format",
                str,
                enum=["json", "csv"],
                description="csv: the whole list, provisional players last without a rank",
            ),
        ],
        responses={
            (200, "application/json"): RankingListSerializer,
            (200, "text/csv"): OpenApiTypes.STR,
        },
    )
    def get(self, request: Request, game: str, month: str) -> HttpResponseBase:
        first_day = _month(month)
        revision = request.query_params.get("revision")
        if revision is not None and not (revision.isascii() and revision.isdigit()):
            raise ValidationError({"revision": "a revision number"})
        number = int(revision) if revision else None
        kind = request.accepted_renderer.format
        url = page_parts(request, html=False)

        def validators_of(ranking: RankingList, gens: dict[str, Generation]) -> Validators:
            return Validators.of(
                [ranking.pk, gens[PLAYERS], kind, *url],
                max(ranking.published_at, changed_at(gens[PLAYERS])),
            )

        def key_of(gens: dict[str, Generation]) -> str | None:
            # a guess costs no round trip and no query: the list this process keeps
            ranking = _LISTS.get(list_key(game, first_day, number, gens[LISTS]))
            if ranking is None or kind != "json":
                return None
            return body_key(request, validators_of(ranking, gens).key)

        # the generations and the body's read in one round trip (when they have not moved)
        gens, prefetched = generations_and_body(request._request, (LISTS, PLAYERS), key_of)
        ranking = _published(game, first_day, number, gens[LISTS])
        if ranking is None:
            raise NotFound(f"no published {game} ranking for {month}")
        if kind not in ("json", "csv"):  # the browsable API: a page for people, not cached
            return Response(self.page_data(request, ranking, gens))
        validators = validators_of(ranking, gens)
        response = not_modified(request._request, validators)
        if response is None and kind == "csv":
            response = ranking_csv(ranking, validators.key, by=request._request)
        elif response is None:
            response = rendered(
                request,
                validators.key,
                lambda: self.page_data(request, ranking, gens),
                body=lambda: self.page_json(request, ranking, gens),
                prefetched=prefetched,
            )
        # a revision asked for by number never changes; the month's latest may be re-run
        return served(request, response, validators, immutable=revision is not None)

    def page_data(
        self,
        request: Request,
        ranking: RankingList,
        gens: dict[str, Generation],
        provisional_json: Callable[[Rows, int, list[EntryRow]], object] | None = None,
        ranked_json: Callable[[Rows], object] | None = None,
    ) -> dict:
        """The answer's data; ``provisional_json(part, start, rows)``: what stands for
        the provisional entries instead of their dicts, ``ranked_json(part)`` for the
        ranked ones (None: their dicts) (``page_json``)."""
        ranked = ranking_part(ranking, provisional=False)
        provisional = ranking_part(ranking, provisional=True)
        entries = ranked_json(ranked) if ranked_json is not None else None
        parts = [(provisional, "provisional_page")]
        if entries is None:
            parts.insert(0, (ranked, "page"))
        _read_pages(request, parts, gens[PLAYERS])
        rows, entries_page = EntryPagination("page").paginate(ranked, request)
        paginator = EntryPagination("provisional_page")
        others, provisional_page = paginator.paginate(provisional, request)
        if provisional_json is None or paginator.page is None:
            written_out: object = [provisional_entry(row) for row in others]
        else:
            start = paginator.page.start_index() - 1 if others else 0
            written_out = provisional_json(provisional, start, others)
        return {
            **list_head(ranking, gens[LISTS]),
            "entries": [ranked_entry(row) for row in rows] if entries is None else entries,
            "entries_page": entries_page,
            "provisional": written_out,
            "provisional_page": provisional_page,
        }

    def page_json(
        self, request: Request, ranking: RankingList, gens: dict[str, Generation]
    ) -> bytes | None:
        """The answer as ``JSONRenderer`` writes it, its provisional entries (the same
        on every page of the list) written once per process while it keeps them
        (``ratings.selectors.written``) and set in the rest, its ranked entries written
        by PostgreSQL (``entries_json``: no row built in Python); None: indented, written
        by the renderer alone."""
        renderer, media_type = request.accepted_renderer, request.accepted_media_type
        context = {"request": request}
        if not isinstance(renderer, JSONRenderer) or renderer.get_indent(media_type, context):
            return None
        fragments: dict[str, bytes] = {}

        def provisional_json(part: Rows, start: int, rows: list[EntryRow]) -> str:
            def write(rows: list[EntryRow]) -> bytes:
                return renderer.render([provisional_entry(row) for row in rows], media_type)

            fragments[_SPLICE] = written(part, start, rows, ("json", media_type), write)
            return _SPLICE

        def ranked_json(part: Rows) -> str | None:
            found = _page_wanted(request, part, "page")
            text = entries_json(*found) if found is not None else None
            if text is None:
                return None
            fragments[_ENTRIES] = text.encode()
            return _ENTRIES

        data = self.page_data(request, ranking, gens, provisional_json, ranked_json)
        body = renderer.render(data, media_type, context)
        for splice, fragment in fragments.items():
            head, *tail = body.split(renderer.render(splice, media_type))
            if len(tail) != 1:  # never: no text of a list holds a NUL
                return None
            body = head + fragment + tail[0]
        return body

    def finalize_response(self, request, response, *args, **kwargs):
        accepted = getattr(request, "accepted_renderer", None)  # none: negotiation failed
        if isinstance(response, Response) and getattr(accepted, "format", None) == "csv":
            # an error asked for as CSV is answered as every other error: in JSON
            request.accepted_renderer, request.accepted_media_type = (
                JSONRenderer(),
                JSONRenderer.media_type,
            )
        return super().finalize_response(request, response, *args, **kwargs)


class RankingMonthList(generics.ListAPIView):
    """The published months of a game (latest revision of each), newest first."""

    serializer_class = RankingMonthSerializer
    queryset = RankingList.objects.none()  # the model; get_queryset reads the game first

    def get_queryset(self):
        get_object_or_404(Game, key=self.kwargs["game"])
        return ranking_months(game=self.kwargs["game"])

    @extend_schema(operation_id="rankings_months_list")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class PlayerHistory(LeanThrottles, generics.ListAPIView):
    """The player's ranking number and rank per month per game."""

    serializer_class = PlayerHistorySerializer
    queryset = RankingEntry.objects.none()  # the model; get_queryset reads the player first

    def get_queryset(self):
        player = get_object_or_404(Player.objects.by_handle(self.kwargs["handle"]))
        return player_history(player_id=player.pk)

    @extend_schema(operation_id="players_history_list")
    def get(self, request, *args, **kwargs):
        parts: list[object] = ["history", kwargs["handle"].lower()]
        return conditional(request, parts, (LISTS, PLAYERS, MATCHES), self.body)

    def body(self) -> dict:
        """The page's body: in JSON, its first page and only one, from rows
        (``player_history_rows``, ``history_body``; the count is the rows' when they
        fit on it); else, as the list view pages and serializes it (a page asked for,
        the browsable API, a longer history, no such player: its 404)."""
        request, handle = self.request, self.kwargs["handle"]
        params = request.query_params
        plain = "page" not in params and "page_size" not in params and "\x00" not in handle
        if plain and request.accepted_renderer.format == "json":
            size = cast(Pagination, self.paginator).page_size
            rows = player_history_rows(handle, size + 1) if size else None
            if rows is not None and len(rows) <= size:
                return history_body(rows)
        return super().get(request, *self.args, **self.kwargs).data


class RankingIndex(generics.ListAPIView):
    """The games and their published months."""

    serializer_class = RankingGameSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema reads a model, not rows
            return Game.objects.none()
        return ranking_games()

    @extend_schema(operation_id="rankings_games_list")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class PlayerRanking(APIView):
    """Why the player's number is what it is: every result it counted, newest first."""

    @extend_schema(operation_id="players_rankings_retrieve", responses=PlayerRankingSerializer)
    def get(self, request: Request, handle: str, game: str, month: str) -> HttpResponseBase:
        first_day = _month(month)
        parts: list[object] = ["why", handle.lower(), game, first_day]
        return conditional(
            request,
            parts,
            (LISTS, PLAYERS, MATCHES),
            lambda: self.body(handle, game, first_day, month),
        )

    def body(self, handle: str, game: str, first_day: date, month: str) -> dict:
        player = get_object_or_404(Player.objects.by_handle(handle))
        entry = player_entry(player=player, game=game, month=first_day)
        if entry is None:
            if ranking_get(game=game, month=first_day) is None:
                raise NotFound(f"no published {game} ranking for {month}")
            raise NotFound(f"{player.handle} is not in the {game} ranking of {month}")
        body = {"fladub": entry.fladub, "rank": entry.rank, "results": entry_results(entry)}
        return dict(PlayerRankingSerializer(body).data)


ranking_index = RankingIndex.as_view()


def _plain_ranking(request: HttpRequest, game: str, month: str) -> HttpResponseBase | None:
    """A plain read of a list's page: ``RankingDetail.get`` without DRF's dispatch."""
    return handled(_ranking_detail, request, game=game, month=month)


_ranking_detail = RankingDetail.as_view()
ranking_detail = lean(_ranking_detail, _plain_ranking, reads=("page",))


ranking_month_list = RankingMonthList.as_view()


def _plain_history(request: HttpRequest, handle: str) -> HttpResponseBase | None:
    """A plain read of the history without DRF's dispatch (``ratings.api.history``)."""
    paging = cast(type[Pagination], PlayerHistory.pagination_class)
    return lean_history(request, handle, paging.page_size or 0)


player_history_view = lean(PlayerHistory.as_view(), _plain_history)


player_ranking_view = PlayerRanking.as_view()
