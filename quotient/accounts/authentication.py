"""The API's token authentication: ``Authorization: Token <key>`` of a live
:class:`~quotient.accounts.models.ApiToken`; a revoked, expired or unknown key is a
401 (with ``WWW-Authenticate: Token``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from quotient.accounts.tokens import token_authenticate


class ApiTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        token = token_authenticate(key)
        if token is None:
            raise AuthenticationFailed(_("Invalid, expired or revoked token."))
        if not token.user.is_active:
            raise AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token
