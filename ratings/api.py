"""REST API of the world ranking (read-only).

``GET /api/v1/rankings/{game}/{YYYY-MM}/`` -> ``{"game", "month", "revision",
"published_at", "inputs_hash", "parameters", "entries": [...], "provisional": [...]}``;
entries are paginated with ``?page=`` (provisional ones with ``?provisional_page=``),
the page links beside them.
"""

from __future__ import annotations

from django.core.paginator import EmptyPage, Paginator
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import api_view
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from federation.models import Game, Player
from quotient.pagination import Pagination
from ratings.models import RankingEntry, RankingList
from ratings.selectors import player_history, ranking_entries, ranking_get, ranking_months
from scoring.selectors import parse_month

PAGE_SIZE = 100
MAX_PAGE_SIZE = 500


def entry_row(entry: RankingEntry, *, ranked: bool = True) -> dict:
    row = {
        "rank": entry.rank,
        "player": entry.player.handle,
        "name": entry.player.public_display_name,
        "fladub": entry.fladub,
        "mu": entry.mu,
        "sigma": entry.sigma,
        "results_counted": entry.results_counted,
        "movement": entry.movement,
    }
    if not ranked:
        del row["rank"]
    return row


def _page_number(request: Request, name: str) -> int:
    raw = request.query_params.get(name, "1")
    if not raw.isdigit() or int(raw) < 1:
        raise ValidationError({name: "a page number from 1"})
    return int(raw)


def _page_size(request: Request) -> int:
    raw = request.query_params.get("page_size", str(PAGE_SIZE))
    if not raw.isdigit() or int(raw) < 1:
        raise ValidationError({"page_size": "a positive number"})
    return min(int(raw), MAX_PAGE_SIZE)


def _paged(request: Request, queryset, param: str, *, ranked: bool) -> tuple[list, dict]:
    paginator = Paginator(queryset, _page_size(request))
    number = _page_number(request, param)
    try:
        page = paginator.page(number)
    except EmptyPage as exc:
        raise NotFound(f"{param} {number} does not exist") from exc
    url = request.build_absolute_uri()
    from rest_framework.utils.urls import replace_query_param

    links = {
        "count": paginator.count,
        "next": replace_query_param(url, param, number + 1) if page.has_next() else None,
        "previous": replace_query_param(url, param, number - 1) if page.has_previous() else None,
    }
    return [entry_row(e, ranked=ranked) for e in page.object_list], links


def _month_label(ranking: RankingList) -> str:
    return ranking.month.strftime("%Y-%m")


@extend_schema(
    operation_id="rankings_month_retrieve",
    parameters=[
        OpenApiParameter("page", int),
        OpenApiParameter("provisional_page", int),
        OpenApiParameter("page_size", int),
        OpenApiParameter("revision", int),
    ],
    responses=inline_serializer(
        "RankingList",
        {
            "game": serializers.CharField(),
            "month": serializers.CharField(),
            "revision": serializers.IntegerField(),
            "published_at": serializers.DateTimeField(),
            "inputs_hash": serializers.CharField(),
            "parameters": serializers.JSONField(),
            "entries": serializers.ListField(child=serializers.JSONField()),
            "provisional": serializers.ListField(child=serializers.JSONField()),
        },
    ),
)
@api_view(["GET"])
def ranking_detail(request: Request, game: str, month: str) -> Response:
    """One published list: ranked entries and provisional players, paginated."""
    first_day = parse_month(month)
    if first_day is None:
        raise ValidationError({"month": "Use YYYY-MM, e.g. 2026-11."})
    revision = request.query_params.get("revision")
    if revision is not None and not revision.isdigit():
        raise ValidationError({"revision": "a revision number"})
    ranking = ranking_get(game=game, month=first_day, revision=int(revision) if revision else None)
    if ranking is None:
        raise NotFound(f"no published {game} ranking for {month}")
    entries, entry_links = _paged(
        request, ranking_entries(ranking, provisional=False), "page", ranked=True
    )
    provisional, provisional_links = _paged(
        request, ranking_entries(ranking, provisional=True), "provisional_page", ranked=False
    )
    return Response(
        {
            "game": ranking.game.key,
            "month": _month_label(ranking),
            "revision": ranking.revision,
            "published_at": ranking.published_at,
            "inputs_hash": ranking.inputs_hash,
            "parameters": ranking.parameters,
            "engine_version": ranking.engine_version,
            "entries": entries,
            "entries_page": entry_links,
            "provisional": provisional,
            "provisional_page": provisional_links,
        }
    )


@extend_schema(
    operation_id="rankings_months_list",
    responses=inline_serializer("RankingMonth", {"month": serializers.CharField()}),
)
@api_view(["GET"])
def ranking_month_list(request: Request, game: str) -> Response:
    """The published months of a game (latest revision of each), newest first."""
    get_object_or_404(Game, key=game)
    paginator = Pagination()
    page = paginator.paginate_queryset(ranking_months(game=game), request)
    rows = [
        {
            "month": _month_label(r),
            "revision": r.revision,
            "published_at": r.published_at,
            "results_counted": r.results_counted,
            "url": request.build_absolute_uri(f"/api/v1/rankings/{game}/{_month_label(r)}/"),
        }
        for r in page
    ]
    return paginator.get_paginated_response(rows)


@extend_schema(
    operation_id="players_history_list",
    responses=inline_serializer("PlayerHistory", {"game": serializers.CharField()}),
)
@api_view(["GET"])
def player_history_view(request: Request, handle: str) -> Response:
    """The player's ranking number and rank per month per game."""
    player = get_object_or_404(Player, handle__iexact=handle)
    paginator = Pagination()
    page = paginator.paginate_queryset(player_history(player_id=player.pk), request)
    rows = [
        {
            "game": e.ranking.game.key,
            "month": _month_label(e.ranking),
            "rank": e.rank,
            "fladub": e.fladub,
            "provisional": e.provisional,
            "results_counted": e.results_counted,
            "movement": e.movement,
        }
        for e in page
    ]
    return paginator.get_paginated_response(rows)
