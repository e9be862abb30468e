"""The site frame's template tags: ``base.html`` writes its frame with them.

``{% frame_open %}`` and ``{% frame_top %}`` write the frame from the parts
``core.frame`` keeps rendered per process and language (``templates/frame/parts.html``),
with the visitor's parts as the template wrote them, byte for byte
(``tests/quotient/test_frame.py`` renders the pages with the old frame,
``tests/quotient/base_before.html``, to compare). A page whose content is already
written skips the template engine with ``core.frame.framed_page``."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.base import Node, Parser, Token
from django.template.context import Context
from django.utils.functional import SimpleLazyObject, empty
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString
from django.utils.translation import get_language

from core.csrf_token import page_token
from core.frame import frame_header, frame_parts, languages, token_input

register = template.Library()

#: where ``{% frame_open %}`` leaves the parts for ``{% frame_top %}`` (render context)
_PARTS_KEY = "quotient.frame.parts"


class FrameOpenNode(Node):
    """The frame up to the page's title; ``LANGUAGE_CODE`` set in the context, as
    ``{% get_current_language %}`` did."""

    def render(self, context: Context) -> str:
        context["LANGUAGE_CODE"] = get_language()
        parts = context.render_context[_PARTS_KEY] = frame_parts()
        return SafeString(parts[0])


class FrameTopNode(Node):
    """The frame from after the page's title to its content: the header with the
    visitor's menu or the login link, the language form, the messages."""

    def render(self, context: Context) -> str:
        parts = context.render_context.get(_PARTS_KEY) or frame_parts()
        request = context.get("request")
        token = _csrf_input(context, request)  # both forms: the same masked token
        context["LANGUAGES"] = languages()
        top = frame_header(
            parts, request, context.get("user"), token, context.get("messages"), context
        )
        return SafeString(top)


def _csrf_input(context: Context, request: Any) -> str:
    """``{% csrf_token %}``: the hidden input with the context's ``csrf_token``.

    That token is the context processor's lazy ``get_token(request)``; not yet read, it
    is made here by ``core.csrf_token.page_token`` (``get_token``'s semantics, a
    cheaper mask) and put in the context in its place, so the page's other forms carry
    the same token, as they did with the lazy one."""
    token = context.get("csrf_token")
    if isinstance(token, SimpleLazyObject) and token._wrapped is empty and request is not None:
        token = context["csrf_token"] = page_token(request)
        return token_input(token)
    if not token or token == "NOTPROVIDED":
        return ""
    value = conditional_escape(token)
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{value}">'


@register.tag
def frame_open(parser: Parser, token: Token) -> FrameOpenNode:
    return FrameOpenNode()


@register.tag
def frame_top(parser: Parser, token: Token) -> FrameTopNode:
    return FrameTopNode()
