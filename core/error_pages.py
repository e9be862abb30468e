"""Error pages and answers in the site's layout, and a 503 (not a 500) when the
database is unreachable.

Django renders these through ``handler400/403/404/500`` (``quotient/urls.py``). API
paths get JSON, pages get the site's layout. The 500 and 503 answers touch neither
the database nor the session: they are what is left when those fail.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _

from core.errors import CodedError
from core.middleware import wants_json

#: seconds a client should wait before retrying while the database is unreachable
RETRY_AFTER = 30
DATABASE_ERRORS = (OperationalError, InterfaceError)


def database_unavailable(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: JSON for API clients, a plain page for people."""
    message = _("The service is briefly unavailable (database unreachable). Try again shortly.")
    if wants_json(request):
        response: HttpResponse = JsonResponse(
            {"detail": message, "error": {"code": "service-unavailable", "message": message}},
            status=503,
        )
    else:
        body = loader.render_to_string("503.html", {"message": message})
        response = HttpResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    return response


def _page(request: HttpRequest, template: str, status: int, message: str) -> HttpResponse:
    if wants_json(request):
        code = {400: "bad-request", 403: "forbidden", 404: "not-found"}.get(status, "error")
        return JsonResponse(
            {"detail": message, "error": {"code": code, "message": message}}, status=status
        )
    body = loader.render_to_string(template, {"message": message}, request=request)
    return HttpResponse(body, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _page(request, "400.html", 400, _("The request could not be understood."))


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _page(request, "403.html", 403, _("You do not have permission to see this page."))


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _page(request, "404.html", 404, _("There is no page at this address."))


def server_error(request: HttpRequest) -> HttpResponse:
    """500, or 503 when the failure was the database being unreachable."""
    if isinstance(sys.exc_info()[1], DATABASE_ERRORS):
        return database_unavailable(request)
    message = _("Something went wrong on our side. The error has been logged.")
    if wants_json(request):
        return JsonResponse(
            {"detail": message, "error": {"code": "server-error", "message": message}},
            status=500,
        )
    return HttpResponse(loader.render_to_string("500.html", {"message": message}), status=500)


class RefusalPagesMiddleware:
    """A refusal no view placed on a form (``core.refusals``) is answered as a page
    with its status and message, never as a 500 (the API answers its own through
    ``core.api_errors``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, CodedError):
            return None
        return _page(request, "400.html", exception.status, exception.message(public=True))
