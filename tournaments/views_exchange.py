"""The exchange files of a tournament: ``export.trf`` (FIDE TRF-16, two-player tables
only: otherwise a 409 naming the sizes) and ``export.json`` (the archive). A private
tournament is a 404 as on its pages, but for its club's organisers and federation
admins."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse

from tournaments import selectors
from tournaments.exchange import archive, trf


def _attachment(body: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def export_trf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    return _attachment(trf.export(tournament), "text/plain", f"{slug}.trf")


def export_json(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = selectors.tournament_get(slug=slug, user=request.user)
    body = json.dumps(archive.export(tournament), ensure_ascii=False, indent=1)
    return _attachment(body, "application/json", f"{slug}.json")
