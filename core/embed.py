"""Pages other sites may frame (``/embed/...``): every other page forbids it
(``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``, the settings' defaults).

An embedded page shows no chrome and names no visitor, so it is the same for
everyone: shared caches may keep it (``core.http_cache``); its language is the
frame's ``?lang=`` when given, else the browser's."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import wraps
from typing import Any

from csp.decorators import csp_replace
from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.views.decorators.clickjacking import xframe_options_exempt


def framable(view: Callable[..., Any]) -> Callable[..., Any]:
    """Let any site frame ``view``'s pages (CSP ``frame-ancestors *``)."""
    return xframe_options_exempt(csp_replace({"frame-ancestors": ["*"]})(view))


def embed_language(request: HttpRequest) -> str:
    """``?lang=`` when it is a language of the site, else the request's own."""
    asked = request.GET.get("lang", "")
    if asked in dict(settings.LANGUAGES):
        return asked
    return translation.get_language() or settings.LANGUAGE_CODE


@contextmanager
def in_language(request: HttpRequest) -> Iterator[str]:
    """The block in the embed's language."""
    lang = embed_language(request)
    with translation.override(lang):
        yield lang


def in_embed_language(view: Callable[..., Any]) -> Callable[..., Any]:
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        with in_language(request):
            return view(request, *args, **kwargs)

    return wrapped
