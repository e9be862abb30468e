"""How lists show a match's result: its players in rank order (first place first),
each with their score; players not ranked (an unfinished match) follow in seat
order."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from django import template
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

register = template.Library()


@register.filter
def by_rank(seats: Iterable[Any]) -> list[Any]:
    """``seats`` (anything with ``rank`` and ``seat``) sorted by rank, then seat."""
    return sorted(
        seats,
        key=lambda seat: (seat.rank is None, seat.rank or 0, seat.seat),
    )


#: arguments a reversed URL writes as they are (no quoting, no escaping, no dot segment)
_PLAIN = re.compile(r"[A-Za-z0-9_-]+")


@lru_cache(maxsize=64)
def _around(name: str, marker: str, prefix: str, urlconf: str | None) -> tuple[str, str]:
    """What the URL ``name`` of one argument writes before and after it. ``marker``
    stands for the argument: digits for digits, as the route an ``int`` converter would
    take them to may not be the one a word goes to (``match-detail`` is the page's
    for a number, the API's for anything else: the API's route is named alike)."""
    head, _, tail = reverse(name, args=[marker], urlconf=urlconf).partition(marker)
    return head, tail


@register.filter
def url_of(value: Any, name: str) -> str:
    """``{{ handle|url_of:"player-detail" }}``: the URL ``{% url name value %}`` writes,
    without a resolver's reverse for each of a page's hundreds of links (a player's
    matches and their players): the text around the argument is reversed once per
    URL name. An argument that reversing would quote is reversed as usual."""
    text = str(value)
    if not _PLAIN.fullmatch(text):
        return reverse(name, args=[value])
    marker = "7350973" if text.isdigit() else "Xq7350973"
    head, tail = _around(name, marker, get_script_prefix(), get_urlconf())
    return head + text + tail


def _shown(value: Any) -> str:
    """``value`` as ``{{ value }}`` writes it (localised, escaped)."""
    return conditional_escape(localize(value))


def _standing(rank: str, player: Any, score: Any) -> str:
    """One player of a result: ``rank. <a>name</a> (score)`` (``rank`` as written,
    none if empty; no score if None)."""
    text = f"{rank}. " if rank else ""
    url = conditional_escape(url_of(player.handle, "player-detail"))
    text += f'<a href="{url}">{_shown(player.public_display_name)}</a>'
    return text + (f" ({_shown(score)})" if score is not None else "")


@register.filter
def standings(match: Any) -> str:
    """A match's players in rank order, linked, with their scores, as the lists show
    them: what a template loop over ``match.seats.all|by_rank`` wrote, written once
    per row rather than node by node (a page shows 25 matches of 2-4 players)."""
    seats = by_rank(match.seats.all())
    shown = (_standing(_shown(s.rank) if s.rank else "", s.player, s.score) for s in seats)
    return mark_safe(", ".join(shown))  # every part escaped


@register.filter
def opponents(result: Any) -> str:
    """The other players of a counted result (``ratings.selectors.CountedResult``),
    as ``standings`` writes a match's: rank, linked name, score."""
    shown = (_standing(_shown(rank), player, score) for rank, player, score in result.opponents)
    return mark_safe(", ".join(shown))  # every part escaped
