"""A lean path for the plainest reads of a DRF view: the same answer, without DRF.

DRF's dispatch (wrapping the request, negotiating the content, authenticating,
checking the permissions, finalizing and rendering the ``Response``) costs about as
much CPU as a whole bare request: for a read of one object in one query it is most
of the view's work (``docs/performance.md``, "Issue 23, third stop"). :func:`lean`
wraps a DRF view function so that a *plain* request (:func:`plain`: an anonymous
``GET`` asking for JSON, without a format suffix, and without a query string but the
parameters the view lets through, each once) is answered by a small function that
writes the very bytes and headers the view would; every other request, and every
plain one the small function declines (it returns None: no such object, a case it
does not write), goes to the view unchanged. :func:`handled` is such a function for
a view whose own handler already writes its JSON bytes (a cached answer): the
handler called as DRF's dispatch would call it for a plain request, without the
dispatch (the request's wrapping, negotiation, authentication).

What DRF would still do for a plain request is done here too: its throttles count
the request (:func:`throttled`: a refusal is left to the view, which refuses it with
the same wait, not counting it twice), the user is read (an anonymous one: it marks
the session read, so ``Vary: Cookie`` is set as DRF's session authentication sets
it), and :func:`json_response` writes ``JSONRenderer``'s bytes with DRF's default
headers (``Allow``, ``Vary: Accept``). The view keeps its URL, its name and its
schema (the wrapper carries the view function's attributes).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import patch_vary_headers
from rest_framework.compat import LONG_SEPARATORS, SHORT_SEPARATORS
from rest_framework.exceptions import APIException
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

#: what a plain request may say it accepts: DRF answers each of them with JSON
#: (``application/json``, no parameter: no ``indent``); a browser's ``text/html``
#: asks for the browsable API
JSON_ACCEPTS = frozenset({"", "*/*", "application/json"})
#: the attribute of a Django request on which :func:`throttled` leaves its waits
THROTTLE_WAITS = "lean_throttle_waits"

_RENDERER = JSONRenderer()
#: ``JSONRenderer.render``'s encoder for a media type without ``indent``, made once:
#: ``json.dumps`` makes the same one at each call, after the renderer has parsed the
#: media type's parameters to find none
_ENCODER = JSONRenderer.encoder_class(
    ensure_ascii=JSONRenderer.ensure_ascii,
    allow_nan=not JSONRenderer.strict,
    separators=SHORT_SEPARATORS if JSONRenderer.compact else LONG_SEPARATORS,
)
#: the ``Allow`` of a read-only DRF view (``GET`` and the two it answers itself)
ALLOW = "GET, HEAD, OPTIONS"
JSON_MEDIA_TYPE = JSONRenderer.media_type

Answer = Callable[..., HttpResponseBase | None]


def plain(request: HttpRequest, reads: Collection[str] = ()) -> bool:
    """Whether DRF would answer ``request`` as an anonymous read in JSON with nothing
    asked beyond the URL and the query parameters ``reads`` (each given once): a
    ``GET``, an ``Accept`` that DRF negotiates to plain JSON, no ``Authorization``
    header (a token), no session cookie (a logged-in user; a login may change the
    answer) and no user forced on it (the test client's ``force_authenticate``)."""
    meta = request.META
    return (
        request.method == "GET"
        and (not meta.get("QUERY_STRING") or (bool(reads) and _reads_only(request, reads)))
        and meta.get("HTTP_ACCEPT", "").strip() in JSON_ACCEPTS
        and "HTTP_AUTHORIZATION" not in meta
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and getattr(request, "_force_auth_user", None) is None
        and getattr(request, "_force_auth_token", None) is None
    )


def _reads_only(request: HttpRequest, reads: Collection[str]) -> bool:
    """Whether the query of ``request`` names ``reads`` only, each once."""
    query = request.GET
    return all(name in reads and len(query.getlist(name)) == 1 for name in query)


def throttled(view: Any, request: HttpRequest, kwargs: dict[str, Any]) -> bool:
    """Count ``request`` with the throttles of the DRF view function ``view`` as
    ``APIView.check_throttles`` does (each throttle asked, in order); True when one
    refuses. What they said is left on the request (:data:`THROTTLE_WAITS`: the
    waits of those that refused) for :class:`LeanThrottles`: a request the view
    answers after all (refused, or declined by the lean path) is not counted twice."""
    classes = view.cls.throttle_classes
    if not classes:
        return False
    instance = view.cls(**view.initkwargs)
    instance.args, instance.kwargs, instance.request = (), kwargs, request
    waits = [
        throttle.wait()
        for throttle in (throttle_class() for throttle_class in classes)
        if not throttle.allow_request(request, instance)
    ]
    setattr(request, THROTTLE_WAITS, waits)
    return bool(waits)


class LeanThrottles:
    """For a view wrapped by :func:`lean`: a request its lean path counted keeps the
    throttles' answer without being counted again (refused: the same 429 and
    ``Retry-After``; allowed: let through)."""

    def check_throttles(self, request: Any) -> None:
        waits = getattr(request._request, THROTTLE_WAITS, None)
        if waits is None:
            super().check_throttles(request)  # type: ignore[misc]
        elif waits:
            durations = [wait for wait in waits if wait is not None]
            self.throttled(request, max(durations, default=None))  # type: ignore[attr-defined]


def lean(
    view: Callable[..., HttpResponseBase], answer: Answer, reads: Collection[str] = ()
) -> Callable[..., HttpResponseBase]:
    """``view`` (a DRF view function) answering its plain requests with ``answer``
    (called with the request and the URL's arguments; None: the view answers);
    ``reads``: the query parameters a plain request may give (:func:`plain`).
    A ``format`` suffix in the URL (``.json``, ``.api``) always goes to the view."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not args and "format" not in kwargs and plain(request, reads):
            if request.user.is_authenticated:  # never without a session; read as DRF does
                return view(request, *args, **kwargs)
            if throttled(view, request, kwargs):
                return view(request, *args, **kwargs)
            response = answer(request, **kwargs)
            if response is not None:
                return response
        return view(request, *args, **kwargs)

    return wrapper


def handled(view: Any, request: HttpRequest, **kwargs: Any) -> HttpResponseBase | None:
    """What the ``GET`` handler of the DRF view function ``view`` answers the plain
    ``request`` (the URL's arguments ``kwargs``), called as ``APIView.dispatch`` calls
    it, without the dispatch: the request wrapped for an anonymous user (no
    authenticator asked: a plain request has no credentials), the view's first
    renderer taken as DRF's negotiation takes it for a plain ``Accept`` (it must be
    JSON), the permissions checked, then ``finalize_response``'s headers (``Vary:
    Accept``, ``Allow``) set on the handler's answer. None (the view answers) when the
    handler refuses (an API error, a 404: DRF's exception handler writes those) or
    answers a ``Response`` still to render."""
    instance = view.cls(**view.initkwargs)
    actions = getattr(view, "actions", None)
    name = actions["get"] if actions else "get"
    if actions:  # as ViewSetMixin.as_view's view sets a viewset up (its Allow header)
        actions = {"head": actions["get"], **actions}
        instance.action_map, instance.action = actions, name
        for method, action in actions.items():
            setattr(instance, method, getattr(instance, action))
    else:  # as View.as_view's (``head`` answered by ``get``: its Allow header)
        instance.setup(request, **kwargs)
    renderer = instance.renderer_classes[0]()
    if not isinstance(renderer, JSONRenderer) or renderer.media_type != JSON_MEDIA_TYPE:
        return None
    context = {"view": instance, "args": (), "kwargs": kwargs}
    wrapped = Request(request, authenticators=(), parser_context=context)
    wrapped.accepted_renderer, wrapped.accepted_media_type = renderer, renderer.media_type
    wrapped.version, wrapped.versioning_scheme = None, None
    instance.args, instance.kwargs, instance.request = (), kwargs, wrapped
    instance.format_kwarg = None
    instance.headers = instance.default_response_headers
    try:
        instance.check_permissions(wrapped)
        response = getattr(instance, name)(wrapped, **kwargs)
    except (APIException, Http404, PermissionDenied):
        return None
    if isinstance(response, Response):
        return None
    # APIView.finalize_response's, for an answer that is not a Response
    vary = instance.headers.pop("Vary", None)
    if vary is not None:
        patch_vary_headers(response, [part.strip() for part in vary.split(",") if part.strip()])
    for header, value in instance.headers.items():
        response[header] = value
    return response


def json_response(data: Any, headers: dict[str, str] | None = None) -> HttpResponseBase:
    """``data`` as DRF's ``Response`` sends it to a plain request: ``JSONRenderer``'s
    bytes as ``application/json``, then ``headers``, then DRF's default headers of a
    read-only view (``Vary: Accept``, ``Allow``), in that order."""
    response = HttpResponse(json_bytes(data), content_type=JSONRenderer.media_type)
    return drf_headers(response, headers)


def json_bytes(data: Any) -> bytes:
    """``data`` as ``JSONRenderer`` writes it for ``application/json`` (compact, not
    ASCII-escaped, NaN refused, DRF's encoder for dates and decimals; the two line
    separators escaped, as the renderer escapes them)."""
    if data is None:
        return b""
    text = _ENCODER.encode(data)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").encode()


def drf_headers(
    response: HttpResponseBase, headers: dict[str, str] | None = None
) -> HttpResponseBase:
    """``headers`` set on ``response``, then what ``APIView.finalize_response`` adds
    for a view with DRF's two renderers and ``GET`` only: ``Vary: Accept`` (added to
    a ``Vary`` already set) and ``Allow``."""
    for name, value in (headers or {}).items():
        response[name] = value
    if response.headers.get("Vary") != "Accept":  # what ``finish`` wrote: nothing to add
        patch_vary_headers(response, ("Accept",))
    response.headers["Allow"] = ALLOW
    return response
