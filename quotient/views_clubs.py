"""Club pages (``quotient.clubs``): ``/clubs/`` (the list, with a search),
``/clubs/<slug>/`` and ``GET /api/v1/clubs/<slug>/stats/``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from federation.models import Club
from federation.months import month_index, month_label
from quotient.charts import BarWords, month_bars
from quotient.clubs import club_search, club_stats

#: longer queries are cut (as the player search does)
QUERY_LENGTH = 100


def club_list(request: HttpRequest) -> HttpResponse:
    """``/clubs/?q=``: every club, or those whose name, city or slug holds the query."""
    query = request.GET.get("q", "").strip()[:QUERY_LENGTH]
    return render(request, "clubs/list.html", {"query": query, "clubs": club_search(query)})


def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    stats = club_stats(club)
    months = [(month_index(month), count) for month, count in stats.months]
    facts = {
        "total": sum(count for _, count in months),
        "first": month_label(months[0][0]),
        "last": month_label(months[-1][0]),
    }
    words = BarWords(
        title=_("%(club)s: matches entered per month") % {"club": club.name},
        description=_("%(total)s matches from %(first)s to %(last)s.") % facts,
    )
    chart = mark_safe(month_bars(months, words, ident="club-matches"))  # escaped there
    return render(request, "clubs/detail.html", {"club": club, "stats": stats, "chart": chart})


@extend_schema(operation_id="clubs_stats", responses={200: OpenApiTypes.OBJECT})
@api_view(["GET"])
def club_stats_api(request: Request, slug: str) -> Response:
    """``{"club", "members", "matches_per_month", "rankings", "tournaments",
    "versus_clubs"}``."""
    club = get_object_or_404(Club, slug=slug)
    return Response(club_stats(club).as_dict())
