"""Staff and federation admins reach nothing before their second factor is set up.

With ``REQUIRE_2FA`` on, a logged-in account that must use two factors
(``twofactor.two_factor_required``) and whose session is not verified is sent, from
any page, to enrol an authenticator (it has none yet) or to log in again with its
code (it has one: a session older than its enrolment). The API answers such a session
403 with the code ``two-factor-enrolment-required``. The pages that enrol, log in
and out, and switch the language stay open.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import logout
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.urls import reverse

from core.middleware import wants_json
from quotient.accounts.twofactor import (
    TwoFactorRefused,
    has_device,
    is_verified,
    two_factor_required,
)


@cache
def _open_paths() -> tuple[str, ...]:
    names = ("two-factor", "login", "logout", "set_language", "healthz", "metrics")
    return (*(reverse(name) for name in names), settings.STATIC_URL)


class TwoFactorRequiredMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = request.user
        if (
            settings.REQUIRE_2FA
            and user.is_authenticated
            and not request.path.startswith(_open_paths())
            and not is_verified(user)
            and two_factor_required(user)
        ):
            return self.refuse(request)
        return self.get_response(request)

    @staticmethod
    def refuse(request: HttpRequest) -> HttpResponse:
        if wants_json(request):
            error = TwoFactorRefused("two-factor-enrolment-required").payload()
            return JsonResponse({"detail": error["message"], "error": error}, status=403)
        if has_device(request.user):
            logout(request)
            return redirect_to_login(request.get_full_path())
        query = urlencode({"next": request.get_full_path()})
        return HttpResponseRedirect(f"{reverse('two-factor-enrol')}?{query}")
