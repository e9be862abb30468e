"""Middleware that keeps bad input away from the database."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils.translation import gettext as _

from core.text import unsafe_text


def wants_json(request: HttpRequest) -> bool:
    """API clients get JSON errors; people get pages."""
    return request.path.startswith("/api/")


class RejectUnsafeCharactersMiddleware:
    """A NUL or a lone surrogate in the path or a query parameter is a 400.

    (PostgreSQL cannot compare or store such text: without this, a ``%00`` in
    ``?game=`` or in ``/players/<handle>/`` became a 500.) Bodies are checked by the
    JSON parser and by Django's form fields.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self._unsafe(request):
            message = _("The address holds a NUL character or an invalid character.")
            if wants_json(request):
                return JsonResponse(
                    {"detail": message, "error": {"code": "bad-characters", "message": message}},
                    status=400,
                )
            return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        return self.get_response(request)

    @staticmethod
    def _unsafe(request: HttpRequest) -> bool:
        if unsafe_text(request.path):
            return True
        return any(
            unsafe_text(key) or any(unsafe_text(v) for v in values)
            for key, values in request.GET.lists()
        )
