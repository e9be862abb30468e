"""REST API of bulk imports: ``POST /api/v1/imports/`` (multipart ``club``, ``file``,
optional ``played_on``: the date of the rows without one, default today) answers
202 ``{"id", "status_url"}`` at once; ``GET /api/v1/imports/{id}/`` follows the job:
``{"status", "total", "done", "stored", "duplicates", "rejected": [{"row", "code",
"move", "message"}], ...}``.

A file that cannot be read at all answers 400 (413 over 10 MB, refused on the
announced ``Content-Length`` before the body is read, or as soon as the file passes
it) with ``{"detail", "error": {"code", "move", "message", "params"}}``; a club the
user does not organise 403. Only the club's organisers and federation admins see its
imports. An upload the broker cannot take (down) is still answered 202: the job waits
queued and beat sends it again (``scoring.imports.stale_imports_resend``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from federation.idempotency import idempotent
from federation.models import Club
from federation.permissions import organised_clubs
from scoring.entry.files import MAX_FILE_BYTES, FileRefused, body_too_large
from scoring.imports import import_create, import_report
from scoring.models import ImportJob
from scoring.tasks import enqueue_import


def upload_limited(view: Callable[..., Response]) -> Callable[..., Response]:
    """Refuse a body announced over the file limit (413 ``import-too-large``) before
    anything reads it; the file itself is measured again as it is read."""

    @functools.wraps(view)
    def wrapper(self: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        if body_too_large(request.META):
            raise FileRefused("import-too-large", limit_mb=MAX_FILE_BYTES >> 20)
        return view(self, request, *args, **kwargs)

    return wrapper


class ImportCreateSerializer(serializers.Serializer):
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all())
    file = serializers.FileField()
    played_on = serializers.DateField(
        required=False, help_text="The date of the rows without one (default: today)."
    )


class ImportAcceptedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status_url = serializers.URLField()


class ImportViewSet(mixins.CreateModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Bulk imports of a club's matches (its organisers and federation admins)."""

    permission_classes = [IsAuthenticated]
    serializer_class = ImportCreateSerializer

    def get_queryset(self):
        clubs = organised_clubs(self.request.user)
        return ImportJob.objects.filter(club__in=clubs).select_related("club").defer("rows")

    @extend_schema(
        request={"multipart/form-data": ImportCreateSerializer},
        responses={
            202: ImportAcceptedSerializer,
            400: OpenApiResponse(description="refused: the file cannot be read"),
            413: OpenApiResponse(description="import-too-large: over 10 MB"),
            422: OpenApiResponse(description="idempotency-key-reused: another body or file"),
        },
    )
    @upload_limited
    @idempotent
    def create(self, request: Request, *args, **kwargs) -> Response:
        payload = ImportCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        upload = data["file"]
        job = import_create(
            club=data["club"],
            content=upload,
            file_name=upload.name or "",
            played_on=data.get("played_on") or timezone.localdate(),
            submitted_by=request.user,
            enqueue=enqueue_import,
        )
        url = request.build_absolute_uri(reverse("import-detail", args=[job.pk]))
        return Response(
            {"id": job.pk, "status_url": url},
            status=status.HTTP_202_ACCEPTED,
            headers={"Location": url},
        )

    @extend_schema(responses={200: OpenApiResponse(description="the import's progress")})
    def retrieve(self, request: Request, *args, **kwargs) -> Response:
        return Response(import_report(self.get_object()))
