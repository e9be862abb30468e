"""Request parsing that turns every malformed body into a 400, never a 500."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from core.text import find_unsafe


class SafeJSONParser(JSONParser):
    """DRF's JSON parser, also refusing bodies nested too deep to decode and text the
    database cannot store (NUL characters, lone surrogates)."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            raise ParseError(_("JSON parse error - nested too deeply")) from exc
        where = find_unsafe(data)
        if where is not None:
            raise ParseError(
                _("%(field)s holds a NUL character or a lone surrogate, which cannot be stored.")
                % {"field": where}
            )
        return data
