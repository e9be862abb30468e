"""Reads for matches: filtered lists and the score sheet of one match (the match page's
own presentation is ``scoring.web.display``)."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from json.encoder import encode_basestring
from typing import Any

from django.db import connection
from django.db.models import Exists, F, Model, OuterRef, Prefetch, QuerySet, Subquery
from django.utils.translation import gettext

from core.prepared import prepared_cursor
from federation.models import Club, Game, Player, public_display_name, public_name_json_sql
from federation.months import next_month
from scoring.models import Match, MatchEvent, MatchSeat, Status

#: the columns a list of matches never shows: records and replays run to kilobytes
#: each, and reading them for fifty rows of a page would outweigh the page
HEAVY_COLUMNS = ("record", "result", "analysis")


def match_rows(*, summary: bool = True) -> QuerySet[Match]:
    """Matches with their game, club, seats and seated players, newest first, in a
    fixed number of queries (one, plus one for all the seats and one for all their
    players); ``summary`` leaves out the heavy JSON columns (a list's rows),
    ``summary=False`` keeps them (one match's page)."""
    queryset = Match.objects.select_related("game", "club")
    if summary:
        queryset = queryset.defer(*HEAVY_COLUMNS)
    seats = seats_prefetch(summary=summary)
    return queryset.prefetch_related(*seats).order_by("-played_on", "-id")


def match_for_page() -> QuerySet[Match]:
    """Matches as a match's page shows one: with its game and club, its seats in order
    with their players (joined: a match has a few seats), its events oldest first with
    their author (``match.events.all()``, the replaced records left out): three
    queries, where ``match_rows`` and reading the events twice took five."""
    seats = MatchSeat.objects.select_related("player").order_by("seat")
    events = MatchEvent.objects.select_related("by").defer("replaced_record").order_by("at", "id")
    return Match.objects.select_related("game", "club").prefetch_related(
        Prefetch("seats", queryset=seats), Prefetch("events", queryset=events)
    )


def seats_prefetch(*, summary: bool = True) -> tuple[Prefetch, str]:
    """A match's seats in order, then their players, for ``prefetch_related`` (or
    ``prefetch_related_objects`` on matches already in memory): one query for all the
    seats, one for all their players. The players are read by id rather than joined:
    PostgreSQL would hash the whole players table to join a page's 150 seats."""
    seats = MatchSeat.objects.order_by("seat")
    if summary:
        seats = seats.defer("details")
    return Prefetch("seats", queryset=seats), "seats__player"


def match_list(
    *,
    game: str | None = None,
    club: str | None = None,
    player: str | None = None,
    month: date | None = None,
    status: Sequence[str] | None = None,
    summary: bool = True,
) -> QuerySet[Match]:
    """Matches, newest first (``-played_on, -id``: the keys of the list's pages), with
    their seats and players prefetched, the heavy columns left out unless
    ``summary=False``; ``status`` keeps the matches of those statuses (all of them when
    None: a withdrawn match is listed, marked as such).

    No filter joins the seats: ``player`` is an ``EXISTS`` on the player's seats, so no
    match comes twice and no ``DISTINCT`` has to sort every row of the table; ``month``
    is the month played."""
    queryset = match_rows(summary=summary)
    # by id from a subquery rather than through the join: the planner then reads the
    # game's (or club's) own range of the index instead of sorting the month's matches
    if game:
        queryset = queryset.filter(
            game=Subquery(Game.objects.filter(key=game).order_by().values("pk"))
        )
    if club:
        queryset = queryset.filter(
            club=Subquery(Club.objects.filter(slug=club).order_by().values("pk"))
        )
    if player:
        seated = MatchSeat.objects.filter(
            match=OuterRef("pk"), player__in=Player.objects.by_handle(player).values("pk")
        )
        queryset = queryset.filter(Exists(seated))
    if status:
        queryset = queryset.filter(status__in=list(status))
    if month:
        queryset = queryset.filter(played_on__gte=month, played_on__lt=next_month(month))
    return queryset


#: a list row's own columns, read as values (``match_values``)
ROW_COLUMNS = (
    "id",
    "played_on",
    "game_number",
    "submitted_at",
    "status",
    "version",
    "verification",
    "finished",
    "late",
    "counted_month",
)


def match_values(matches: QuerySet[Match]) -> QuerySet[Match, dict[str, Any]]:
    """``matches`` (a ``match_list``) as plain rows, with the game's key and the club's
    slug: the API's pages are built from rows, model instances costing more than the
    page's queries."""
    return matches.prefetch_related(None).values(
        *ROW_COLUMNS, game_key=F("game__key"), club_slug=F("club__slug")
    )


def seat_values(match_ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
    """The seats of ``match_ids`` in order, by match, each with its player's handle
    and public name: two queries (the players by id, not joined: see
    ``seats_prefetch``)."""
    seats = MatchSeat.objects.filter(match_id__in=match_ids).order_by("match_id", "seat")
    rows = list(seats.values("match_id", "player_id", *SEAT_COLUMNS))
    players = Player.objects.filter(pk__in={row["player_id"] for row in rows})
    names = {
        pk: (handle, public_display_name(handle, name, public))
        for pk, handle, name, public in players.values_list(
            "pk", "handle", "display_name", "public_name"
        )
    }
    by_match: dict[int, list[dict[str, Any]]] = {pk: [] for pk in match_ids}
    for row in rows:
        handle, name = names[row["player_id"]]
        seat = {"seat": row["seat"], "player": handle, "name": name}
        by_match[row["match_id"]].append(seat | {key: row[key] for key in SEAT_COLUMNS[1:]})
    return by_match


def _table(model: type[Model]) -> str:
    """``model``'s table, quoted for raw SQL."""
    return connection.ops.quote_name(model._meta.db_table)


@functools.cache
def _detail_sql() -> str:
    tables = {
        "match": _table(Match),
        "game": _table(Game),
        "club": _table(Club),
        "seat": _table(MatchSeat),
        "player": _table(Player),
    }
    return (
        "SELECT m.id, g.key, c.slug, m.played_on, m.game_number, m.submitted_at, m.status,"
        " m.version, m.verification, m.finished, m.late, m.counted_month, m.result,"
        " m.analysis, m.analysis_state, s.seat, p.handle, p.display_name, p.public_name,"
        " s.score, s.rank, s.points, s.deduction{columns}"
        f" FROM {tables['match']} m"
        f" JOIN {tables['game']} g ON g.id = m.game_id"
        f" JOIN {tables['club']} c ON c.id = m.club_id"
        f" LEFT JOIN {tables['seat']} s ON s.match_id = m.id"
        f" LEFT JOIN {tables['player']} p ON p.id = s.player_id{{joins}}"
        " WHERE m.id = %s ORDER BY s.seat"
    )


#: the columns of a row of ``match_detail_rows`` before the ``columns`` it is given
DETAIL_WIDTH = 23


def match_detail_rows(pk: int, *, columns: str = "", joins: str = "") -> list[tuple[Any, ...]]:
    """One match (the heavy columns included), its game's key and club's slug, one row
    per seat in seat order with the seat's player (handle, display name, consent):
    :data:`DETAIL_WIDTH` values, then ``columns`` (SQL, each after a comma) read
    through ``joins`` (SQL, on the match ``m``). One query where ``match_rows`` makes
    three and model instances; no row: no such match. The JSON columns are as the
    database sends them (text on PostgreSQL: ``Match.result``'s field decodes them)."""
    sql = _detail_sql().replace("{columns}", columns).replace("{joins}", joins)
    with prepared_cursor() as cursor:
        cursor.execute(sql, [pk])
        return cursor.fetchall()


def _list_where(
    *,
    game: str | None = None,
    club: str | None = None,
    player: str | None = None,
    month: date | None = None,
    status: Sequence[str] | None = None,
) -> tuple[str, list[Any]]:
    """``match_list``'s filters as SQL on the match ``m`` and its parameters."""
    where: list[str] = ["TRUE"]
    params: list[Any] = []
    if game:
        where.append(f"m.game_id = (SELECT id FROM {_table(Game)} WHERE key = %s)")
        params.append(game)
    if club:
        where.append(f"m.club_id = (SELECT id FROM {_table(Club)} WHERE slug = %s)")
        params.append(club)
    if player:
        where.append(
            f"EXISTS (SELECT 1 FROM {_table(MatchSeat)} s WHERE s.match_id = m.id"
            f" AND s.player_id IN (SELECT id FROM {_table(Player)}"
            " WHERE lower(handle) = lower(%s)))"
        )
        params.append(player)
    if status:
        where.append(f"m.status IN ({', '.join(['%s'] * len(status))})")
        params.extend(status)
    if month:
        where.append("m.played_on >= %s AND m.played_on < %s")
        params.extend([month, next_month(month)])
    return " AND ".join(where), params


@functools.cache
def _page_sql(counted: bool = False) -> str:
    seats, players = _table(MatchSeat), _table(Player)
    return (
        "SELECT m.id, m.played_on, m.game_number, m.submitted_at, m.status, m.version,"
        " m.verification, m.finished, m.late, m.counted_month, g.key, c.slug,"
        " (SELECT json_agg(json_build_array(s.seat, p.handle, p.display_name,"
        " p.public_name, s.score, s.rank, s.points, s.deduction) ORDER BY s.seat)::text"
        f" FROM {seats} s JOIN {players} p ON p.id = s.player_id WHERE s.match_id = m.id)"
        + (", count(*) OVER ()" if counted else "")
        + f" FROM {_table(Match)} m JOIN {_table(Game)} g ON g.id = m.game_id"
        f" JOIN {_table(Club)} c ON c.id = m.club_id WHERE {{where}}"
        " ORDER BY m.played_on DESC, m.id DESC LIMIT %s"
    )


def match_first_rows(limit: int, **filters: Any) -> list[dict[str, Any]]:
    """The first ``limit`` matches of ``match_list(**filters)`` as ``match_values``
    writes them (``ROW_COLUMNS``, ``game_key``, ``club_slug``), each with its
    ``seats`` as ``seat_values`` writes them: one query (PostgreSQL's SQL: the seats
    and their players as one JSON array a match) where the rows and their seats took
    three."""
    return _first_rows(limit, filters, counted=False)[0]


def match_first_page(
    size: int, cap: int, **filters: Any
) -> tuple[list[dict[str, Any]], bool, int | None]:
    """The first page of ``match_list(**filters)``: its ``size`` first rows (as
    ``match_first_rows``), whether more follow, and how many matches the list has when
    at most ``cap`` (else None). A player's list is short (tens of matches, which its
    order reads all of anyway): its count comes with its rows, a window count in the
    same query, as the player page's; another list is counted by a second query
    (``match_count``), only when more follow."""
    if filters.get("player"):
        rows, total = _first_rows(size, filters, counted=True)
        more = total > size
        return rows, more, total if total <= cap or not more else None
    rows = match_first_rows(size + 1, **filters)
    more, rows = len(rows) > size, rows[:size]
    return rows, more, match_count(cap, **filters) if more else len(rows)


def _first_rows(
    limit: int, filters: dict[str, Any], *, counted: bool
) -> tuple[list[dict[str, Any]], int]:
    """``match_first_rows`` and, ``counted``, the list's size (else 0). The rows'
    seats are decoded as one JSON array, and a seated player's public name is written
    once a page (a player's own list seats the player on every row)."""
    where, params = _list_where(**filters)
    with prepared_cursor() as cursor:
        cursor.execute(_page_sql(counted).replace("{where}", where), [*params, limit])
        found = cursor.fetchall()
    total = found[0][-1] if counted and found else 0
    width = len(_FIRST_KEYS)
    every = json.loads("[" + ",".join(row[width] or "[]" for row in found) + "]")
    names: dict[tuple[str, str, bool], str] = {}
    rows = []
    for row, seats in zip(found, every, strict=True):
        shown = dict(zip(_FIRST_KEYS, row[:width], strict=True))
        shown["seats"] = [
            {
                "seat": seat,
                "player": handle,
                "name": _name(names, handle, name, public),
                "score": score,
                "rank": rank,
                "points": points,
                "deduction": deduction,
            }
            for seat, handle, name, public, score, rank, points, deduction in seats
        ]
        rows.append(shown)
    return rows, total


#: a first page's row before its seats: ``ROW_COLUMNS``, the game's key, the club's slug
_FIRST_KEYS = (*ROW_COLUMNS, "game_key", "club_slug")


def _name(names: dict[tuple[str, str, bool], str], handle: str, name: str, public: bool) -> str:
    """``public_display_name``, kept in ``names`` for the rest of the page."""
    key = (handle, name, public)
    shown = names.get(key)
    if shown is None:
        shown = names[key] = public_display_name(handle, name, public)
    return shown


@dataclass(frozen=True)
class FirstPageJson:
    """A list's first page as ``match_first_page`` reads it, its rows written as the
    JSON array ``list_rows`` and DRF's ``JSONRenderer`` write (``results``), with the
    keys of its rows (``played_on``, ``id``: the paginator's cursors)."""

    results: str
    keys: list[dict[str, Any]]
    more: bool
    count: int


#: what ``match_first_page_json`` answers for a list counted over its cap (the
#: paginator's way answers it: ``match_first_page`` need not read it again)
OVER_CAP = FirstPageJson("", [], True, -1)

#: the epoch of ``_page_json_sql``'s times
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@functools.cache
def _page_json_sql(counted: bool) -> str:
    """``_page_sql`` with each row written as JSON by PostgreSQL, but for its
    ``submitted_at`` (written by Python: the zone's rules are Python's; read as
    microseconds since the epoch, which psycopg loads in C, where Django's loader of a
    time costs Python a row) and the names of players who did not consent to theirs
    (chr(1), their players' handles and names given beside: Python writes their
    initials, once a page for a player seated on every row); a
    month before the year 1000 (``strftime`` pads no year there) makes the row NULL."""
    seats, players = _table(MatchSeat), _table(Player)
    seat = (
        "'{\"seat\":' || t.seat || ',\"player\":' || to_json(t.handle)::text"
        " || ',\"name\":' || COALESCE(t.named, chr(1))"
        " || ',\"score\":' || COALESCE(t.score::text, 'null')"
        " || ',\"rank\":' || COALESCE(t.rank::text, 'null')"
        " || ',\"points\":' || COALESCE(t.points::text, 'null')"
        " || ',\"deduction\":' || COALESCE(t.deduction::text, 'null') || '}'"
    )
    month = (
        "CASE WHEN m.counted_month IS NULL THEN 'null'"
        " WHEN m.counted_month >= DATE '1000-01-01'"
        " THEN '\"' || to_char(m.counted_month, 'YYYY-MM') || '\"' END"
    )
    return (
        "SELECT '{\"id\":' || m.id || ',\"game\":' || to_json(g.key)::text"
        " || ',\"club\":' || to_json(c.slug)::text"
        " || ',\"played_on\":\"' || to_char(m.played_on, 'YYYY-MM-DD')"
        ' || \'","game_number":\' || m.game_number || \',"submitted_at":\','
        " CASE WHEN isfinite(m.submitted_at)"
        " THEN (extract(epoch FROM m.submitted_at) * 1000000)::bigint END,"
        " ',\"status\":' || to_json(m.status)::text || ',\"version\":' || m.version"
        " || ',\"verification\":' || to_json(m.verification)::text"
        " || ',\"finished\":' || m.finished || ',\"late\":' || m.late"
        f" || ',\"counted_month\":' || ({month}) || ',\"seats\":' || COALESCE(ss.seats, '[]')"
        " || '}', ss.handles, ss.names, m.played_on, m.id"
        + (", count(*) OVER ()" if counted else "")
        + f" FROM {_table(Match)} m JOIN {_table(Game)} g ON g.id = m.game_id"
        f" JOIN {_table(Club)} c ON c.id = m.club_id"
        f" LEFT JOIN LATERAL (SELECT '[' || string_agg({seat}, ',' ORDER BY t.seat) || ']' AS seats,"
        " array_agg(t.handle ORDER BY t.seat) FILTER (WHERE t.named IS NULL) AS handles,"
        " array_agg(t.display_name ORDER BY t.seat) FILTER (WHERE t.named IS NULL) AS names"
        " FROM (SELECT s.seat, s.score, s.rank, s.points, s.deduction, p.handle,"
        f" p.display_name, {public_name_json_sql('p', initials=False)} AS named"
        f" FROM {seats} s JOIN {players} p ON p.id = s.player_id"
        " WHERE s.match_id = m.id) t) ss ON TRUE"
        " WHERE {where} ORDER BY m.played_on DESC, m.id DESC LIMIT %s"
    )


def match_first_page_json(
    size: int, cap: int, when: Callable[[Any], Any], **filters: Any
) -> FirstPageJson | None:
    """``match_first_page`` with its rows written as JSON by PostgreSQL, the same
    bytes ``list_rows(rows, with_seats=True)`` rendered by ``JSONRenderer`` writes (no
    dict built a row, no renderer walking them); ``when``: how the list writes a
    ``submitted_at``. ``OVER_CAP`` where the count is over ``cap`` (where
    ``match_first_page`` answers None); None where a row is one PostgreSQL does not
    write (a month before the year 1000)."""
    player = bool(filters.get("player"))
    where, params = _list_where(**filters)
    with prepared_cursor() as cursor:
        cursor.execute(_page_json_sql(player).replace("{where}", where), [*params, size + 1])
        found = cursor.fetchall()
    if player:
        total = found[0][-1] if found else 0
        more = total > size
        count = total if total <= cap or not more else None
    else:
        more = len(found) > size
        count = match_count(cap, **filters) if more else len(found)
    found = found[:size]
    if count is None:
        return OVER_CAP
    if any(row[1] is None or row[2] is None for row in found):
        return None
    written_names: dict[tuple[str, str], str] = {}  # a player's name in JSON, once a page
    out = []
    for head, submitted, tail, handles, shown, *_ in found:
        written = when(_EPOCH + timedelta(microseconds=submitted))
        out += [head, "null" if written is None else encode_basestring(written)]
        if handles:
            pieces = tail.split("\x01")
            out.append(pieces[0])
            for piece, handle, name in zip(pieces[1:], handles, shown, strict=True):
                text = written_names.get((handle, name))
                if text is None:
                    text = encode_basestring(public_display_name(handle, name, False))
                    written_names[handle, name] = text
                out += [text, piece]
        else:
            out.append(tail)
        out.append(",")
    if out:
        out.pop()
    results = "[" + "".join(out) + "]"
    results = results.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    keys = [{"played_on": row[5], "id": row[6]} for row in found]
    return FirstPageJson(results, keys, more, count)


def match_count(cap: int, **filters: Any) -> int | None:
    """How many matches ``match_list(**filters)`` has, when at most ``cap``; else
    None (one query, reading at most ``cap + 1`` rows' keys)."""
    where, params = _list_where(**filters)
    sql = f"SELECT COUNT(*) FROM (SELECT 1 FROM {_table(Match)} m WHERE {where} LIMIT %s) t"
    with prepared_cursor() as cursor:
        cursor.execute(sql, [*params, cap + 1])
        counted = int(cursor.fetchone()[0])
    return counted if counted <= cap else None


#: a seat's columns as the list shows them (after its player's handle and name)
SEAT_COLUMNS = ("seat", "score", "rank", "points", "deduction")


def score_sheet(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The replay's moves with each mover's running total of points."""
    totals: dict[str, int] = {}
    sheet = []
    for move in result.get("moves", []):
        player = move.get("player")
        points = move.get("points") or 0
        totals[player] = totals.get(player, 0) + points
        sheet.append({**move, "running_total": totals[player]})
    return sheet


@dataclass(frozen=True)
class RepeatedResult:
    """Matches of one game and day with the same result (the same players in the same
    seats, with the same ranks and scores) under several game numbers: a club may have
    played twice with the same outcome, or entered one result several times. Federation
    admins review them and withdraw the abuse."""

    game: str
    played_on: date
    seats: tuple[tuple[str, int | None, int | None], ...]  # (handle, rank, score)
    matches: tuple[Match, ...]


def repeated_results(*, since: date) -> list[RepeatedResult]:
    """The repeated results played on or after ``since``, latest day first (withdrawn
    matches left out). Only days with a game number above 1 are read."""
    later_game = Match.objects.filter(
        game=OuterRef("game"), played_on=OuterRef("played_on"), game_number__gt=1
    ).exclude(status=Status.WITHDRAWN)
    matches = (
        match_list()
        .filter(Exists(later_game), played_on__gte=since)
        .exclude(status=Status.WITHDRAWN)
        .order_by("-played_on", "game__key", "game_number", "id")
    )
    groups: dict[tuple[Any, ...], list[Match]] = {}
    for match in matches:
        seats = tuple((seat.player.handle, seat.rank, seat.score) for seat in match.seats.all())
        groups.setdefault((match.game.key, match.played_on, seats), []).append(match)
    return [
        RepeatedResult(game=game, played_on=played_on, seats=seats, matches=tuple(group))
        for (game, played_on, seats), group in groups.items()
        if len({match.game_number for match in group}) > 1
    ]


@dataclass(frozen=True, slots=True)
class NamedPlayer:
    """A seated player read as a row: a handle to link, a public name to show."""

    handle: str
    public_display_name: str


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    rank: int | None
    score: int | None
    player: NamedPlayer


class SeatRows(list[SeatRow]):
    """A match row's seats, in seat order, read as ``match.seats.all()`` is."""

    def all(self) -> SeatRows:
        return self


@dataclass(frozen=True, slots=True)
class Named:
    """A game (``label``: its name in the reader's language) or a club (``name``)."""

    name: str
    label: str


_VERIFICATIONS = dict(Match._meta.get_field("verification").flatchoices)
_STATUSES = dict(Match._meta.get_field("status").flatchoices)


@dataclass(frozen=True, slots=True)
class MatchRow:
    """What a list's row shows of a match (``scoring.templatetags.match_rows``), read
    as a row rather than as a model instance with its related instances."""

    pk: int
    played_on: date
    verification: str
    finished: bool
    status: str
    game: Named
    club: Named
    seats: SeatRows

    def get_verification_display(self) -> str:
        return str(_VERIFICATIONS.get(self.verification, self.verification))

    def get_status_display(self) -> str:
        return str(_STATUSES.get(self.status, self.status))


#: a page of a player's matches, newest first (the keys of ``match_list``), with how
#: many they are, their game, club, seats and seated players: one query. The page is
#: materialised first, so that its seats' players are read by id (see ``seats_prefetch``)
PLAYER_MATCHES_SQL = """
WITH page AS MATERIALIZED (
    SELECT m.id, m.played_on, m.verification, m.finished, m.status, m.game_id, m.club_id,
           count(*) OVER () AS total
    FROM scoring_match m
    JOIN scoring_matchseat s ON s.match_id = m.id
    WHERE s.player_id = %(player)s
    ORDER BY m.played_on DESC, m.id DESC
    LIMIT %(limit)s OFFSET %(offset)s
)
SELECT page.id, page.played_on, page.verification, page.finished, page.status, page.total,
       g.name, c.name, s.seat, s.rank, s.score, p.handle, p.display_name, p.public_name
FROM page
JOIN federation_game g ON g.id = page.game_id
JOIN federation_club c ON c.id = page.club_id
JOIN scoring_matchseat s ON s.match_id = page.id
JOIN federation_player p ON p.id = s.player_id
ORDER BY page.played_on DESC, page.id DESC, s.seat
"""

PLAYER_MATCH_COUNT_SQL = "SELECT count(*) FROM scoring_matchseat WHERE player_id = %s"


def player_matches_page(
    *, player_id: int, offset: int, limit: int
) -> tuple[list[MatchRow], int | None]:
    """The player's matches ``offset`` to ``offset + limit`` as ``match_list().filter(
    seats__player=...)`` orders them, as rows, and how many matches the player has
    (None when the page is empty: the count is then ``player_match_count``)."""
    args = {"player": player_id, "limit": limit, "offset": offset}
    with prepared_cursor() as cursor:
        cursor.execute(PLAYER_MATCHES_SQL, args)
        rows = cursor.fetchall()
    matches: list[MatchRow] = []
    total = None
    games: dict[str, Named] = {}  # a page's matches are of few games
    for row in rows:
        if not matches or matches[-1].pk != row[0]:
            pk, played_on, verification, finished, status, total, game, club = row[:8]
            named = games.get(game)
            if named is None:
                named = games[game] = Named(game, gettext(game))
            matches.append(
                MatchRow(
                    pk=pk,
                    played_on=played_on,
                    verification=verification,
                    finished=finished,
                    status=status,
                    game=named,
                    club=Named(club, club),
                    seats=SeatRows(),
                )
            )
        handle, name, public = row[11:14]
        player = NamedPlayer(handle, public_display_name(handle, name, public))
        matches[-1].seats.append(SeatRow(row[8], row[9], row[10], player))
    return matches, total


def player_match_count(player_id: int) -> int:
    """How many matches the player has a seat in (one index-only count)."""
    with prepared_cursor() as cursor:
        cursor.execute(PLAYER_MATCH_COUNT_SQL, [player_id])
        return int(cursor.fetchone()[0])
