"""``POST /api/v1/tournaments/import/``: a tournament archive (``TournamentArchive`` in
the schema's components) read back whole, or refused whole with the path of what is
wrong (400; 413 over 10 MB). Federation admins import any archive (its club and
unknown players are created); a club's organisers an archive of their own club."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from federation.idempotency import idempotent
from tournaments.api.tournaments import TournamentDetailSerializer
from tournaments.exchange.archive_import import archive_import
from tournaments.exchange.checks import ArchiveRejected

LIMIT_MB = 10
ARCHIVE = {"$ref": "#/components/schemas/TournamentArchive"}


class ArchiveImport(APIView):
    """Import a tournament archive (the answer is the tournament, as its detail reads)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="tournaments_import",
        request={"application/json": ARCHIVE},
        responses={201: TournamentDetailSerializer},
    )
    @idempotent
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        if int(request.META.get("CONTENT_LENGTH") or 0) > LIMIT_MB * 1024 * 1024:
            raise ArchiveRejected("archive-too-large", limit_mb=LIMIT_MB)
        tournament = archive_import(data=request.data, by=request.user)
        body = TournamentDetailSerializer(tournament, context={"manager": True}).data
        return Response(body, status=status.HTTP_201_CREATED)
