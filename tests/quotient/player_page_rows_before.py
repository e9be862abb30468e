"""The player page's content as ``quotient.player_page`` wrote it before it read the
page's matches and the counted results in one statement and wrote their rows straight
from the rows read (issue 23's third stop): the previous renderer, kept as the tests'
reference. The tests compare the two, byte for byte."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from django.http import Http404, HttpRequest
from django.template.defaultfilters import floatformat
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape, escape
from django.utils.translation import gettext, ngettext
from django_countries.fields import Country

from core.prepared import prepared_cursor
from federation.models import public_display_name
from federation.months import month_index, month_label, parse_month, previous_month
from quotient.charts import ChartWords, MonthPoint, ranking_chart
from ratings.selectors import HistoryEntry, history_entry, history_entry_results
from ratings.templatetags.ranking_rows import movement, why_rows
from scoring.selectors import player_match_count, player_matches_page
from scoring.templatetags.match_rows import match_rows
from scoring.templatetags.results import PLAIN_ARGUMENT, shown_text

#: matches a page shows
PER_PAGE = 25

#: the player (with their club), every game's key and name (the what-if form offers
#: them) and the player's entries (``ratings.selectors.HISTORY_SQL``'s columns, by game
#: key, newest month first), in one statement: a row per entry, one row of NULL entry
#: columns for a player never listed, none for no player
PLAYER_SQL = """
SELECT p.id, p.handle, p.display_name, p.public_name, p.country, c.slug, c.name,
       ARRAY(SELECT g.key FROM federation_game g ORDER BY g.key),
       ARRAY(SELECT g.name FROM federation_game g ORDER BY g.key),
       h.game_id, h.game_key, h.game_name, h.month, h.latest, h.rank, h.fladub,
       h.results_counted, h.movement, h.provisional, h.parameters
FROM federation_player p
LEFT JOIN federation_club c ON c.id = p.club_id
LEFT JOIN LATERAL (
    SELECT g.id AS game_id, g.key AS game_key, g.name AS game_name, l.month,
           (SELECT max(x.month) FROM ratings_rankinglist x WHERE x.game_id = l.game_id)
               AS latest,
           e.rank, e.fladub, e.results_counted, e.movement, e.provisional, l.parameters
    FROM ratings_rankingentry e
    JOIN ratings_rankinglist l ON l.id = e.ranking_id
    JOIN federation_game g ON g.id = l.game_id
    WHERE e.player_id = p.id
      AND l.revision = (SELECT x.revision FROM ratings_rankinglist x
                        WHERE x.game_id = l.game_id AND x.month = l.month
                        ORDER BY x.revision DESC LIMIT 1)
) h ON true
WHERE lower(p.handle) = lower(%s)
ORDER BY h.game_key, h.month DESC
"""


@dataclass(frozen=True, slots=True)
class PagePlayer:
    pk: int
    handle: str
    name: str  # the public display name
    country: str  # the code, empty when none
    club_slug: str | None
    club_name: str | None
    games: tuple[tuple[str, str], ...]  # every game's key and name, by key


def page_player(handle: str) -> tuple[PagePlayer, list[HistoryEntry]]:
    """The player of ``handle`` whatever its case (``Player.objects.by_handle``) and
    their entries (``player_page_entries``), in one query; ``Http404`` when there is
    no such player."""
    with prepared_cursor() as cursor:
        cursor.execute(PLAYER_SQL, [handle])
        rows = cursor.fetchall()
    if not rows:
        raise Http404("No Player matches the given query.")
    pk, handle, display_name, public, country, slug, club, keys, names = rows[0][:9]
    name = public_display_name(handle, display_name, public)
    games = tuple(zip(keys, names, strict=True))
    player = PagePlayer(pk, handle, name, country, slug, club, games)
    entries = [history_entry(row[9:]) for row in rows if row[9] is not None]
    return player, entries


def player_html_rows_before(request: HttpRequest, handle: str) -> tuple[str, str]:
    """The page's title and its content, the same for every visitor."""
    player, entries = page_player(handle)
    matches, number, pages = _matches(player.pk, request.GET.get("page"))
    parts = [
        _head(player),
        _sections(entries),
        "\n\n",
        _why(request, player, entries),
        "\n\n",
        _what_if(player),
        "\n\n",
        f"<h2>{gettext('Matches')}</h2>\n",
        f'<div class="scroll">{_match_table(matches)}</div>\n',
        _pages(request, number, pages),
        "\n",
    ]
    return player.name, "".join(parts)


def _matches(player_id: int, asked: Any) -> tuple[list[Any], int, int]:
    """The page's matches, its number and the number of pages, as ``Paginator(...,
    25).get_page(asked)`` pages them: not a number is the first page, a number out of
    range the last. The count comes with the page; it is read alone only for a page
    out of range."""
    try:
        number = int(asked)
    except (TypeError, ValueError):
        number = 1
    if number >= 1:
        rows, total = player_matches_page(
            player_id=player_id, offset=(number - 1) * PER_PAGE, limit=PER_PAGE
        )
        if total is not None:
            return rows, number, _page_count(total)
        if number == 1:
            return rows, 1, 1
    pages = _page_count(player_match_count(player_id))
    if 1 <= number <= pages:  # empty, then filled meanwhile: read it again
        pages = number
    rows, _total = player_matches_page(
        player_id=player_id, offset=(pages - 1) * PER_PAGE, limit=PER_PAGE
    )
    return rows, pages, pages


def _page_count(total: int) -> int:
    return max(1, -(-total // PER_PAGE))


@lru_cache(maxsize=64)
def _around(name: str, count: int, prefix: str, urlconf: str | None) -> tuple[str, ...]:
    """The texts the URL ``name`` of ``count`` arguments writes around them."""
    markers = [f"Xq735097{n}" for n in range(count)]
    text = reverse(name, args=markers, urlconf=urlconf)
    parts = []
    for marker in markers:
        head, _, text = text.partition(marker)
        parts.append(head)
    return (*parts, text)


def _url(name: str, *args: str) -> str:
    """``{% url name args %}`` (escaped), the URL's texts reversed once per name: each
    argument a word (``scoring.templatetags.results.url_of``), else reversed as usual."""
    if not all(PLAIN_ARGUMENT.fullmatch(arg) for arg in args):
        return conditional_escape(reverse(name, args=list(args)))
    around = _around(name, len(args), get_script_prefix(), get_urlconf())
    text = around[0]
    for arg, tail in zip(args, around[1:], strict=True):
        text += arg + tail
    return text


def _head(player: PagePlayer) -> str:
    club = ""
    if player.club_slug is not None:
        club = f'<a href="{_url("club-page", player.club_slug)}">{escape(player.club_name)}</a>'
    country = escape(Country(code=player.country).name) if player.country else ""
    between = " · " if club and country else ""
    return (
        f"\n<h1>{escape(player.name)} <small>({escape(player.handle)})</small></h1>"
        f"\n<p>{club}{between}{country}</p>"
        f'\n<p class="no-print player-tools"><a href="{_url("player-versus-choose", player.handle)}">'
        f'{gettext("Compare with…")}</a> · <a href="#what-if">{gettext("What if…?")}</a></p>'
        "\n<!--me-->\n"
        f"\n<h2>{gettext('World ranking')}</h2>\n"
    )


def _by_game(entries: Sequence[HistoryEntry]) -> dict[int, list[HistoryEntry]]:
    by_game: dict[int, list[HistoryEntry]] = {}
    for entry in entries:
        by_game.setdefault(entry.game_id, []).append(entry)
    return by_game


def _month_before(entries: Sequence[HistoryEntry], entry: HistoryEntry) -> HistoryEntry | None:
    wanted = previous_month(entry.month)
    return next((e for e in entries if e.month == wanted), None)


def _sections(entries: Sequence[HistoryEntry]) -> str:
    """Per game: the headline, the chart and the months' table (``{% for section in
    games %}``)."""
    by_game = _by_game(entries)
    if not by_game:
        return f"\n<p>{gettext('Not in any published list yet.')}</p>\n"
    return "".join(_section(rows) for rows in by_game.values())


def _section(entries: list[HistoryEntry]) -> str:
    entry = entries[0]
    key, label, month = escape(entry.game_key), escape(entry.game_label), month_label(entry.month)
    note = ""
    if entry.month != entry.latest:
        text = gettext(
            "Not in the latest list (%(latest)s): no result still counting. "
            "Last listed in %(month)s:"
        )
        note = f'<p class="note">{text % {"latest": month_label(entry.latest), "month": month}}</p>'
    if entry.rank:
        rank = shown_text(entry.rank)
    else:
        rank = f'<span class="provisional">{gettext("provisional")}</span>'
    before = _month_before(entries, entry)
    if before is None:
        change = "–"
    else:
        moved = entry.fladub - before.fladub
        change = f"+{shown_text(moved)}" if moved > 0 else shown_text(moved)
    month_url = _url("ranking-month", entry.game_key, month)
    listed = gettext("List of %(month)s") % {"month": month}
    return (
        f'\n<section class="game-ranking" id="game-{key}">'
        f"\n<h3>{label}</h3>"
        f"\n{note}"
        '\n<dl class="headline">'
        f"\n  <div><dt>{gettext('Rank')}</dt><dd>{rank}</dd></div>"
        f"\n  <div><dt>{gettext('Ranking number')}</dt><dd>{shown_text(entry.fladub)}</dd></div>"
        f"\n  <div><dt>{gettext('Movement')}</dt><dd>{movement(entry)}\n</dd></div>"
        f"\n  <div><dt>{gettext('Since the month before')}</dt><dd>{change}</dd></div>"
        "\n</dl>"
        f'\n<p class="headline-month"><a href="{month_url}">{listed}</a>'
        f' · <a href="?game={key}&amp;month={month}#why">{gettext("Why this number?")}</a></p>'
        f'\n<figure class="chart">{_chart(entries)}</figure>'
        '\n<details class="months">'
        f"\n  <summary>{gettext('Month by month')}</summary>"
        '\n  <div class="scroll">'
        "\n  <table>"
        f'\n    <thead><tr><th>{gettext("Month")}</th><th class="num">{gettext("Rank")}</th>'
        f'<th class="num">{gettext("Ranking number")}</th>'
        f'<th class="num">{gettext("Results")}</th><th>{gettext("Details")}</th></tr></thead>'
        "\n    <tbody>"
        f"\n    {_month_rows(entries, key)}"
        "\n    </tbody>"
        "\n  </table>"
        "\n  </div>"
        "\n</details>"
        "\n</section>\n"
    )


def _month_rows(entries: list[HistoryEntry], key: str) -> str:
    """The months' table rows (the loop's text, with its indentation)."""
    provisional, why = gettext("provisional"), gettext("why?")
    rows = []
    for row in entries:
        month = month_label(row.month)
        rank = provisional if row.provisional else shown_text(row.rank)
        rows.append(
            f'\n    <tr><td><a href="{_url("ranking-month", row.game_key, month)}">{month}</a></td>'
            f'\n        <td class="num">{rank}</td><td class="num">{shown_text(row.fladub)}</td>'
            f'<td class="num">{shown_text(row.results_counted)}</td>'
            f'\n        <td><a href="?game={key}&amp;month={month}#why">{why}</a></td></tr>\n    '
        )
    return "".join(rows)


def _chart(entries: list[HistoryEntry]) -> str:
    """The game's SVG chart (``quotient.charts``), its words translated."""
    points = [MonthPoint(month_index(e.month), e.fladub, e.rank) for e in entries[::-1]]
    ranks = [p.rank for p in points if p.rank is not None]
    facts = {
        "first": points[0].number,
        "first_month": month_label(entries[-1].month),
        "last": points[-1].number,
        "last_month": month_label(entries[0].month),
    }
    description = gettext("From %(first)s in %(first_month)s to %(last)s in %(last_month)s.")
    description %= facts
    if ranks:
        description += " " + gettext("Best rank: %(best)s.") % {"best": min(ranks)}
    game = entries[0]
    words = ChartWords(
        title=gettext("%(game)s: ranking number and rank by month") % {"game": game.game_label},
        description=description,
        number=gettext("Ranking number"),
        rank=gettext("Rank"),
    )
    return ranking_chart(points, words, ident=f"chart-{game.game_key}")


def _why(request: HttpRequest, player: PagePlayer, entries: Sequence[HistoryEntry]) -> str:
    """Why my number changed (``?game=&month=``'s entry, else the newest)."""
    if not entries:
        return ""
    game, month = request.GET.get("game"), request.GET.get("month")
    if game or month:
        wanted = (game, parse_month(month))
        entry = next((e for e in entries if (e.game_key, e.month) == wanted), None)
        if entry is None:
            text = gettext("%(game)s %(month)s: this player is not in that list.")
            text %= {"game": escape(str(game)), "month": escape(str(month))}  # None: "None"
            return (
                '\n<section id="why" class="why">'
                f"\n\n<h2>{gettext('Why my number changed')}</h2>"
                f"\n<p>{text}</p>"
                "\n\n</section>\n"
            )
    else:
        entry = max(entries, key=lambda e: (e.month, -e.game_id))
    return _why_entry(player, entry, [e for e in entries if e.game_id == entry.game_id])


def _why_entry(player: PagePlayer, entry: HistoryEntry, game_entries: list[HistoryEntry]) -> str:
    results = history_entry_results(entry, player.pk)
    before = _month_before(game_entries, entry)
    month = month_label(entry.month)
    title = gettext("Why my number changed: %(game)s, %(month)s")
    title %= {"game": escape(entry.game_label), "month": month}
    if before is not None:
        then = gettext("%(before)s in %(month)s, %(now)s now.")
        then %= {
            "before": shown_text(before.fladub),
            "month": month_label(before.month),
            "now": shown_text(entry.fladub),
        }
    else:
        then = gettext("%(now)s: not listed the month before.") % {"now": shown_text(entry.fladub)}
    total = floatformat(sum(r.weight for r in results), "-1")
    counts = ngettext(
        "The number counts %(n)s result, of total weight %(total)s:",
        "The number counts %(n)s results, of total weight %(total)s:",
        len(results),
    ) % {"n": shown_text(len(results)), "total": total}
    note = ""
    if len(results) != entry.results_counted:
        text = gettext(
            "When this list was published it counted %(n)s results; matches corrected or "
            "withdrawn since then show as they are now."
        )
        note = f'<p class="note">{text % {"n": shown_text(entry.results_counted)}}</p>'
    api = _url("api-player-ranking", player.handle, entry.game_key, month)
    return (
        '\n<section id="why" class="why">'
        f"\n\n<h2>{title}</h2>"
        f"\n<p>{then}"
        f"\n{counts}"
        "\n"
        + gettext(
            "new results move it, older ones weigh less each month (the weight), and "
            "results older than the window no longer count."
        )
        + f'\n<a href="{_url("ranking-about")}#aging">'
        f"{gettext('How is the ranking number computed?')}</a></p>"
        f"\n{note}"
        '\n<div class="scroll">'
        '\n<table class="why-results">'
        f"\n  <thead><tr><th>{gettext('Played on')}</th>"
        f'<th class="num">{gettext("Age (months)")}</th>'
        f'<th class="num">{gettext("Weight")}</th><th class="num">{gettext("Place")}</th>'
        f"<th>{gettext('Opponents')}</th></tr></thead>"
        "\n  <tbody>"
        f"\n  {why_rows(results)}"
        "\n  </tbody>"
        "\n</table>"
        "\n</div>"
        f'\n<p class="no-print"><a href="{api}">{gettext("The same in the API (JSON)")}</a></p>'
        "\n\n</section>\n"
    )


def _what_if(player: PagePlayer) -> str:
    """The what-if section and its form (``ratings/_what_if_form.html``, nothing
    asked yet), every game offered."""
    options = "".join(
        f'<option value="{escape(key)}">{escape(gettext(name))}</option>'
        for key, name in player.games
    )
    return (
        '<section id="what-if" class="what-if no-print">'
        f"\n<h2>{gettext('What if…?')}</h2>"
        "\n<p>"
        + gettext(
            "Your chance to win a table, and your number after this month's close if you "
            "played it and finished in that place (an estimate)."
        )
        + "</p>"
        f'\n<form method="get" action="{_url("player-what-if", player.handle)}"'
        ' class="what-if-form">'
        f'\n  <label for="wi-game">{gettext("Game")}</label>'
        '\n  <select id="wi-game" name="game" required>'
        f"\n    {options}"
        "\n  </select>"
        f'\n  <label for="wi-opponents">{gettext("Opponents (handles, separated by commas)")}'
        "</label>"
        '\n  <input type="text" id="wi-opponents" name="opponents" value="" maxlength="400"'
        ' required autocomplete="off" autocapitalize="none" spellcheck="false"'
        ' placeholder="ana, bruno, chloe">'
        f'\n  <label for="wi-place">{gettext("My place at the table")}</label>'
        '\n  <input type="number" id="wi-place" name="place" value="1" min="1" max="9"'
        ' inputmode="numeric">'
        '\n  <span class="helptext">'
        + gettext("The opponents take the other places in the order you name them.")
        + "</span>"
        f'\n  <button type="submit">{gettext("Estimate")}</button>'
        "\n</form>"
        "\n\n</section>"
    )


def _match_table(matches: list[Any]) -> str:
    """``scoring/_match_table.html``."""
    rows: str = match_rows(matches)
    if not rows:
        rows = f'\n    <tr><td colspan="5">{gettext("No matches yet.")}</td></tr>\n  '
    return (
        '\n<table class="cards match-table">'
        f"\n  <thead><tr><th>{gettext('Date')}</th><th>{gettext('Game')}</th>"
        f"<th>{gettext('Club')}</th><th>{gettext('Standings')}</th>"
        f"<th>{gettext('Verification')}</th></tr></thead>"
        "\n  <tbody>"
        f"\n  {rows}"
        "\n  </tbody>"
        "\n</table>\n"
    )


def _pages(request: HttpRequest, number: int, pages: int) -> str:
    """``_pages.html``: the links to the previous and next pages."""
    kept = "".join(
        f"{conditional_escape(k)}={conditional_escape(quote(str(v), safe='/'))}&amp;"
        for k, v in request.GET.items()
        if k != "page"
    )
    before = after = ""
    if number > 1:
        before = f'<a href="?{kept}page={number - 1}">« {gettext("previous")}</a>'
    if number < pages:
        after = f'<a href="?{kept}page={number + 1}">{gettext("next")} »</a>'
    text = gettext("page %(number)s of %(total)s") % {
        "number": shown_text(number),
        "total": shown_text(pages),
    }
    return f'\n<nav class="pages">\n{before}\n{text}\n{after}\n</nav>\n'
