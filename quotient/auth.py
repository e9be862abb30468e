"""API login (``POST /api/v1/auth/token/``) with a strict per-address throttle.

``{"username", "password"}`` answers ``{"token": key}``: a new API token, named "API
login" and expiring after ``TOKEN_LIFETIME_DAYS`` (``quotient.accounts.tokens``; its
owner lists and revokes it on the site). An account with a second factor also gives
``otp``, a code of its authenticator app or a recovery code; an account that must use
two factors and has none set up is refused until it enrols on the site.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response

from core.throttling import ScopedClientThrottle
from quotient.accounts.tokens import token_create
from quotient.accounts.twofactor import login_code_check


class LoginRateThrottle(ScopedClientThrottle):
    """``THROTTLE_LOGIN`` attempts (10 a minute) per client address (``core.clients``),
    then 429 with Retry-After. Off only with ``THROTTLE=0`` (load benchmarks)."""

    scope = "login"


class TokenLoginSerializer(AuthTokenSerializer):
    otp = serializers.CharField(
        label=_("Code"),
        required=False,
        allow_blank=True,
        max_length=20,
        help_text=_("For an account with two-factor login: its app's code or a recovery code."),
    )


class TokenAnswer(serializers.Serializer):
    token = serializers.CharField(help_text=_("Send it as: Authorization: Token <token>."))


class TokenLogin(ObtainAuthToken):
    throttle_classes = [LoginRateThrottle]
    serializer_class = TokenLoginSerializer

    @extend_schema(request=TokenLoginSerializer, responses={200: TokenAnswer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = serializer.validated_data["user"]
        login_code_check(user=user, code=serializer.validated_data.get("otp"))
        return Response({"token": token_create(user=user, name="API login").key})


token_login = TokenLogin.as_view()
