"""The admin site: it refuses a session without a verified second factor when the
account must use one, and logs in through the site's two-step login."""

from __future__ import annotations

from typing import Any, cast

from django.contrib.admin import AdminSite
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.views.decorators.cache import never_cache

from quotient.accounts.twofactor import two_factor_satisfied


class QuotientAdminSite(AdminSite):
    def has_permission(self, request: HttpRequest) -> bool:
        return super().has_permission(request) and two_factor_satisfied(request.user)

    @method_decorator(never_cache)
    def login(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        """The site's login (a second step when the account has a device), coming
        back to the admin."""
        from quotient.accounts.login import PasswordStepView

        index = reverse("admin:index", current_app=self.name)
        if request.method == "GET" and self.has_permission(request):
            return HttpResponseRedirect(index)
        context = dict(extra_context or {})
        if REDIRECT_FIELD_NAME not in request.GET and REDIRECT_FIELD_NAME not in request.POST:
            context[REDIRECT_FIELD_NAME] = index
        return cast(HttpResponse, PasswordStepView.as_view(extra_context=context)(request))
