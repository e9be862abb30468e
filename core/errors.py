"""The one error type: a refusal with a stable code, its parameters and an HTTP status.

Every exception the apps raise for a reader to act on derives from :class:`CodedError`
(the pure engines keep their own, code-carrying ``RecordError`` and
``PairingInputError``, which the apps wrap). The words come from one catalogue
(``core.catalogue``), rendered in the reader's language at the edge, in exactly one
place per edge:

* the API: ``core.api_errors.exception_handler`` answers ``{"detail": message,
  "error": payload}`` with the error's status;
* forms and pages: ``core.refusals`` puts the message on the form or in the page's
  messages;
* the command line and logs: ``str(error)`` is the English message.

Words used here:

* **code** — a stable name (``duplicate-match``, ``round-incomplete``): clients may
  branch on it, tests assert it;
* **params** — data the message names (handles, numbers, tiles), never words;
* **move** — for a record's error, the 0-based index of the move at fault (None when
  the defect is in the record as a whole); only errors about a record carry it.

This module imports nothing of Django at import time, so the pure ``scoring.entry``
and the command lines may raise these errors too.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import nullcontext
from typing import Any, ClassVar

from core.catalogue import render

#: parameters a caller may not give yet, and their default
DEFAULT_PARAMS: dict[str, dict[str, Any]] = {"too-old-to-rate": {"months": 12}}


def localized(code: str, move: Any, params: Mapping[str, Any], lang: str | None = None) -> str:
    """The message of ``code`` in ``lang`` (any language of ``LANGUAGES``), or in the
    active language when ``lang`` is None (English outside a request)."""
    from django.utils import translation
    from django.utils.translation import gettext

    with translation.override(lang) if lang else nullcontext():
        return render(code, move, params, gettext)


class CodedError(Exception):
    """A write or a request refused whole, nothing stored: ``code``, ``params`` and the
    HTTP ``status`` an API answers it with.

    Subclasses name their family and its statuses: ``status`` is the default, and
    ``STATUS_BY_CODE`` the codes that answer otherwise (409 for a state that forbids
    the action, 413 for a body too large...). ``WITH_MOVE`` says whether the payload
    carries ``move`` (errors about a record do, with None when no move is at fault).
    """

    status: int = 400
    STATUS_BY_CODE: ClassVar[Mapping[str, int]] = {}
    WITH_MOVE: ClassVar[bool] = False

    def __init__(self, code: str, *, move: int | None = None, **params: Any) -> None:
        self.code = code
        self.move = move
        self.params = {**DEFAULT_PARAMS.get(code, {}), **params}
        self.status = self.STATUS_BY_CODE.get(code, type(self).status)
        super().__init__(render(code, move, self.params))

    def message(self, lang: str | None = None) -> str:
        """The message in ``lang`` (default: the active language)."""
        return localized(self.code, self.move, self.params, lang)

    def payload(self, lang: str | None = None) -> dict[str, Any]:
        """The error as an API answer's ``error`` (and a page's) shows it."""
        body: dict[str, Any] = {"code": self.code}
        if self.WITH_MOVE:
            body["move"] = self.move
        body["message"] = self.message(lang)
        body["params"] = self.params
        return body

    def as_dict(self) -> dict[str, Any]:
        """Code, move and params without words (what is stored: an import's report)."""
        return {"code": self.code, "move": self.move, "params": self.params}


def warning(code: str, lang: str | None = None, **params: Any) -> dict[str, Any]:
    """A warning (``late-result``...): a code of the same catalogue, not an error."""
    params = {**DEFAULT_PARAMS.get(code, {}), **params}
    return {"code": code, "message": localized(code, None, params, lang), "params": params}
