"""A player's page but its frame, written in Python from rows: what the template
``players/_detail.html`` (with its includes: the movement, the what-if form, the match
table and the pages' links) wrote, byte for byte, without model instances or template
nodes. A player's page is a federation's most visited page, and each visitor asks for
a different player: as templates over model instances it cost 16 to 28 ms of a worker
(``docs/performance.md``, "Cold pages"). Every value is escaped as ``{{ value }}``
escapes it; the texts a ``translate`` tag wrote unescaped (a literal's translation is
safe) stay so, and a ``blocktranslate`` escapes its values, not its text.

Two queries for the usual page (``player_html``): the player with their entries (with
each game's latest month) and the games of the what-if form; then, in one statement,
the player's matches once: a page of them and those the "why my number changed" entry
counted (most are both), with their count, seats and players. The rows are written as
read, without an object per match, seat or result (``docs/performance.md``, "Issue 23,
third stop"); the page's fixed words are translated once per process and language.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.core.signals import setting_changed
from django.db import connection
from django.http import Http404, HttpRequest
from django.template.defaultfilters import floatformat
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape, escape
from django.utils.translation import gettext, ngettext, trans_real
from django_countries.fields import Country

from core.prepared import prepared_cursor
from federation.models import Game, Player, public_display_name
from federation.months import first_day, month_index, month_label, parse_month, previous_month
from quotient.charts import ChartWords, MonthPoint, ranking_chart
from ratings.engine.params import Params, weight
from ratings.selectors import HistoryEntry, history_entry, player_page_entries
from ratings.templatetags.ranking_rows import movement
from scoring.models import Match, MatchSeat, Status
from scoring.selectors import MatchRow, Named, SeatRows, player_match_count
from scoring.templatetags import results
from scoring.templatetags.match_rows import _badges
from scoring.templatetags.results import PLAIN_ARGUMENT, iso_day, linker, shown_text

#: matches a page shows
PER_PAGE = 25
#: the furthest page a statement reads (its OFFSET a bigint): past it, a page number is
#: out of range whatever the player, and the last page is read
LAST_READ_PAGE = (2**63 - 1) // PER_PAGE

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
    no such player. Through the ORM on other databases (the quick start's SQLite)."""
    if connection.vendor != "postgresql":
        return _page_player_orm(handle)
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


def _page_player_orm(handle: str) -> tuple[PagePlayer, list[HistoryEntry]]:
    """``page_player`` in three queries of the ORM (any database)."""
    found = Player.objects.by_handle(handle).select_related("club").first()
    if found is None:
        raise Http404("No Player matches the given query.")
    name = public_display_name(found.handle, found.display_name, found.public_name)
    club = found.club
    games = tuple(Game.objects.order_by("key").values_list("key", "name"))
    player = PagePlayer(
        found.pk,
        found.handle,
        name,
        found.country.code or "",
        club.slug if club else None,
        club.name if club else None,
        games,
    )
    return player, player_page_entries(player_id=found.pk)


#: the player's matches, read once (``match_list().filter(seats__player=...)``'s keys),
#: then a page of them (``page``) and those the "why" entry counted (``counted``, as
#: ``ratings.selectors.COUNTED_SQL`` selects them): a row per seat of either, with the
#: match's columns, whether it is shown and counted, how many matches the player has, its
#: game and club, the seat and its player; newest first, a match's seats in rank order
#: (``scoring.templatetags.results.by_rank``'s: by rank, then seat, the unranked last)
MATCHES_SQL = """
WITH mine AS MATERIALIZED (
    SELECT m.id, m.played_on, m.verification, m.finished, m.status, m.late, m.counted_month,
           m.game_id, m.club_id, s.rank
    FROM scoring_matchseat s
    JOIN scoring_match m ON m.id = s.match_id
    WHERE s.player_id = %(player)s
),
page AS (
    SELECT id FROM mine ORDER BY played_on DESC, id DESC LIMIT %(limit)s OFFSET %(offset)s
),
counted AS (
    SELECT id FROM mine
    WHERE game_id = %(game)s AND finished AND counted_month IS NOT NULL
      AND counted_month <= %(month)s AND played_on >= %(oldest)s
      AND rank IS NOT NULL AND status <> %(withdrawn)s
)
SELECT x.id, x.played_on, x.verification, x.finished, x.status, x.late, x.counted_month,
       x.id IN (SELECT id FROM page), x.id IN (SELECT id FROM counted),
       (SELECT count(*) FROM mine), g.name, c.name,
       s.player_id, s.seat, s.rank, s.score, p.handle, p.display_name, p.public_name
FROM mine x
JOIN federation_game g ON g.id = x.game_id
JOIN federation_club c ON c.id = x.club_id
JOIN scoring_matchseat s ON s.match_id = x.id
JOIN federation_player p ON p.id = s.player_id
WHERE x.id IN (SELECT id FROM page) OR x.id IN (SELECT id FROM counted)
ORDER BY x.played_on DESC, x.id DESC, s.rank, s.seat
"""


def _matches_rows_orm(args: dict[str, Any]) -> list[tuple[Any, ...]]:
    """``MATCHES_SQL``'s rows through the ORM (any database): three queries."""
    mine = Match.objects.filter(seats__player_id=args["player"])
    newest = mine.order_by("-played_on", "-id").values_list("id", flat=True)
    page = set(newest[args["offset"] : args["offset"] + args["limit"]])
    counted: set[int] = set()
    if args["game"] is not None:
        counted = set(
            Match.objects.filter(
                seats__player_id=args["player"],
                seats__rank__isnull=False,
                game_id=args["game"],
                finished=True,
                counted_month__isnull=False,
                counted_month__lte=args["month"],
                played_on__gte=args["oldest"],
            )
            .exclude(status=args["withdrawn"])
            .values_list("id", flat=True)
        )
    if not page and not counted:
        return []
    total = mine.count()
    seats = MatchSeat.objects.filter(match_id__in=page | counted).select_related(
        "match__game", "match__club", "player"
    )
    order = sorted(
        seats,
        key=lambda s: (
            -s.match.played_on.toordinal(),
            -s.match_id,
            s.rank is None,
            s.rank or 0,
            s.seat,
        ),
    )
    return [
        _seat_row(seat, seat.match_id in page, seat.match_id in counted, total) for seat in order
    ]


def _seat_row(seat: MatchSeat, shown: bool, counted: bool, total: int) -> tuple[Any, ...]:
    """A row of ``MATCHES_SQL``'s columns for ``seat``."""
    m, p = seat.match, seat.player
    return (
        *(m.id, m.played_on, m.verification, m.finished, m.status, m.late, m.counted_month),
        *(shown, counted, total, m.game.name, m.club.name),
        *(seat.player_id, seat.seat, seat.rank, seat.score),
        *(p.handle, p.display_name, p.public_name),
    )


#: a match's seats as ``MATCHES_SQL`` reads them (its first row has the match's columns)
Seats = list[tuple[Any, ...]]
SHOWN, COUNTED, TOTAL, PLAYER, SEAT, RANK, SCORE, HANDLE = 7, 8, 9, 12, 13, 14, 15, 16


@dataclass(frozen=True, slots=True)
class PageMatches:
    """What ``MATCHES_SQL`` read: the page's matches and the why entry's counted ones
    (each a match's seats), the page's number and the number of pages."""

    shown: list[Seats]
    counted: list[Seats]
    number: int
    pages: int


def player_html(request: HttpRequest, handle: str) -> tuple[str, str]:
    """The page's title and its content, the same for every visitor."""
    player, entries = page_player(handle)
    words = page_words()
    entry, why = _why_asked(request, entries, words)
    read = _matches(player.pk, request.GET.get("page"), entry)
    cells = Cells(words)
    if entry is not None:
        game_entries = [e for e in entries if e.game_id == entry.game_id]
        why = _why_entry(player, entry, game_entries, read.counted, cells)
    parts = [
        _head(player, words),
        _sections(entries, words),
        "\n\n",
        why,
        "\n\n",
        _what_if(player, words),
        "\n\n",
        f"<h2>{words['Matches']}</h2>\n",
        f'<div class="scroll">{_match_table(read.shown, cells)}</div>\n',
        _pages(request, read.number, read.pages, words),
        "\n",
    ]
    return player.name, "".join(parts)


class Words(dict[str, str]):
    """The page's words in one language: ``words[msgid]`` is ``gettext(msgid)``,
    looked up once per process (a page asks for some sixty; each ``gettext`` looks up
    the thread's language and the catalogues' chain), and the countries' names."""

    def __init__(self) -> None:
        super().__init__()
        self.countries: dict[str, str] = {}
        self.numbers: dict[tuple[type, Any], str] = {}

    def __missing__(self, msgid: str) -> str:
        text = self[msgid] = gettext(msgid)
        return text

    def country(self, code: str) -> str:
        """The country's name (escaped), as ``Country(code=code).name``."""
        name = self.countries.get(code)
        if name is None:
            name = self.countries[code] = escape(Country(code=code).name)
        return name

    def number(self, value: Any) -> str:
        """``shown_text(value)``: a number as ``{{ value }}`` writes it in this language (a
        why table's weights are few, and localising a float is slow)."""
        key = (type(value), value)  # 1 and 1.0 are written apart
        text = self.numbers.get(key)
        if text is None:
            text = self.numbers[key] = shown_text(value)
        return text


#: the words by the catalogue they were translated with (the active language's)
_WORDS: dict[object, Words] = {}
#: a process's ``Words`` forgotten past these many words (a game's name is one)
KEPT_WORDS = 1000


def page_words() -> Words:
    """The page's words in the active language (its catalogue, ``None`` without i18n)."""
    key = trans_real.catalog() if settings.USE_I18N else None
    words = _WORDS.get(key)
    if words is None or len(words) + len(words.countries) + len(words.numbers) > KEPT_WORDS:
        if len(_WORDS) > 16:
            _WORDS.clear()
        words = _WORDS[key] = Words()
    return words


def _forget_words(**kwargs: Any) -> None:
    """A setting changed (in tests): the words are translated again."""
    _WORDS.clear()


setting_changed.connect(_forget_words, dispatch_uid="quotient-player-page-words")


class Cells:
    """What the page's rows write, looked up once a page: the links' texts, numbers as
    ``{{ value }}`` writes them, each player's linked name (a player is in both tables,
    and in every row of their own)."""

    def __init__(self, words: Words) -> None:
        self.words = words
        # a match's URL: its id between the texts ``url_of`` reverses around digits
        prefix, urlconf = get_script_prefix(), get_urlconf()
        head, tail = results.reversed_around("match-detail", "7350973", prefix, urlconf)
        self.match_url = html.escape(head), html.escape(tail)
        self.player_url = linker("player-detail")
        self.number: Callable[[Any], str] = shown_text
        if not settings.USE_THOUSAND_SEPARATOR:
            self.number = _plain_number
        self.names: dict[str, str] = {}

    def player(self, seat: tuple[Any, ...]) -> str:
        """``<a href="the player's page">their public name</a>`` of a seat's row."""
        handle = seat[HANDLE]
        link = self.names.get(handle)
        if link is None:
            name = public_display_name(handle, seat[HANDLE + 1], seat[HANDLE + 2])
            link = f'<a href="{self.player_url(handle)}">{html.escape(name)}</a>'
            self.names[handle] = link
        return link


def _plain_number(value: Any) -> str:
    """``shown_text(value)`` without thousands' separators: an int is its digits."""
    return str(value) if type(value) is int else shown_text(value)


def _matches(player_id: int, asked: Any, entry: HistoryEntry | None) -> PageMatches:
    """The page's matches and the entry's counted ones, the page's number and the
    number of pages, as ``Paginator(..., 25).get_page(asked)`` pages them: not a
    number is the first page, a number out of range the last. The count comes with
    the rows; it is read alone only for a page out of range that read no row (or
    too far to read: ``LAST_READ_PAGE``)."""
    try:
        number = int(asked)
    except (TypeError, ValueError):
        number = 1
    total = None
    if 1 <= number <= LAST_READ_PAGE:
        read = _read(player_id, number, entry)
        if read.shown:
            return PageMatches(read.shown, read.counted, number, _page_count(read.total or 0))
        if number == 1:
            return PageMatches(read.shown, read.counted, 1, 1)
        total = read.total
    if total is None:
        total = player_match_count(player_id)
    pages = _page_count(total)
    if 1 <= number <= pages:  # empty, then filled meanwhile: read it again
        pages = number
    read = _read(player_id, pages, entry)
    return PageMatches(read.shown, read.counted, pages, pages)


@dataclass(frozen=True, slots=True)
class _Read:
    shown: list[Seats]
    counted: list[Seats]
    total: int | None  # how many matches the player has; None: no row read


def _read(player_id: int, number: int, entry: HistoryEntry | None) -> _Read:
    """``MATCHES_SQL``'s page ``number`` and ``entry``'s counted matches (none without
    an entry)."""
    args: dict[str, Any] = {
        "player": player_id,
        "limit": PER_PAGE,
        "offset": (number - 1) * PER_PAGE,
        "game": None,
        "month": None,
        "oldest": None,
        "withdrawn": Status.WITHDRAWN.value,
    }
    if entry is not None:
        window = Params.from_dict(entry.parameters).window
        args |= {
            "game": entry.game_id,
            "month": entry.month,
            "oldest": first_day(month_index(entry.month) - window + 1),
        }
    if connection.vendor == "postgresql":
        with prepared_cursor() as cursor:
            cursor.execute(MATCHES_SQL, args)
            rows = cursor.fetchall()
    else:  # the quick start's SQLite
        rows = _matches_rows_orm(args)
    matches: list[Seats] = []
    for row in rows:
        if matches and matches[-1][0][0] == row[0]:
            matches[-1].append(row)
        else:
            matches.append([row])
    shown = [seats for seats in matches if seats[0][SHOWN]]
    counted = [seats for seats in matches if seats[0][COUNTED]]
    return _Read(shown, counted, rows[0][TOTAL] if rows else None)


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


def url_text(name: str, *args: str) -> str:
    """``{% url name args %}`` (escaped), the URL's texts reversed once per name: each
    argument a word (``scoring.templatetags.results.url_of``), else reversed as usual."""
    if not all(PLAIN_ARGUMENT.fullmatch(arg) for arg in args):
        return conditional_escape(reverse(name, args=list(args)))
    around = _around(name, len(args), get_script_prefix(), get_urlconf())
    text = around[0]
    for arg, tail in zip(args, around[1:], strict=True):
        text += arg + tail
    return text


def _head(player: PagePlayer, words: Words) -> str:
    club = ""
    if player.club_slug is not None:
        club = f'<a href="{url_text("club-page", player.club_slug)}">{escape(player.club_name)}</a>'
    country = words.country(player.country) if player.country else ""
    between = " · " if club and country else ""
    return (
        f"\n<h1>{escape(player.name)} <small>({escape(player.handle)})</small></h1>"
        f"\n<p>{club}{between}{country}</p>"
        f'\n<p class="no-print player-tools"><a href="{url_text("player-versus-choose", player.handle)}">'
        f'{words["Compare with…"]}</a> · <a href="#what-if">{words["What if…?"]}</a></p>'
        "\n<!--me-->\n"
        f"\n<h2>{words['World ranking']}</h2>\n"
    )


def _by_game(entries: Sequence[HistoryEntry]) -> dict[int, list[HistoryEntry]]:
    by_game: dict[int, list[HistoryEntry]] = {}
    for entry in entries:
        by_game.setdefault(entry.game_id, []).append(entry)
    return by_game


def _month_before(entries: Sequence[HistoryEntry], entry: HistoryEntry) -> HistoryEntry | None:
    wanted = previous_month(entry.month)
    return next((e for e in entries if e.month == wanted), None)


def _sections(entries: Sequence[HistoryEntry], words: Words) -> str:
    """Per game: the headline, the chart and the months' table (``{% for section in
    games %}``)."""
    by_game = _by_game(entries)
    if not by_game:
        return f"\n<p>{words['Not in any published list yet.']}</p>\n"
    return "".join(_section(rows, words) for rows in by_game.values())


def _section(entries: list[HistoryEntry], words: Words) -> str:
    entry = entries[0]
    key, label = escape(entry.game_key), escape(words[entry.game_name])
    month = month_label(entry.month)
    note = ""
    if entry.month != entry.latest:
        text = words[
            "Not in the latest list (%(latest)s): no result still counting. "
            "Last listed in %(month)s:"
        ]
        note = f'<p class="note">{text % {"latest": month_label(entry.latest), "month": month}}</p>'
    if entry.rank:
        rank = shown_text(entry.rank)
    else:
        rank = f'<span class="provisional">{words["provisional"]}</span>'
    before = _month_before(entries, entry)
    if before is None:
        change = "–"
    else:
        moved = entry.fladub - before.fladub
        change = f"+{shown_text(moved)}" if moved > 0 else shown_text(moved)
    month_url = url_text("ranking-month", entry.game_key, month)
    listed = words["List of %(month)s"] % {"month": month}
    return (
        f'\n<section class="game-ranking" id="game-{key}">'
        f"\n<h3>{label}</h3>"
        f"\n{note}"
        '\n<dl class="headline">'
        f"\n  <div><dt>{words['Rank']}</dt><dd>{rank}</dd></div>"
        f"\n  <div><dt>{words['Ranking number']}</dt><dd>{shown_text(entry.fladub)}</dd></div>"
        f"\n  <div><dt>{words['Movement']}</dt><dd>{movement(entry)}\n</dd></div>"
        f"\n  <div><dt>{words['Since the month before']}</dt><dd>{change}</dd></div>"
        "\n</dl>"
        f'\n<p class="headline-month"><a href="{month_url}">{listed}</a>'
        f' · <a href="?game={key}&amp;month={month}#why">{words["Why this number?"]}</a></p>'
        f'\n<figure class="chart">{_chart(entries, words)}</figure>'
        '\n<details class="months">'
        f"\n  <summary>{words['Month by month']}</summary>"
        '\n  <div class="scroll">'
        "\n  <table>"
        f'\n    <thead><tr><th>{words["Month"]}</th><th class="num">{words["Rank"]}</th>'
        f'<th class="num">{words["Ranking number"]}</th>'
        f'<th class="num">{words["Results"]}</th><th>{words["Details"]}</th></tr></thead>'
        "\n    <tbody>"
        f"\n    {_month_rows(entries, key, words)}"
        "\n    </tbody>"
        "\n  </table>"
        "\n  </div>"
        "\n</details>"
        "\n</section>\n"
    )


def _month_rows(entries: list[HistoryEntry], key: str, words: Words) -> str:
    """The months' table rows (the loop's text, with its indentation)."""
    provisional, why = words["provisional"], words["why?"]
    rows = []
    for row in entries:
        month = month_label(row.month)
        rank = provisional if row.provisional else shown_text(row.rank)
        rows.append(
            f'\n    <tr><td><a href="{url_text("ranking-month", row.game_key, month)}">{month}</a></td>'
            f'\n        <td class="num">{rank}</td><td class="num">{shown_text(row.fladub)}</td>'
            f'<td class="num">{shown_text(row.results_counted)}</td>'
            f'\n        <td><a href="?game={key}&amp;month={month}#why">{why}</a></td></tr>\n    '
        )
    return "".join(rows)


def _chart(entries: list[HistoryEntry], words: Words) -> str:
    """The game's SVG chart (``quotient.charts``), its words translated."""
    points = [MonthPoint(month_index(e.month), e.fladub, e.rank) for e in entries[::-1]]
    ranks = [p.rank for p in points if p.rank is not None]
    facts = {
        "first": points[0].number,
        "first_month": month_label(entries[-1].month),
        "last": points[-1].number,
        "last_month": month_label(entries[0].month),
    }
    description = words["From %(first)s in %(first_month)s to %(last)s in %(last_month)s."]
    description %= facts
    if ranks:
        description += " " + words["Best rank: %(best)s."] % {"best": min(ranks)}
    game = entries[0]
    chart = ChartWords(
        title=words["%(game)s: ranking number and rank by month"] % {"game": words[game.game_name]},
        description=description,
        number=words["Ranking number"],
        rank=words["Rank"],
    )
    return ranking_chart(points, chart, ident=f"chart-{game.game_key}")


def _why_asked(
    request: HttpRequest, entries: Sequence[HistoryEntry], words: Words
) -> tuple[HistoryEntry | None, str]:
    """The entry "why my number changed" explains (``?game=&month=``'s, else the
    newest), and the section when it has none to explain: nothing without entries, a
    note when the entry asked is not there."""
    if not entries:
        return None, ""
    game, month = request.GET.get("game"), request.GET.get("month")
    if not (game or month):
        return max(entries, key=lambda e: (e.month, -e.game_id)), ""
    wanted = (game, parse_month(month))
    entry = next((e for e in entries if (e.game_key, e.month) == wanted), None)
    if entry is not None:
        return entry, ""
    text = words["%(game)s %(month)s: this player is not in that list."]
    text %= {"game": escape(str(game)), "month": escape(str(month))}  # None: "None"
    return None, (
        '\n<section id="why" class="why">'
        f"\n\n<h2>{words['Why my number changed']}</h2>"
        f"\n<p>{text}</p>"
        "\n\n</section>\n"
    )


def _why_entry(
    player: PagePlayer,
    entry: HistoryEntry,
    game_entries: list[HistoryEntry],
    counted: list[Seats],
    cells: Cells,
) -> str:
    """Why my number changed: the entry's number, the month before's, the results it
    counted (``counted``: the matches ``MATCHES_SQL`` read as counted)."""
    words = cells.words
    rows, weights = _why_rows(entry, player.pk, counted, cells)
    before = _month_before(game_entries, entry)
    month = month_label(entry.month)
    title = words["Why my number changed: %(game)s, %(month)s"]
    title %= {"game": escape(words[entry.game_name]), "month": month}
    if before is not None:
        then = words["%(before)s in %(month)s, %(now)s now."]
        then %= {
            "before": shown_text(before.fladub),
            "month": month_label(before.month),
            "now": shown_text(entry.fladub),
        }
    else:
        then = words["%(now)s: not listed the month before."] % {"now": shown_text(entry.fladub)}
    total = floatformat(sum(weights), "-1")
    counts = ngettext(
        "The number counts %(n)s result, of total weight %(total)s:",
        "The number counts %(n)s results, of total weight %(total)s:",
        len(weights),
    ) % {"n": shown_text(len(weights)), "total": total}
    note = ""
    if len(weights) != entry.results_counted:
        text = words[
            "When this list was published it counted %(n)s results; matches corrected or "
            "withdrawn since then show as they are now."
        ]
        note = f'<p class="note">{text % {"n": shown_text(entry.results_counted)}}</p>'
    api = url_text("api-player-ranking", player.handle, entry.game_key, month)
    return (
        '\n<section id="why" class="why">'
        f"\n\n<h2>{title}</h2>"
        f"\n<p>{then}"
        f"\n{counts}"
        "\n"
        + words[
            "new results move it, older ones weigh less each month (the weight), and "
            "results older than the window no longer count."
        ]
        + f'\n<a href="{url_text("ranking-about")}#aging">'
        f"{words['How is the ranking number computed?']}</a></p>"
        f"\n{note}"
        '\n<div class="scroll">'
        '\n<table class="why-results">'
        f"\n  <thead><tr><th>{words['Played on']}</th>"
        f'<th class="num">{words["Age (months)"]}</th>'
        f'<th class="num">{words["Weight"]}</th><th class="num">{words["Place"]}</th>'
        f"<th>{words['Opponents']}</th></tr></thead>"
        "\n  <tbody>"
        f"\n  {rows}"
        "\n  </tbody>"
        "\n</table>"
        "\n</div>"
        f'\n<p class="no-print"><a href="{api}">{words["The same in the API (JSON)"]}</a></p>'
        "\n\n</section>\n"
    )


def _why_rows(
    entry: HistoryEntry, player_id: int, counted: list[Seats], cells: Cells
) -> tuple[str, list[float]]:
    """The why table's rows (``ratings.templatetags.ranking_rows.why_rows`` of
    ``ratings.selectors.history_entry_results``) and the results' weights: a counted
    match of two ranked players or more, its date (linked) and badges, age, weight,
    place and the others in rank order."""
    words, number, player, out, weights = cells.words, cells.number, cells.player, [], []
    # a counted result names three players or so: their cells written inline, each
    # name's link from the page's (``Cells.player``), a plain rank its digits
    names, plain = cells.names, number is _plain_number
    (head, tail), new = cells.match_url, f' <span class="badge">{words["new"]}</span>'
    late = f' <span class="badge summary">{words["late"]}</span>'
    params, month = Params.from_dict(entry.parameters), month_index(entry.month)
    by_age: dict[int, tuple[float, str]] = {}  # a table's results share few ages
    for seats in counted:
        ranked = [seat for seat in seats if seat[RANK] is not None]  # in rank order
        if len(ranked) < 2:
            continue
        own = next(seat for seat in ranked if seat[PLAYER] == player_id)
        months = month - month_index(own[1])
        weighed = by_age.get(months)
        if weighed is None:
            value = weight(months, params)
            weighed = by_age[months] = value, words.number(value)
        weights.append(weighed[0])
        badges = new if own[6] == entry.month else ""
        if own[5]:
            badges += late
        others = []
        for seat in ranked:
            if seat is own:
                continue
            rank, score = seat[RANK], seat[SCORE]
            shown = str(rank) if plain and type(rank) is int else number(int(rank or 0))
            link = names.get(seat[HANDLE]) or player(seat)
            if score is None:
                others.append(f"{shown}. {link}")
            else:
                scored = str(score) if plain and type(score) is int else number(score)
                others.append(f"{shown}. {link} ({scored})")
        rank = own[RANK]
        shown = str(rank) if plain and type(rank) is int else number(int(rank or 0))
        out.append(
            f'\n    <tr><td><a href="{head}{own[0]}{tail}">{iso_day(own[1])}</a>{badges}</td>'
            f'\n        <td class="num">{number(months)}</td><td class="num">{weighed[1]}</td>'
            f'<td class="num">{shown}</td>'
            f"\n        <td>{', '.join(others)}</td></tr>\n  "
        )
    return "".join(out), weights


def _what_if(player: PagePlayer, words: Words) -> str:
    """The what-if section and its form (``ratings/_what_if_form.html``, nothing
    asked yet), every game offered."""
    options = "".join(
        f'<option value="{escape(key)}">{escape(words[name])}</option>'
        for key, name in player.games
    )
    return (
        '<section id="what-if" class="what-if no-print">'
        f"\n<h2>{words['What if…?']}</h2>"
        "\n<p>"
        + words[
            "Your chance to win a table, and your number after this month's close if you "
            "played it and finished in that place (an estimate)."
        ]
        + "</p>"
        f'\n<form method="get" action="{url_text("player-what-if", player.handle)}"'
        ' class="what-if-form">'
        f'\n  <label for="wi-game">{words["Game"]}</label>'
        '\n  <select id="wi-game" name="game" required>'
        f"\n    {options}"
        "\n  </select>"
        f'\n  <label for="wi-opponents">{words["Opponents (handles, separated by commas)"]}'
        "</label>"
        '\n  <input type="text" id="wi-opponents" name="opponents" value="" maxlength="400"'
        ' required autocomplete="off" autocapitalize="none" spellcheck="false"'
        ' placeholder="ana, bruno, chloe">'
        f'\n  <label for="wi-place">{words["My place at the table"]}</label>'
        '\n  <input type="number" id="wi-place" name="place" value="1" min="1" max="9"'
        ' inputmode="numeric">'
        '\n  <span class="helptext">'
        + words["The opponents take the other places in the order you name them."]
        + "</span>"
        f'\n  <button type="submit">{words["Estimate"]}</button>'
        "\n</form>"
        "\n\n</section>"
    )


def _match_table(matches: list[Seats], cells: Cells) -> str:
    """``scoring/_match_table.html``."""
    words = cells.words
    rows = _match_rows(matches, cells)
    if not rows:
        rows = f'\n    <tr><td colspan="5">{words["No matches yet."]}</td></tr>\n  '
    return (
        '\n<table class="cards match-table">'
        f"\n  <thead><tr><th>{words['Date']}</th><th>{words['Game']}</th>"
        f"<th>{words['Club']}</th><th>{words['Standings']}</th>"
        f"<th>{words['Verification']}</th></tr></thead>"
        "\n  <tbody>"
        f"\n  {rows}"
        "\n  </tbody>"
        "\n</table>\n"
    )


def _match_rows(matches: list[Seats], cells: Cells) -> str:
    """``scoring.templatetags.match_rows.match_rows`` of the matches' rows: date
    (linked), game, club, the players in rank order (the unranked last, by seat: the
    rows' order), verification."""
    words, number, player, out = cells.words, cells.number, cells.player, []
    head, tail = cells.match_url
    # a table's rows share few badges, games and clubs
    badges: dict[tuple[Any, ...], str] = {}
    games: dict[str, str] = {}
    clubs: dict[str, str] = {}
    for seats in matches:
        first = seats[0]
        match_id, played_on, verification, finished, status = first[:5]
        key = (verification, finished, status)
        badge = badges.get(key)
        if badge is None:
            badge = badges[key] = _badges(_verified(*key))
        game = games.get(first[10])
        if game is None:
            game = games[first[10]] = html.escape(words[first[10]])
        club = clubs.get(first[11])
        if club is None:
            club = clubs[first[11]] = html.escape(first[11])
        standings = ", ".join(
            (f"{number(seat[RANK])}. {player(seat)}" if seat[RANK] else player(seat))
            + ("" if seat[SCORE] is None else f" ({number(seat[SCORE])})")
            for seat in seats
        )
        out.append(
            "\n    <tr>"
            f'\n      <td><a href="{head}{match_id}{tail}">{iso_day(played_on)}</a></td>'
            f"\n      <td>{game}</td>"
            f"\n      <td>{club}</td>"
            f'\n      <td class="wide">{standings}</td>'
            f"\n      <td>{badge}</td>"
            "\n    </tr>\n  "
        )
    return "".join(out)


def _verified(verification: str, finished: bool, status: str) -> MatchRow:
    """A match as ``_badges`` reads it (its verification, finished and status)."""
    nothing = Named("", "")
    return MatchRow(0, date.min, verification, finished, status, nothing, nothing, SeatRows())


def _pages(request: HttpRequest, number: int, pages: int, words: Words) -> str:
    """``_pages.html``: the links to the previous and next pages."""
    kept = "".join(
        f"{conditional_escape(k)}={conditional_escape(quote(str(v), safe='/'))}&amp;"
        for k, v in request.GET.items()
        if k != "page"
    )
    before = after = ""
    if number > 1:
        before = f'<a href="?{kept}page={number - 1}">« {words["previous"]}</a>'
    if number < pages:
        after = f'<a href="?{kept}page={number + 1}">{words["next"]} »</a>'
    text = words["page %(number)s of %(total)s"] % {
        "number": shown_text(number),
        "total": shown_text(pages),
    }
    return f'\n<nav class="pages">\n{before}\n{text}\n{after}\n</nav>\n'
