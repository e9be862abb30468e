"""A list page's rows written in Python: what the loops of ``ratings/_list.html``
(and the ``ratings/_movement.html`` each ranked row included) wrote, byte for byte,
once per row rather than node by node. A page shows 100 rows of seven cells: as
template nodes they were three quarters of a cold list page's time
(``docs/performance.md``, "Cold pages"). Every value is escaped as ``{{ value }}``
escapes it; the texts the template's ``translate`` tags wrote unescaped stay so."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext

from scoring.templatetags.results import _day, _shown, linker, opponents, url_of

register = template.Library()


def movement(entry: Any) -> str:
    """``ratings/_movement.html`` for ``entry`` (without the file's last line end):
    new, up, down or the same place."""
    moved = entry.movement
    if moved is None:
        return "–" if entry.provisional else gettext("new")
    if moved > 0:
        title = ngettext("up %(n)s place", "up %(n)s places", moved) % {"n": _shown(moved)}
        return f'<span class="up" title="{title}">▲ {_shown(moved)}</span>'
    if moved < 0:
        n = -moved
        title = ngettext("down %(n)s place", "down %(n)s places", n) % {"n": _shown(n)}
        return f'<span class="down" title="{title}">▼ {_shown(n)}</span>'
    return f'<span title="{gettext("same place")}">=</span>'


class _Cells:
    """The cells every row writes about its player, country names looked up once a
    page (a page's players share few countries)."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def player(self, entry: Any) -> str:
        player = entry.player
        url = conditional_escape(url_of(player.handle, "player-detail"))
        return f'<a href="{url}">{_shown(player.public_display_name)}</a>'

    def club_and_country(self, entry: Any) -> str:
        player = entry.player
        club = player.club.name if player.club is not None else ""
        text = f'<td class="club">{_shown(club or "–")}</td>\n        <td>'
        country = player.country
        if not country:
            return text + "–</td>"
        name = self.names.get(country.code)
        if name is None:
            name = self.names[country.code] = _shown(country.name)
        return text + f'<abbr title="{name}">{_shown(country.code)}</abbr></td>'


@register.filter
def ranked_rows(entries: Iterable[Any]) -> SafeString:
    """The ranked table's rows: rank, player, number, movement, club, country,
    results."""
    cells, rows = _Cells(), []
    for entry in entries:
        rows.append(
            f'\n    <tr><td class="num">{_shown(entry.rank)}</td><td>{cells.player(entry)}</td>'
            f'\n        <td class="num">{_shown(entry.fladub)}</td>'
            f'<td class="num">{movement(entry)}\n</td>'  # the include's last line end
            f"\n        {cells.club_and_country(entry)}"
            f'\n        <td class="num">{_shown(entry.results_counted)}</td></tr>\n  '
        )
    return mark_safe("".join(rows))  # every value escaped


@register.filter
def provisional_rows(entries: Iterable[Any]) -> SafeString:
    """The provisional table's rows: player, number, results, club, country."""
    cells, rows = _Cells(), []
    for entry in entries:
        rows.append(
            f"\n    <tr><td>{cells.player(entry)}</td>"
            f'\n        <td class="num">{_shown(entry.fladub)}</td>'
            f'<td class="num">{_shown(entry.results_counted)}</td>'
            f"\n        {cells.club_and_country(entry)}</tr>\n  "
        )
    return mark_safe("".join(rows))  # every value escaped


@register.filter
def why_rows(results: Iterable[Any]) -> SafeString:
    """The rows of a player page's "why my number changed" table
    (``ratings.selectors.CountedResult``): date (linked) and its badges, age, weight,
    place, opponents."""
    rows, link = [], linker("match-detail")
    for result in results:
        url = link(result.match_id)
        badges = f' <span class="badge">{gettext("new")}</span>' if result.new else ""
        if result.late:
            badges += f' <span class="badge summary">{gettext("late")}</span>'
        rows.append(
            f'\n    <tr><td><a href="{url}">{_day(result.played_on)}</a>'
            f"{badges}</td>"
            f'\n        <td class="num">{_shown(result.age)}</td>'
            f'<td class="num">{_shown(result.weight)}</td>'
            f'<td class="num">{_shown(result.rank)}</td>'
            f"\n        <td>{opponents(result)}</td></tr>\n  "
        )
    return mark_safe("".join(rows))  # every value escaped
