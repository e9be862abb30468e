"""REST API of bulk imports: ``POST /api/v1/imports/`` (multipart ``club``, ``file``,
optional ``played_on``: the date of the rows without one, default today) answers
202 ``{"id", "status_url"}`` at once; ``GET /api/v1/imports/{id}/`` follows the job:
``{"status", "total", "done", "stored", "duplicates", "rejected": [{"row", "code",
"move", "message"}], ...}``.

A file that cannot be read at all answers 400 (413 over 10 MB) with ``{"detail",
"error": {"code", "move", "message", "params"}}``; a club the user does not organise
403. Only the club's organisers and federation admins see its imports.
"""

from __future__ import annotations

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
from scoring.imports import import_create, import_report
from scoring.models import ImportJob
from scoring.tasks import enqueue_import


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
        responses={202: ImportAcceptedSerializer, 400: OpenApiResponse(description="refused")},
    )
    @idempotent
    def create(self, request: Request, *args, **kwargs) -> Response:
        payload = ImportCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        upload = data["file"]
        job = import_create(
            club=data["club"],
            content=upload.read(),
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
