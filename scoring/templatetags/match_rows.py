"""The match table's rows written in Python: what the loop of
``scoring/_match_table.html`` wrote, byte for byte, once per row rather than node by
node (a player's page, the match list and the home page show 25 matches each; as
template nodes the rows were a good part of a cold player page's time:
``docs/performance.md``, "Cold pages"). Every value is escaped as ``{{ value }}``
escapes it; the texts the template's ``translate`` tags wrote unescaped stay so."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from scoring.templatetags.results import iso_day, linked_standings, linker, shown_text

register = template.Library()


def _badges(match: Any) -> str:
    """The verification cell: its badge, then unfinished and a status other than
    recorded."""
    text = (
        f'<span class="badge {shown_text(match.verification)}">'
        f"{shown_text(match.get_verification_display())}</span>"
    )
    if not match.finished:
        text += f' <span class="badge">{gettext("unfinished")}</span>'
    if match.status != "recorded":
        text += (
            f' <span class="badge {shown_text(match.status)}">'
            f"{shown_text(match.get_status_display())}</span>"
        )
    return text


@register.filter
def match_rows(matches: Iterable[Any]) -> SafeString:
    """The rows of ``matches``: date (linked), game, club, standings, verification."""
    rows, link, players = [], linker("match-detail"), linker("player-detail")
    cells: dict[tuple[Any, ...], str] = {}  # a table's rows share few badges
    for match in matches:
        url = link(match.pk)
        key = (match.verification, match.finished, match.status)
        badges = cells.get(key)
        if badges is None:
            badges = cells[key] = _badges(match)
        rows.append(
            "\n    <tr>"
            f'\n      <td><a href="{url}">{iso_day(match.played_on)}</a></td>'
            f"\n      <td>{shown_text(match.game.label)}</td>"
            f"\n      <td>{shown_text(match.club.name)}</td>"
            f'\n      <td class="wide">{linked_standings(match, players)}</td>'
            f"\n      <td>{badges}</td>"
            "\n    </tr>\n  "
        )
    return mark_safe("".join(rows))  # every value escaped
