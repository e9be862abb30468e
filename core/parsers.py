"""Request parsing that turns every malformed body into a 400, never a 500."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import DataAndFiles, FormParser, JSONParser, MultiPartParser

from core.text import find_unsafe, unsafe_text


def _refuse(where: str) -> ParseError:
    return ParseError(
        _("%(field)s holds a NUL character or a lone surrogate, which cannot be stored.")
        % {"field": where}
    )


def _check_form(data: Any) -> None:
    """Refuse a form's fields (names and values) holding NUL or a lone surrogate."""
    for key, values in data.lists():
        if unsafe_text(key) or any(unsafe_text(v) for v in values):
            raise _refuse(key if not unsafe_text(key) else "(body)")


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
            raise _refuse(where)
        return data


class SafeFormParser(FormParser):
    """DRF's form parser, refusing fields the database cannot store (a 400, not the
    database's error)."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        _check_form(data)
        return data


class SafeMultiPartParser(MultiPartParser):
    """DRF's multipart parser, refusing fields and file names the database cannot
    store. The files' contents are the reader's (an import checks its rows)."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        parsed = super().parse(stream, media_type, parser_context)
        _check_form(parsed.data)
        for key, uploads in parsed.files.lists():
            if unsafe_text(key) or any(unsafe_text(u.name or "") for u in uploads):
                raise _refuse("(file name)")
        return DataAndFiles(parsed.data, parsed.files)
