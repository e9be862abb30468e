"""A confirmation step before an action that cannot be undone, without JavaScript.

The page offering the action links (or sends a GET form) to the action's address; a
GET there, or a POST without ``confirm=1``, answers a page naming what will happen,
whose button POSTs the same fields with ``confirm=1``; only that POST acts. A client
posting directly (a test, a script) carries ``confirm=1`` itself::

    if not confirmed(request):
        return confirm_page(request, title=..., facts=[...], consequence=..., ...)
    ...act...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

#: the field (and value) that says a POST was confirmed
CONFIRM_FIELD = "confirm"


def confirmed(request: HttpRequest) -> bool:
    """Whether ``request`` is the confirmed POST of the action."""
    return request.method == "POST" and request.POST.get(CONFIRM_FIELD) == "1"


def confirm_page(
    request: HttpRequest,
    *,
    title: str,
    facts: Sequence[str],
    consequence: str,
    button: str,
    cancel: str,
    fields: Mapping[str, Any] | None = None,
    form: Any = None,
    status: int = 200,
    path: str | None = None,
) -> HttpResponse:
    """The confirmation page: ``title``, what the action is about (``facts``), what
    will happen (``consequence``), a ``form`` to complete if any, and a button that
    POSTs ``fields`` (hidden) with ``confirm=1`` to ``path`` (default: this same
    address); ``cancel`` is the address of the way back."""
    context = {
        "title": title,
        "facts": facts,
        "consequence": consequence,
        "button": button,
        "cancel": cancel,
        "fields": {k: v for k, v in (fields or {}).items() if v not in (None, "")},
        "form": form,
        "confirm_field": CONFIRM_FIELD,
        "path": path or request.path,
    }
    return render(request, "confirm.html", context, status=status)
