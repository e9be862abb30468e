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

from collections.abc import Callable, Collection, Mapping
from contextlib import nullcontext
from typing import Any, ClassVar

from core.catalogue import render

#: parameters a caller may not give yet, and their default
DEFAULT_PARAMS: dict[str, dict[str, Any]] = {"too-old-to-rate": {"months": 12}}

#: the parameters that name players by handle besides ``player`` (which always does):
#: one handle, a list of them, or several joined by ", "
PLAYER_PARAMS: dict[str, tuple[str, ...]] = {
    "wrong-turn": ("expected",),
    "wrong-opening": ("holder",),
    "not-your-stone": ("owner",),
    "summary-parity": ("winner",),
    "table-players": ("expected",),
    "archive-match-players": ("expected",),
    "seated-withdrawn": ("players",),
    "missing-result": ("players",),
    "rematch": ("players",),
    "swap-both-byes": ("first", "second"),
}

#: handles -> {handle in lower case: public name} for those that name a player (set
#: by ``federation`` when Django starts: this module reads no model)
Namer = Callable[[Collection[str]], Mapping[str, str]]
_namers: list[Namer] = []


def name_players_with(namer: Namer) -> None:
    """Set how messages for people turn handles into public names."""
    _namers[:] = [namer]


def with_public_names(code: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` with every handle that names a player replaced by the player's public
    name (initials without their consent): what a page shows. The API and the stored
    reports keep the handles (data)."""
    keys = [key for key in ("player", *PLAYER_PARAMS.get(code, ())) if key in params]
    if not keys or not _namers:
        return dict(params)
    handles = {handle for key in keys for handle in _handles(params[key])}
    names = _namers[0](handles) if handles else {}
    if not names:
        return dict(params)
    shown = dict(params)
    for key in keys:
        value = params[key]
        if isinstance(value, str):
            shown[key] = ", ".join(names.get(h.lower(), h) for h in value.split(", "))
        elif isinstance(value, list | tuple):
            shown[key] = [names.get(h.lower(), h) if isinstance(h, str) else h for h in value]
    return shown


def _handles(value: Any) -> list[str]:
    if isinstance(value, str):
        return [part for part in value.split(", ") if part]
    if isinstance(value, list | tuple):
        return [part for part in value if isinstance(part, str)]
    return []


def localized(
    code: str,
    move: Any,
    params: Mapping[str, Any],
    lang: str | None = None,
    *,
    public: bool = False,
) -> str:
    """The message of ``code`` in ``lang`` (any language of ``LANGUAGES``), or in the
    active language when ``lang`` is None (English outside a request); ``public``
    names players by their public names rather than their handles (pages)."""
    from django.utils import translation
    from django.utils.translation import gettext

    if public:
        params = with_public_names(code, params)
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

    def message(self, lang: str | None = None, *, public: bool = False) -> str:
        """The message in ``lang`` (default: the active language); ``public`` names
        players by their public names (a page's words)."""
        return localized(self.code, self.move, self.params, lang, public=public)

    def payload(self, lang: str | None = None, *, public: bool = False) -> dict[str, Any]:
        """The error as an API answer's ``error`` (and, ``public``, a page's) shows it."""
        body: dict[str, Any] = {"code": self.code}
        if self.WITH_MOVE:
            body["move"] = self.move
        body["message"] = self.message(lang, public=public)
        body["params"] = self.params
        return body

    def as_dict(self) -> dict[str, Any]:
        """Code, move and params without words (what is stored: an import's report)."""
        return {"code": self.code, "move": self.move, "params": self.params}


def warning(code: str, lang: str | None = None, **params: Any) -> dict[str, Any]:
    """A warning (``late-result``...): a code of the same catalogue, not an error."""
    params = {**DEFAULT_PARAMS.get(code, {}), **params}
    return {"code": code, "message": localized(code, None, params, lang), "params": params}
