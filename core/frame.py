"""The site frame (``templates/base.html``) written without the template engine.

Most of the frame (the head, the navigation, the menus, the language form) depends
on the language only: its twenty-odd ``{% url %}``, ``{% static %}`` and
``{% translate %}`` cost about a millisecond per page when the template engine
renders them. ``templates/frame/parts.html`` holds that text, cut at each part that
depends on the visitor; it is rendered once per process and language and the parts
kept. ``framed_page`` writes a whole page from them around a title and a content
already written, and the template tags of ``base.html``
(``quotient.templatetags.frame``) write the frame of a rendered page from them: with
the visitor's parts (their name, the CSRF token, the page's path, the messages) as the
template wrote them, byte for byte (``tests/quotient/test_frame.py`` renders the
pages with the old frame, ``tests/quotient/base_before.html``, to compare). Kept here,
under the apps, so that every app's pages can be framed so (the match and player
pages, the ranking lists)."""

from __future__ import annotations

from html import escape
from typing import Any, cast
from urllib.parse import quote

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.signals import setting_changed
from django.http import HttpRequest, HttpResponse
from django.template.base import render_value_in_context
from django.template.context import Context
from django.template.loader import render_to_string
from django.urls import get_script_prefix, get_urlconf
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext

from core.csrf_token import page_token

#: where ``templates/frame/parts.html`` is cut (``{{ cut }}``): no text of it has one
CUT = "\x1e"
#: the frame's parts by (language, script prefix, URLconf)
_parts: dict[tuple[str | None, str, object], list[str]] = {}


def frame_parts() -> list[str]:
    """The frame's parts in the active language (rendered once per process)."""
    key = (get_language(), get_script_prefix(), get_urlconf())
    parts = _parts.get(key)
    if parts is None:
        text = render_to_string("frame/parts.html", {"cut": mark_safe(CUT)})
        parts = _parts[key] = text.split(CUT)
    return parts


#: the languages' names translated, by active language (``{% get_available_languages %}``)
_languages: dict[str | None, tuple[tuple[str, str], ...]] = {}


def languages() -> list[tuple[str, str]]:
    """``settings.LANGUAGES`` with the names in the active language, as
    ``{% get_available_languages %}`` lists them (translated once per process)."""
    language = get_language()
    named = _languages.get(language)
    if named is None:
        named = _languages[language] = tuple(
            (code, gettext(cast(str, name))) for code, name in settings.LANGUAGES
        )
    return list(named)


def _forget(**kwargs: Any) -> None:
    """A setting changed (in tests): the parts are rendered again."""
    _parts.clear()
    _languages.clear()


setting_changed.connect(_forget, dispatch_uid="core-frame-parts")


def frame_header(
    parts: list[str], request: Any, user: Any, token: str, messages: Any, context: Context
) -> str:
    """The frame's text from the title to the content, for this visitor (``token``:
    the CSRF token's hidden input, or "")."""
    out = [parts[1]]
    if getattr(user, "is_authenticated", False):
        out += [parts[2], _value(user.get_username(), context), parts[3]]
        if getattr(user, "is_staff", False):
            out.append(parts[4])
        out += [parts[5], token, parts[6]]
    else:
        path = quote(request.path, safe="/") if request is not None else ""
        out += [parts[7], _value(path, context), parts[8]]
    full_path = request.get_full_path() if request is not None else ""
    out += [parts[9], token, parts[10], _value(full_path, context), parts[11]]
    out.append(_messages(messages, context))
    out.append("\n")
    return "".join(out)


#: what ``base.html`` writes after its content block
END = "\n</main>\n</body>\n</html>\n"


def framed_page(request: HttpRequest, title: str, content: str) -> HttpResponse:
    """The page ``render`` answers with a template that only extends ``base.html`` with
    ``{% block title %}{{ title }}{% endblock %}{% block content %}{{ content }}
    {% endblock %}`` (``scoring/match_detail_rows.html``), written without the template
    engine: for a page whose content is already written, the engine's context,
    processors and blocks cost as much as the frame itself. The visitor's parts are the
    context processors' (``request.user``, the request's messages, a CSRF token made
    as ``get_token`` makes it); ``tests/quotient/test_frame.py`` compares both ways."""
    context = Context()  # how a value is written: escaped
    token = token_input(page_token(request))
    user = getattr(request, "user", None)
    parts = frame_parts()
    top = frame_header(parts, request, user, token, get_messages(request), context)
    text = [parts[0], conditional_escape(title), top, conditional_escape(content), END]
    return HttpResponse("".join(text))


def token_input(token: str) -> str:
    """The hidden input of a masked token (letters and digits: nothing to escape)."""
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{token}">'


def _value(value: object, context: Context) -> str:
    """``{{ value }}`` (localized, escaped unless safe): a plain string escaped."""
    if type(value) is str and context.autoescape:
        return escape(value)
    return str(render_value_in_context(value, context))


def _messages(messages: Any, context: Context) -> str:
    """The messages' list as the frame wrote it; empty without messages."""
    if not messages:
        return ""
    items = "".join(
        f'<li class="{_value(message.tags, context)}">{_value(message, context)}</li>'
        for message in messages
    )
    return f'<ul class="messages">{items}</ul>'
