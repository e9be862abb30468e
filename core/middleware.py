"""Middleware that keeps bad input away from the database."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _

from core.text import unsafe_text


def wants_json(request: HttpRequest) -> bool:
    """API clients get JSON errors; people get pages."""
    return request.path.startswith("/api/")


class RejectUnsafeCharactersMiddleware:
    """A NUL or a lone surrogate in the path or a query parameter is a 400.

    (PostgreSQL cannot compare or store such text: without this, a ``%00`` in
    ``?game=`` or in ``/players/<handle>/`` became a 500.) The form and multipart
    bodies of the site's pages are checked too (``process_view``: their fields and file
    names), before the view reads them; the API's bodies are checked by its parsers
    (``core.parsers``), so a view exempt from CSRF checks (the API's) is left to them:
    only such a view may still choose how its upload is read.
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

    def process_view(
        self, request: HttpRequest, view: Any, args: Any, kwargs: Any
    ) -> HttpResponse | None:
        if request.method != "POST" or getattr(view, "csrf_exempt", False):
            return None
        kind = request.content_type or ""
        if kind not in ("application/x-www-form-urlencoded", "multipart/form-data"):
            return None
        # the CSRF check reads the same body right after: nothing is read twice
        if not unsafe_form(request):
            return None
        message = _("The form holds a NUL character or an invalid character: nothing was stored.")
        body = loader.render_to_string("400.html", {"message": message}, request=request)
        return HttpResponseBadRequest(body)

    @staticmethod
    def _unsafe(request: HttpRequest) -> bool:
        if unsafe_text(request.path):
            return True
        return any(
            unsafe_text(key) or any(unsafe_text(v) for v in values)
            for key, values in request.GET.lists()
        )


def unsafe_form(request: HttpRequest) -> bool:
    """True when a field of the request's form body (its name or its value) or an
    uploaded file's name holds a NUL or a lone surrogate."""
    fields = any(
        unsafe_text(key) or any(unsafe_text(v) for v in values)
        for key, values in request.POST.lists()
    )
    return fields or any(
        unsafe_text(key) or unsafe_text(upload.name or "")
        for key, uploads in request.FILES.lists()
        for upload in uploads
    )
