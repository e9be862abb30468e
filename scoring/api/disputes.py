"""REST API of a match's disputes (``scoring.disputes``).

``GET /api/v1/matches/<id>/disputes/``: the disputes of the match, for its seated
players and its organisers (403 for anyone else). ``POST`` ``{"reason"}`` by a seated
player: 201 with the dispute. ``POST …/disputes/<d>/settle/`` ``{"outcome": "upheld" |
"rejected", "reason"}`` by an organiser of the match's club or a federation admin.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.disputes import dispute_open, dispute_settle, disputes_visible
from scoring.models import Dispute, Match


class DisputeSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="player.handle", read_only=True)
    # a plain string in the schema: "open", "upheld" or "rejected"
    status = serializers.CharField(read_only=True, help_text="open, upheld or rejected")

    class Meta:
        model = Dispute
        fields = [
            "id",
            "match",
            "player",
            "reason",
            "status",
            "settled_reason",
            "created_at",
            "settled_at",
        ]
        read_only_fields = fields


class DisputeOpenSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True)


class DisputeSettleSerializer(serializers.Serializer):
    outcome = serializers.CharField(required=False, allow_blank=True)
    reason = serializers.CharField(required=False, allow_blank=True)


def shown(dispute: Dispute) -> dict[str, Any]:
    return dict(DisputeSerializer(dispute).data)


class MatchDisputes(APIView):
    """A match's disputes: read them, or contest the match."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=DisputeSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        match = get_object_or_404(Match.objects.select_related("club"), pk=pk)
        rows = disputes_visible(match, request.user)
        if rows is None:
            raise PermissionDenied
        return Response([shown(dispute) for dispute in rows])

    @extend_schema(request=DisputeOpenSerializer, responses={201: DisputeSerializer})
    def post(self, request: Request, pk: int) -> Response:
        match = get_object_or_404(Match.objects.select_related("club"), pk=pk)
        data = request.data if isinstance(request.data, dict) else {}
        dispute = dispute_open(match=match, user=request.user, reason=data.get("reason"))
        return Response(shown(dispute), status=status.HTTP_201_CREATED)


class DisputeSettle(APIView):
    """Settle a dispute: upheld or rejected, with a reason."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=DisputeSettleSerializer, responses=DisputeSerializer)
    def post(self, request: Request, pk: int, dispute: int) -> Response:
        found = get_object_or_404(Dispute, pk=dispute, match_id=pk)
        data = request.data if isinstance(request.data, dict) else {}
        settled = dispute_settle(
            dispute=found, by=request.user, outcome=data.get("outcome"), reason=data.get("reason")
        )
        return Response(shown(settled))
