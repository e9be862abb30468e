"""The size of a posted form: raised for the long forms, and a refusal shown as the
form again, never as a bare 400.

Django refuses a form of more than ``DATA_UPLOAD_MAX_NUMBER_FIELDS`` fields (1,000)
or ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes (2.5 MB, files apart). A divisor score sheet
posts three fields a row, and its form promises 40 deals of up to 800 rows: the pages
named in ``settings.LARGE_FORMS`` (URL names) read up to ``LARGE_FORM_FIELDS`` fields
and ``LARGE_FORM_BYTES`` bytes; every other form keeps Django's limits.

A form the server still refuses for its size is not lost: :class:`FormSizeMiddleware`
turns the request into a ``GET`` that carries what was typed in ``request.POST``
(Django's form views bind ``request.POST or None`` and act only on a ``POST``), with a
message; nothing is stored and the answer is a 413. A multipart form's fields cannot be
read back cheaply: its page says so and asks to choose the file again. A view that
only takes ``POST`` answers a page with the message (the browser's Back button keeps
the typing). Views that read a posted form outside Django's forms ask
:func:`shown_again`.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import Any
from urllib.parse import parse_qsl

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, QueryDict
from django.template import loader
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext as _

from core.middleware import wants_json

#: the refusals of a request for its size
SIZE_REFUSALS = (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent)
#: bytes of a refused form still read to show it again (beyond: shown empty)
SHOW_AGAIN_BYTES = 16 * 1024 * 1024
URLENCODED = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"


def shown_again(request: HttpRequest) -> bool:
    """Whether this request is a form refused for its size, shown again (its typed
    fields in ``request.POST``): read them, store nothing."""
    return bool(getattr(request, "form_too_large", False))


def _large(request: HttpRequest) -> bool:
    match = request.resolver_match
    return match is not None and match.url_name in getattr(settings, "LARGE_FORMS", ())


def _content_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def _query_dict(body: bytes, encoding: str, max_fields: int | None) -> QueryDict:
    data = QueryDict(mutable=True, encoding=encoding)
    try:
        pairs = parse_qsl(
            body.decode(encoding, "replace"), keep_blank_values=True, max_num_fields=max_fields
        )
    except ValueError as exc:
        raise TooManyFieldsSent("The form has too many fields.") from exc
    for key, value in pairs:
        data.appendlist(key, value)
    data._mutable = False
    return data


def _body(request: HttpRequest, limit: int) -> bytes:
    """The request's body, read once however it was refused (``limit`` bytes at most)."""
    if hasattr(request, "_body"):
        return request._body
    if _content_length(request) > limit or getattr(request, "_read_started", False):
        raise RequestDataTooBig("The form is too large.")
    request._body = request.read()
    return request._body


def _read_large(request: HttpRequest, encoding: str) -> None:
    """Parse a long form's body with the raised limits (before the CSRF check reads it)."""
    body = _body(request, settings.LARGE_FORM_BYTES)
    request._post = _query_dict(body, encoding, settings.LARGE_FORM_FIELDS)  # type: ignore[attr-defined]
    request._files = MultiValueDict()  # type: ignore[attr-defined]


def _show_again(request: HttpRequest, multipart: bool, encoding: str) -> None:
    """What was typed, in ``request.POST`` of a ``GET``, with the message."""
    data: QueryDict = QueryDict(encoding=encoding)
    if not multipart:
        with suppress(RequestDataTooBig):  # beyond: shown empty, with the message
            data = _query_dict(_body(request, SHOW_AGAIN_BYTES), encoding, None)
    request._post = data  # type: ignore[attr-defined]
    request._files = MultiValueDict()  # type: ignore[attr-defined]
    request.method = "GET"
    request.form_too_large = True  # type: ignore[attr-defined]
    if multipart:
        message = _(
            "The form was too large for the server to read: nothing was stored. "
            "A browser cannot send a chosen file twice: choose the file again, "
            "then send the form again."
        )
    else:
        message = _(
            "The form was too large for the server to read: nothing was stored. "
            "What you typed is shown again; send it in smaller parts."
        )
    request.form_too_large_message = message  # type: ignore[attr-defined]
    messages.error(request, message)


class FormSizeMiddleware:
    """Raised limits for the long forms, and a form refused for its size shown again.

    It sits before ``CsrfViewMiddleware``, whose check is the first to read the body.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not shown_again(request):
            return response
        if response.status_code == 405:  # a view that only takes POST
            storage = messages.get_messages(request)
            list(storage)  # said once, by the page
            body = loader.render_to_string(
                "413.html",
                {"message": getattr(request, "form_too_large_message", "")},
                request=request,
            )
            page = HttpResponse(body, status=413)
            storage.update(page)  # type: ignore[union-attr]
            return page
        if response.status_code in (200, 400):
            response.status_code = 413
            response.reason_phrase = "Content Too Large"
        return response

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> None:
        if request.method != "POST" or wants_json(request) or getattr(view, "csrf_exempt", False):
            return
        content_type = request.META.get("CONTENT_TYPE", "")
        encoding = request.encoding or settings.DEFAULT_CHARSET
        multipart = content_type.startswith(MULTIPART)
        try:
            if _large(request) and content_type.startswith(URLENCODED):
                _read_large(request, encoding)
            else:
                request.POST  # noqa: B018 — parsed now, with Django's limits
        except SIZE_REFUSALS:
            _show_again(request, multipart, encoding)
