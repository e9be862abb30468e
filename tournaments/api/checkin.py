"""``POST /api/v1/tournaments/<slug>/check-in/``: a registered player checks themself
in (``tournaments.services.checkin``); 200 with the registration, 403 for anyone not
registered (or an account without a player), 409 once round 1 is paired."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.tournaments import RegistrationSerializer
from tournaments.models import Tournament
from tournaments.services.checkin import registration_self_check_in


class SelfCheckInView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=RegistrationSerializer)
    def post(self, request: Request, slug: str) -> Response:
        tournament = get_object_or_404(Tournament, slug=slug)
        reg = registration_self_check_in(tournament=tournament, user=request.user)
        return Response(RegistrationSerializer(reg).data)
