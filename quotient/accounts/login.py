"""The site's login, in one or two steps (``/accounts/login/``, ``/admin/login/``).

An account without a device logs in as always: one POST of ``username`` and
``password``. An account with one gives its password, then, on a second page, a
code (``/accounts/login/code/``); only then is it logged in, its session verified.
Between the two steps the session holds the *pending login* (the account, for five
minutes, five wrong codes at most: then the password is asked again, and the lockout
of ``django-axes`` counts those).
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth import login as auth_login
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render, resolve_url
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters

from quotient.accounts.forms import CodeForm
from quotient.accounts.twofactor import code_verify, has_device

PENDING = "accounts.pending_login"
PENDING_SECONDS = 300
MAX_TRIES = 5


class PasswordStepView(LoginView):
    """The first step: the password; the second is asked only of accounts with a device."""

    def form_valid(self, form: Any) -> HttpResponse:
        user = form.get_user()
        if not has_device(user):
            return super().form_valid(form)
        self.request.session[PENDING] = {
            "user": user.pk,
            "backend": user.backend,
            "at": time.time(),
            "tries": 0,
        }
        return HttpResponseRedirect(_with_next(reverse("login-code"), self.get_redirect_url()))


def _with_next(url: str, next_url: str) -> str:
    return f"{url}?{urlencode({'next': next_url})}" if next_url else url


def _safe_next(request: HttpRequest) -> str:
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return wanted if allowed else ""


def _pending(request: HttpRequest) -> dict[str, Any] | None:
    pending = request.session.get(PENDING)
    if not pending or time.time() - pending["at"] > PENDING_SECONDS:
        request.session.pop(PENDING, None)
        return None
    return pending


@sensitive_post_parameters("code")
@csrf_protect
@never_cache
def login_code(request: HttpRequest) -> HttpResponse:
    """The second step: a code from the authenticator or a recovery code."""
    pending = _pending(request)
    next_url = _safe_next(request)
    if pending is None:
        return HttpResponseRedirect(_with_next(resolve_url(settings.LOGIN_URL), next_url))
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = get_user_model().objects.get(pk=pending["user"])
        device = code_verify(user=user, code=form.cleaned_data["code"])
        if device is not None:
            del request.session[PENDING]
            # django-otp's receiver of user_logged_in verifies the session with it
            user.otp_device = device  # type: ignore[attr-defined]
            auth_login(request, user, backend=pending["backend"])
            return HttpResponseRedirect(next_url or resolve_url(settings.LOGIN_REDIRECT_URL))
        return _wrong_code(request, form, pending, next_url)
    return render(request, "registration/login_code.html", {"form": form, "next": next_url})


def _wrong_code(
    request: HttpRequest, form: CodeForm, pending: dict[str, Any], next_url: str
) -> HttpResponse:
    pending["tries"] += 1
    request.session[PENDING] = pending
    if pending["tries"] >= MAX_TRIES:
        del request.session[PENDING]
        messages.error(request, _("Too many wrong codes: log in again."))
        return HttpResponseRedirect(_with_next(resolve_url(settings.LOGIN_URL), next_url))
    form.add_error("code", _("This code is wrong, expired or already used."))
    context = {"form": form, "next": next_url}
    return render(request, "registration/login_code.html", context, status=200)
