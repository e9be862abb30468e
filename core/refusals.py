"""Refusals on forms and pages: the one place a :class:`~core.errors.CodedError` meets
a person (the API's is ``core.api_errors``).

A view runs its service call inside :func:`refused_onto`; a refusal puts its message
on the form (or in the page's messages) and the view goes on to show the form again,
with everything typed::

    with refused_onto(form) as refused:
        match = match_record(...)
        return redirect(match)
    return render(request, "form.html", {"form": form, "error": refused.error})
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from core.errors import CodedError


@dataclass
class Refused:
    """What a refused call left: the error, or None when the call went through."""

    exception: CodedError | None = None
    #: the words of a refused permission (``refused_onto``'s ``denied``)
    denied: str | None = None

    @property
    def error(self) -> dict[str, Any] | None:
        """The refusal's payload (code, message, params...) for the page to place."""
        if self.denied is not None:
            return {"message": self.denied}
        return None if self.exception is None else self.exception.payload(public=True)


@contextmanager
def refused_onto(
    form: Any = None,
    request: HttpRequest | None = None,
    *,
    denied: str | None = None,
    fields: Mapping[str, str] | None = None,
) -> Iterator[Refused]:
    """Run the block; a refusal becomes the form's error (``form``) or an error message
    of the page (``request``), or is only kept (neither: the view places it). With
    ``denied``, a ``PermissionDenied`` of the service is refused with those words
    instead of a 403 page (the form offered a choice the user may no longer make).
    ``fields`` names the form field a code belongs to (else the form's top)."""
    refused = Refused()
    try:
        yield refused
    except CodedError as exc:
        refused.exception = exc
        message = exc.message(public=True)  # players by their public names
        if form is not None and fields and exc.code in fields:
            form.add_error(fields[exc.code], message)
        else:
            _show(message, form, request)
    except PermissionDenied:
        if denied is None:
            raise
        refused.denied = denied
        _show(denied, form, request)


def _show(message: str, form: Any, request: HttpRequest | None) -> None:
    if form is not None:
        form.add_error(None, message)
    elif request is not None:
        messages.error(request, message)
