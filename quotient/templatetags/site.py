"""``{% absolute 'url-name' arg ... %}``: the absolute URL of a page by ``SITE_URL``
(what an embed snippet or a calendar link gives to other sites)."""

from __future__ import annotations

from django import template

from core.site import absolute_url

register = template.Library()


@register.simple_tag
def absolute(name: str, *args: object) -> str:
    return absolute_url(name, *args)
