"""How lists show a match's result: its players in rank order (first place first),
each with their score; players not ranked (an unfinished match) follow in seat
order."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

from django import template
from django.conf import settings
from django.template.defaultfilters import date
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
PLAIN_ARGUMENT = re.compile(r"[A-Za-z0-9_-]+")


@lru_cache(maxsize=64)
def reversed_around(name: str, marker: str, prefix: str, urlconf: str | None) -> tuple[str, str]:
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
    if not PLAIN_ARGUMENT.fullmatch(text):
        return reverse(name, args=[value])
    marker = "7350973" if text.isdigit() else "Xq7350973"
    head, tail = reversed_around(name, marker, get_script_prefix(), get_urlconf())
    return head + text + tail


def linker(name: str) -> Callable[[Any], str]:
    """``url_of(value, name)`` escaped, for the many links of one rendering: the texts
    around the argument (escaped) are looked up once, not at each link."""
    prefix, urlconf = get_script_prefix(), get_urlconf()
    # ``html.escape`` writes what ``escape`` does, as a plain str: a link is a plain
    # str added to (not a ``SafeString``, whose additions cost a check each)
    number = tuple(map(html.escape, reversed_around(name, "7350973", prefix, urlconf)))
    word = tuple(map(html.escape, reversed_around(name, "Xq7350973", prefix, urlconf)))

    def link(value: Any) -> str:
        text = str(value)
        if not PLAIN_ARGUMENT.fullmatch(text):
            return conditional_escape(reverse(name, args=[value]))
        head, tail = number if text.isdigit() else word
        return head + text + tail

    return link


def shown_text(value: Any) -> str:
    """``value`` as ``{{ value }}`` writes it (localised, escaped). A text and a whole
    number (without thousands' separators) take a short way to the same string: a page
    shows hundreds of them."""
    kind = type(value)
    if kind is str:
        return html.escape(value)  # what ``conditional_escape`` does to a plain str
    if kind is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)  # what ``localize`` writes of an int without grouping
    return conditional_escape(localize(value))


def iso_day(value: Any) -> str:
    """``{{ value|date:"Y-m-d" }}``: a date's ISO form is the same text, without
    formatting it character by character."""
    if type(value) is dt.date:
        return value.isoformat()
    return shown_text(date(value, "Y-m-d"))


def _standing(rank: str, player: Any, score: Any, link: Callable[[Any], str]) -> str:
    """One player of a result: ``rank. <a>name</a> (score)`` (``rank`` as written,
    none if empty; no score if None); ``link``: ``linker("player-detail")``."""
    text = f"{rank}. " if rank else ""
    text += f'<a href="{link(player.handle)}">{shown_text(player.public_display_name)}</a>'
    return text + (f" ({shown_text(score)})" if score is not None else "")


@register.filter
def standings(match: Any) -> str:
    """A match's players in rank order, linked, with their scores, as the lists show
    them: what a template loop over ``match.seats.all|by_rank`` wrote, written once
    per row rather than node by node (a page shows 25 matches of 2-4 players)."""
    return mark_safe(linked_standings(match, linker("player-detail")))  # every part escaped


def linked_standings(match: Any, link: Callable[[Any], str]) -> str:
    """``standings`` with the players' ``linker("player-detail")`` of a whole table,
    not one of its own (a table of 25 rows looks the URL's texts up once)."""
    seats = by_rank(match.seats.all())
    shown = (
        _standing(shown_text(s.rank) if s.rank else "", s.player, s.score, link) for s in seats
    )
    return ", ".join(shown)


@register.filter
def opponents(result: Any) -> str:
    """The other players of a counted result (``ratings.selectors.CountedResult``),
    as ``standings`` writes a match's: rank, linked name, score."""
    return mark_safe(linked_opponents(result, linker("player-detail")))  # every part escaped


def linked_opponents(result: Any, link: Callable[[Any], str]) -> str:
    """``opponents`` with the players' ``linker("player-detail")`` of a whole table."""
    shown = (_standing(shown_text(rank), p, score, link) for rank, p, score in result.opponents)
    return ", ".join(shown)
