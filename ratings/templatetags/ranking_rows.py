"""A list page's rows written in Python: what the loops of ``ratings/_list.html``
(and the ``ratings/_movement.html`` each ranked row included) wrote, byte for byte,
once per row rather than node by node. A page shows 100 rows of seven cells: as
template nodes they were three quarters of a cold list page's time
(``docs/performance.md``, "Cold pages"). Every value is escaped as ``{{ value }}``
escapes it; the texts the template's ``translate`` tags wrote unescaped stay so."""

from __future__ import annotations

import functools
import gettext as gettext_module
import html
from collections.abc import Callable, Iterable
from gettext import GNUTranslations
from typing import Any
from urllib.parse import quote

from django import template
from django.conf import settings
from django.core.signals import setting_changed
from django.urls import get_script_prefix, get_urlconf
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, ngettext, trans_real

from federation.models import Player
from ratings.selectors import EntryRow
from scoring.templatetags.results import (
    PLAIN_ARGUMENT,
    iso_day,
    linked_opponents,
    linker,
    reversed_around,
    shown_text,
    url_of,
)

register = template.Library()

#: the descriptor of a player's country (it makes the ``Country`` a player's has)
_COUNTRY: Any = Player.country


def movement(
    entry: Any,
    plural: Callable[[str, str, int], str] = ngettext,
    number: Callable[[Any], str] | None = None,
) -> str:
    """``ratings/_movement.html`` for ``entry`` (without the file's last line end):
    new, up, down or the same place. ``plural``: ``ngettext``, or the active
    catalogue's own (``_plural``); ``number``: ``_number``, or its page's
    (``_numbers``)."""
    moved = entry.movement
    if moved is None:
        return "–" if entry.provisional else gettext("new")
    if number is None:
        number = _number
    if moved > 0:
        shown = number(moved)
        title = plural("up %(n)s place", "up %(n)s places", moved) % {"n": shown}
        return f'<span class="up" title="{title}">▲ {shown}</span>'
    if moved < 0:
        n = -moved
        shown = number(n)
        title = plural("down %(n)s place", "down %(n)s places", n) % {"n": shown}
        return f'<span class="down" title="{title}">▼ {shown}</span>'
    return f'<span title="{gettext("same place")}">=</span>'


def _plural() -> Callable[[str, str, int], str]:
    """What ``ngettext`` calls in the active language, looked up once a page (each
    call of ``ngettext`` looks up the thread's language first), reading only the
    catalogues that hold the message (:class:`_Plurals`)."""
    if not settings.USE_I18N:
        return ngettext
    translation = trans_real.catalog()
    plurals = _PLURALS.get(translation)
    if plurals is None:
        if len(_PLURALS) >= 16:
            _PLURALS.clear()
        plurals = _PLURALS[translation] = _Plurals(translation)
    return plurals


class _Plurals:
    """A translation's ``ngettext``, the same texts: Django's asks each of the
    language's catalogues (Django's own, each application's, the project's) in turn,
    each computing its plural form, and most have none of the list's messages (in
    English none has: each call fails through all of them, then chooses by ``n``).
    This one asks, per message, only the catalogues that hold it: the others could
    answer nothing for any ``n``. A translation of another kind is called as it is."""

    def __init__(self, translation: Any) -> None:
        self.translation = translation
        self.choosers: dict[tuple[str, str], Callable[[int], str]] = {}

    def __call__(self, singular: str, plural: str, n: int) -> str:
        choose = self.choosers.get((singular, plural))
        if choose is None:
            choose = self.choosers[(singular, plural)] = self._chooser(singular, plural)
        return choose(n)

    def _chooser(self, singular: str, plural: str) -> Callable[[int], str]:
        translation = self.translation
        catalog: Any = getattr(translation, "_catalog", None)
        if type(translation) is not trans_real.DjangoTranslation or not isinstance(
            catalog, trans_real.TranslationCatalog
        ):
            return functools.partial(translation.ngettext, singular, plural)
        parts: Any = catalog  # its catalogues and their plural forms, in order
        holders = [
            (texts, form)
            for texts, form in zip(parts._catalogs, parts._plurals, strict=True)
            if any(type(key) is tuple and key[0] == singular for key in texts)
        ]
        first = getattr(translation, "_fallback", None)
        holding = _holding(first, singular)

        def choose(n: int) -> str:  # ``DjangoTranslation.ngettext``
            for texts, form in holders:  # ``TranslationCatalog.plural``
                text = texts.get((singular, form(n)))
                if text is not None:
                    return text
            fallback = holding if type(n) is int else first
            if fallback:
                return fallback.ngettext(singular, plural, n)
            return singular if n == 1 else plural

        return choose


def _holding(fallback: Any, singular: str) -> Any:
    """The first translation of the ``fallback`` chain that may hold ``singular``'s
    plurals. A plain ``gettext`` translation without them is passed: for a whole
    ``n`` its ``ngettext`` misses (``NullTranslations`` holds nothing) and asks its own
    fallback, or chooses by ``n == 1`` without one, as ``choose`` does."""
    while fallback and type(fallback) in (gettext_module.NullTranslations, GNUTranslations):
        texts = getattr(fallback, "_catalog", None)
        if texts is not None and any(type(key) is tuple and key[0] == singular for key in texts):
            return fallback
        fallback = getattr(fallback, "_fallback", None)
    return fallback


#: the ``_Plurals`` of the translations, by translation
_PLURALS: dict[object, _Plurals] = {}


def _number(value: Any) -> str:
    """``shown_text(value)``; an int without thousand separators is its digits."""
    if type(value) is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return shown_text(value)


#: the movements written, by what writes them (the active catalogue's ``ngettext``,
#: the thousands' setting), then by (movement, provisional): a list's pages share a
#: few thousand of them
_MOVES: dict[tuple[object, bool], dict[tuple[int | None, bool], str]] = {}
KEPT_MOVES = 20_000


def _moves(plural: Callable[[str, str, int], str]) -> dict[tuple[int | None, bool], str]:
    """The movements the process wrote with ``plural`` (``_plural()``: the active
    language's) and the settings now, by (movement, provisional)."""
    key = (plural, settings.USE_THOUSAND_SEPARATOR)
    moves = _MOVES.get(key)
    if moves is None or len(moves) > KEPT_MOVES:
        if len(_MOVES) > 16:
            _MOVES.clear()
        moves = _MOVES[key] = {}
    return moves


def _numbers() -> Callable[[Any], str]:
    """``_number``, the setting it reads read once a page."""
    if settings.USE_THOUSAND_SEPARATOR:
        return shown_text
    return lambda value: str(value) if type(value) is int else shown_text(value)


class _Cells:
    """The cells every row writes about its player, country names looked up once a
    page (a page's players share few countries)."""

    def __init__(self) -> None:
        self.countries: dict[str, str] = {}
        self.places: dict[tuple[str, str], str] = {}  # the club and country cells
        # what ``url_of`` writes around a plain handle, looked up once a page
        head, tail = reversed_around(
            "player-detail", "Xq7350973", get_script_prefix(), get_urlconf()
        )
        self.around = conditional_escape(head), conditional_escape(tail)

    def player(self, row: EntryRow) -> str:
        handle = row.handle
        if PLAIN_ARGUMENT.fullmatch(handle) and not handle.isdigit():  # as url_of
            url = f"{self.around[0]}{handle}{self.around[1]}"
        else:
            url = conditional_escape(url_of(handle, "player-detail"))
        return f'<a href="{url}">{shown_text(row.name)}</a>'

    def club_and_country(self, row: EntryRow) -> str:
        # a page's players share few clubs and countries: each pair written once
        place = self.places.get((row.club, row.country))
        if place is None:
            place = self.places[(row.club, row.country)] = self._club_and_country(row)
        return place

    def _club_and_country(self, row: EntryRow) -> str:
        text = f'<td class="club">{shown_text(row.club or "–")}</td>\n        <td>'
        if not row.country:
            return text + "–</td>"
        cell = self.countries.get(row.country)
        if cell is None:
            cell = self.countries[row.country] = _country(row.country)
        return text + cell


def _country(code: str) -> str:
    """The country cell of a (non-empty) code, as the template wrote a player's
    ``country``: the field's own ``Country``."""
    country = _COUNTRY.country(code)
    return f'<abbr title="{shown_text(country.name)}">{shown_text(country.code)}</abbr></td>'


@register.filter
def ranked_rows(rows: Iterable[EntryRow]) -> SafeString:
    """The ranked table's rows (``ratings.selectors.EntryRow``): rank, player,
    number, movement, club, country, results. A cold list page writes a hundred: what
    a row needs is looked up once a page and its cells written inline (``_Cells``
    writes the same, a call each)."""
    cells, out, plural = _Cells(), [], _plural()
    moves, places = _moves(plural), cells.places
    number, plain, moving = shown_text, not settings.USE_THOUSAND_SEPARATOR, _numbers()
    head, tail = cells.around
    word, escape = PLAIN_ARGUMENT.fullmatch, html.escape
    for row in rows:
        rank, handle, name, fladub, _mu, _sigma, counted, moved, provisional, club, country = row
        written = moves.get((moved, provisional))
        if written is None:
            written = moves[(moved, provisional)] = movement(row, plural, moving)
        if word(handle) and not handle.isdigit():  # as ``_Cells.player``
            url = f"{head}{handle}{tail}"
        else:
            url = conditional_escape(url_of(handle, "player-detail"))
        place = places.get((club, country))
        if place is None:
            place = cells.club_and_country(row)
        if plain and type(rank) is int and type(fladub) is int and type(counted) is int:
            cols = str(rank), str(fladub), str(counted)  # as ``_number``
        else:
            cols = number(rank), number(fladub), number(counted)
        out.append(
            f'\n    <tr><td class="num">{cols[0]}</td><td><a href="{url}">'
            f"{escape(name) if type(name) is str else shown_text(name)}</a></td>"
            f'\n        <td class="num">{cols[1]}</td>'
            f'<td class="num">{written}\n</td>'  # the include's last line end
            f"\n        {place}"
            f'\n        <td class="num">{cols[2]}</td></tr>\n  '
        )
    return mark_safe("".join(out))  # every value escaped


@register.filter
def provisional_rows(rows: Iterable[EntryRow]) -> SafeString:
    """The provisional table's rows (``EntryRow``): player, number, results, club,
    country."""
    cells, out, number = _Cells(), [], _numbers()
    for row in rows:
        out.append(
            f"\n    <tr><td>{cells.player(row)}</td>"
            f'\n        <td class="num">{number(row.fladub)}</td>'
            f'<td class="num">{number(row.results_counted)}</td>'
            f"\n        {cells.club_and_country(row)}</tr>\n  "
        )
    return mark_safe("".join(out))  # every value escaped


@register.filter
def why_rows(results: Iterable[Any]) -> SafeString:
    """The rows of a player page's "why my number changed" table
    (``ratings.selectors.CountedResult``): date (linked) and its badges, age, weight,
    place, opponents."""
    rows, link, players = [], linker("match-detail"), linker("player-detail")
    new = f' <span class="badge">{gettext("new")}</span>'
    late = f' <span class="badge summary">{gettext("late")}</span>'
    weights: dict[tuple[type, Any], str] = {}  # a table's results share few weights
    for result in results:
        url = link(result.match_id)
        badges = new if result.new else ""
        if result.late:
            badges += late
        key = (type(result.weight), result.weight)  # 1 and 1.0 are written apart
        weight = weights.get(key)
        if weight is None:
            weight = weights[key] = shown_text(result.weight)
        rows.append(
            f'\n    <tr><td><a href="{url}">{iso_day(result.played_on)}</a>'
            f"{badges}</td>"
            f'\n        <td class="num">{shown_text(result.age)}</td>'
            f'<td class="num">{weight}</td>'
            f'<td class="num">{shown_text(result.rank)}</td>'
            f"\n        <td>{linked_opponents(result, players)}</td></tr>\n  "
        )
    return mark_safe("".join(rows))  # every value escaped


@register.simple_tag(takes_context=True)
def list_pages(context: Any, page: Any, param: str, anchor: str) -> SafeString:
    """``ratings/_pages.html`` of ``page`` (included with ``param`` and ``anchor``),
    byte for byte: the pages' links, each keeping the other query parameters."""
    if page.paginator.num_pages <= 1:
        return mark_safe("\n\n")
    request = context.get("request")
    kept = "".join(
        f"{shown_text(quote(str(k), safe='/'))}={shown_text(quote(str(v), safe='/'))}&amp;"
        for k, v in (request.GET.items() if request is not None else ())
        if k != param
    )
    link = f"?{kept}{shown_text(param)}="
    pages, previous, of, following = _pages_words()
    out = [f'\n\n<nav class="pages" aria-label="{pages}">\n']
    if page.has_previous():
        number = shown_text(page.previous_page_number())
        out.append(f'<a href="{link}{number}{shown_text(anchor)}">« {previous}</a>')
    words = {"number": shown_text(page.number), "total": shown_text(page.paginator.num_pages)}
    out.append("\n" + of % words + "\n")
    if page.has_next():
        number = shown_text(page.next_page_number())
        out.append(f'<a href="{link}{number}{shown_text(anchor)}">{following} »</a>')
    out.append("\n</nav>\n\n")
    return mark_safe("".join(out))  # every value escaped


#: the pages' links' words by language: "Pages", "previous" (escaped), "page %(number)s
#: of %(total)s" (its values escaped when written), "next" (escaped)
_PAGES_WORDS: dict[str | None, tuple[str, str, str, str]] = {}


def _pages_words() -> tuple[str, str, str, str]:
    """``list_pages``' words in the active language (translated once per process)."""
    language = get_language()
    words = _PAGES_WORDS.get(language)
    if words is None:
        words = _PAGES_WORDS[language] = (
            shown_text(gettext("Pages")),
            shown_text(gettext("previous")),
            gettext("page %(number)s of %(total)s"),
            shown_text(gettext("next")),
        )
    return words


def _forget(**kwargs: Any) -> None:
    """A setting changed (in tests): the words are translated again."""
    _PAGES_WORDS.clear()


setting_changed.connect(_forget, dispatch_uid="ratings-list-pages-words")
