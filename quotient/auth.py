"""API login (``POST /api/v1/auth/token/``) with a strict per-address throttle."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.throttling import SimpleRateThrottle


class LoginRateThrottle(SimpleRateThrottle):
    """``THROTTLE_LOGIN`` attempts (10 a minute) per client address, then 429 with
    Retry-After. Off only with ``THROTTLE=0`` (load benchmarks)."""

    scope = "login"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}

    def allow_request(self, request: Any, view: Any) -> bool:
        if not settings.THROTTLE:
            return True
        return super().allow_request(request, view)


class TokenLogin(ObtainAuthToken):
    throttle_classes = [LoginRateThrottle]


token_login = TokenLogin.as_view()
