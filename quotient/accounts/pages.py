"""An account's own security pages: its two-factor login and its API tokens.

* ``/accounts/two-factor/`` — whether the account logs in with two factors, the
  recovery codes left, and the ways to enrol, make new codes or stop;
* ``/accounts/two-factor/enrol/`` — a QR code and the secret for the authenticator
  app, then its first code; the recovery codes are shown once, right after;
* ``/accounts/tokens/`` — the API tokens: each one's name, start, creation, expiry,
  last use and state; a new one (its key shown once) and revoking one.
"""

from __future__ import annotations

from base64 import b32encode
from urllib.parse import urlencode

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import CodedError
from quotient.accounts.forms import EnrolForm, TokenForm
from quotient.accounts.tokens import token_create, token_lifetime, token_list, token_revoke
from quotient.accounts.twofactor import (
    authenticator_confirm,
    authenticator_pending,
    has_device,
    recovery_codes_issue,
    recovery_codes_left,
    two_factor_disable,
    two_factor_required,
)

#: the session key of recovery codes just issued (shown once, on the next page)
NEW_CODES = "accounts.new_recovery_codes"


@login_required
def two_factor(request: HttpRequest) -> HttpResponse:
    user = request.user
    context = {
        "enrolled": has_device(user),
        "required": two_factor_required(user),
        "codes_left": recovery_codes_left(user=user),
        "new_codes": request.session.pop(NEW_CODES, None),
        "next": _next_or(request, ""),
    }
    return render(request, "accounts/two_factor.html", context)


@login_required
def two_factor_enrol(request: HttpRequest) -> HttpResponse:
    """Set up (or replace) the authenticator app."""
    form = EnrolForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        codes = authenticator_confirm(request=request, code=form.cleaned_data["code"])
        if codes is not None:
            request.session[NEW_CODES] = codes
            messages.success(request, _("Two-factor login is on."))
            # the recovery codes first, then on to where the account was going
            return HttpResponseRedirect(_with_next(reverse("two-factor"), _next_or(request, "")))
        form.add_error("code", _("This code is wrong or expired: type the one the app shows now."))
    device = authenticator_pending(user=request.user)
    secret = b32encode(device.bin_key).decode()
    context = {
        "form": form,
        "qr": mark_safe(
            segno.make(device.config_url, error="m").svg_inline(scale=5, border=2, omitsize=True)
        ),
        "secret": " ".join(secret[i : i + 4] for i in range(0, len(secret), 4)),
        # (an account replacing its phone is not told it must enrol)
        "required": two_factor_required(request.user) and not has_device(request.user),
        "next": _next_or(request, ""),
    }
    return render(request, "accounts/enrol.html", context)


def _with_next(url: str, next_url: str) -> str:
    return f"{url}?{urlencode({'next': next_url})}" if next_url else url


def _next_or(request: HttpRequest, default: str) -> str:
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if wanted and url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()}):
        return wanted
    return default


@login_required
@require_POST
def recovery_codes_new(request: HttpRequest) -> HttpResponse:
    if has_device(request.user):
        request.session[NEW_CODES] = recovery_codes_issue(user=request.user)
    return redirect("two-factor")


@login_required
@require_POST
def two_factor_off(request: HttpRequest) -> HttpResponse:
    try:
        two_factor_disable(user=request.user)
    except CodedError as exc:
        messages.error(request, exc.message())
    else:
        messages.success(request, _("Two-factor login is off."))
    return redirect("two-factor")


@login_required
def api_tokens(request: HttpRequest) -> HttpResponse:
    """The account's API tokens; a POST makes a new one, shown once."""
    form = TokenForm(request.POST or None)
    issued = None
    if request.method == "POST" and form.is_valid():
        issued = token_create(user=request.user, name=form.cleaned_data["name"])
        form = TokenForm()
    context = {
        "form": form,
        "issued": issued,
        "tokens": token_list(user=request.user),
        "now": timezone.now(),
        "lifetime_days": token_lifetime().days,
    }
    return render(request, "accounts/tokens.html", context)


@login_required
@require_POST
def api_token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    if token_revoke(user=request.user, token_id=pk):
        messages.success(request, _("The token is revoked: it no longer opens the API."))
    return redirect("api-tokens")
