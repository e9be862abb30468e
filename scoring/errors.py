"""Errors and warnings at the edge: rendered in the reader's language.

The engines and the service report a stable code with parameters (``RecordError``);
the catalogue ``scoring.messages`` holds every code's English template, and gettext
(``locale/``) translates it here, in the request's language or the one given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils import translation
from django.utils.translation import gettext

from scoring.engine.common import RecordError
from scoring.messages import render

#: parameters a caller may not give yet, and their default
DEFAULT_PARAMS: dict[str, dict[str, Any]] = {"too-old-to-rate": {"months": 12}}


def localized(code: str, move: Any, params: Mapping[str, Any], lang: str | None = None) -> str:
    """The message of ``code`` in ``lang`` (any language of ``LANGUAGES``), or in the
    active language when ``lang`` is None."""
    if lang is None:
        return render(code, move, params, gettext)
    with translation.override(lang):
        return render(code, move, params, gettext)


class MatchRejected(Exception):
    """A submission refused whole; nothing was stored."""

    def __init__(self, error: RecordError | dict[str, Any]) -> None:
        if isinstance(error, RecordError):
            error = error.as_dict()
        self.error = error
        code = error.get("code", "")
        super().__init__(render(code, error.get("move"), error.get("params") or {}))

    def payload(self, lang: str | None = None) -> dict[str, Any]:
        """The error for an API answer or a page, its message in ``lang`` (default: the
        active language)."""
        code = self.error.get("code", "")
        move = self.error.get("move")
        params = self.error.get("params") or {}
        message = localized(code, move, params, lang)
        return {"code": code, "move": move, "message": message, "params": params}


def warning(code: str, lang: str | None = None, **params: Any) -> dict[str, Any]:
    """A warning of a stored match (``late-result``...), its message in ``lang``."""
    params = {**DEFAULT_PARAMS.get(code, {}), **params}
    return {"code": code, "message": localized(code, None, params, lang), "params": params}
