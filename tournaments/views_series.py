"""Season points pages (``tournaments.series``): ``/series/`` the series,
``/series/<slug>/`` the standings with each player's events, and
``/series/<slug>/standings.csv``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments.models import Series
from tournaments.series import series_csv, standings_rows


def series_list(request: HttpRequest) -> HttpResponse:
    series = Series.objects.select_related("game").order_by("-id")
    return render(request, "tournaments/series_list.html", {"series_list": series})


def series_page(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series.objects.select_related("game"), slug=slug)
    tournaments = series.tournaments.select_related("club").order_by("starts_on", "pk")
    context = {"series": series, "rows": standings_rows(series), "tournaments": tournaments}
    return render(request, "tournaments/series.html", context)


def series_csv_view(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=slug)
    response = HttpResponse(series_csv(series), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{series.slug}-standings.csv"'
    return response
