"""The API's exception handler: DRF's, plus the refusals of the service and the
failures DRF leaves as 500s.

* a :class:`~core.errors.CodedError` answers ``{"detail": message, "error": payload}``
  with its status, the message in the request's language;
* Django's ``PermissionDenied`` keeps its message (a 403 that says why);
* a ``ProtectedError`` (deleting what others still refer to) is a 409 that says what
  still refers to it;
* an unreachable database is a JSON 503 with Retry-After.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.db.models import ProtectedError, RestrictedError
from django.utils.translation import gettext as _
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.error_pages import DATABASE_ERRORS, RETRY_AFTER
from core.errors import CodedError


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, CodedError):
        return refusal(exc)
    if isinstance(exc, DjangoPermissionDenied) and exc.args:
        exc = PermissionDenied(str(exc))
    if isinstance(exc, ProtectedError | RestrictedError):
        return _still_referenced(exc)
    if isinstance(exc, DATABASE_ERRORS):
        message = _("The service is briefly unavailable (database unreachable). Try again shortly.")
        return Response(
            {"detail": message, "error": {"code": "service-unavailable", "message": message}},
            status=503,
            headers={"Retry-After": str(RETRY_AFTER)},
        )
    return drf_exception_handler(exc, context)


def _still_referenced(exc: ProtectedError | RestrictedError) -> Response:
    objects = exc.protected_objects if isinstance(exc, ProtectedError) else exc.restricted_objects
    counts: dict[str, int] = {}
    for obj in objects:
        name = str(obj._meta.verbose_name_plural)
        counts[name] = counts.get(name, 0) + 1
    summary = ", ".join(f"{count} {name}" for name, count in sorted(counts.items()))
    message = _("This cannot be deleted: %(what)s still refer to it.") % {"what": summary}
    return Response(
        {
            "detail": message,
            "error": {"code": "still-referenced", "message": message, "referenced_by": counts},
        },
        status=409,
    )


def refusal(exc: CodedError) -> Response:
    """The answer to a refusal: its error in the request's language, with its status."""
    error = exc.payload()
    return Response({"detail": error["message"], "error": error}, status=exc.status)
