"""Reads of published ranking lists, and of the results a player's entry counted.

The *counted results* of an entry are the player's results that carry weight in the
list: finished, not withdrawn, with at least two ranked seats, counting in the list's
month or earlier and played within its window (``ratings.storage.month_results`` reads
the same ones for the whole list). They are read as the matches stand now: a
published list never changes, but a match corrected or withdrawn since its
publication shows as it is now.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from json.encoder import encode_basestring
from typing import Any, NamedTuple, Protocol, TypeVar, overload

from django.db import connection
from django.db.models import F, Max, Model, OuterRef, Prefetch, QuerySet, Subquery
from django.utils.translation import gettext

from core.memos import memo
from core.prepared import prepared_cursor
from federation.models import Club, Game, Player, public_display_name, public_name_json_sql
from federation.months import age, first_day, month_index
from ratings.engine.params import Params, weight
from ratings.models import RankingEntry, RankingList
from scoring.models import Match, MatchSeat, Status


def ranking_get(*, game: str, month: date, revision: int | None = None) -> RankingList | None:
    """The published list (the latest revision unless one is asked for)."""
    lists = RankingList.objects.select_related("game").filter(game__key=game, month=month)
    if revision is not None:
        return lists.filter(revision=revision).first()
    return lists.order_by("-revision").first()


def _latest_revisions() -> QuerySet[RankingList]:
    """The latest revision of every published (game, month)."""
    latest = (
        RankingList.objects.filter(game=OuterRef("game"), month=OuterRef("month"))
        .order_by("-revision")
        .values("pk")[:1]
    )
    return RankingList.objects.filter(pk=Subquery(latest)).select_related("game")


def ranking_months(*, game: str) -> QuerySet[RankingList]:
    """The latest revision of every published month of ``game``, newest first."""
    return _latest_revisions().filter(game__key=game).order_by("-month")


@dataclass(frozen=True)
class GameMonths:
    """A game and the latest revision of each of its published months, newest first."""

    game: Game
    months: list[RankingList]


def ranking_games() -> list[GameMonths]:
    """Every game, by key, with its published months (two queries)."""
    months: dict[int, list[RankingList]] = {}
    for ranking in _latest_revisions().order_by("-month"):
        months.setdefault(ranking.game_id, []).append(ranking)
    return [GameMonths(game, months.get(game.pk, [])) for game in Game.objects.order_by("key")]


def latest_months() -> dict[int, date]:
    """game id -> the month of its latest published list."""
    rows = RankingList.objects.values("game_id").annotate(last=Max("month")).order_by()
    return {row["game_id"]: row["last"] for row in rows}


def ranking_entries(ranking: RankingList, *, provisional: bool) -> QuerySet[RankingEntry]:
    return (
        ranking.entries.filter(provisional=provisional)
        .select_related("player__club")
        .order_by("position")
    )


class EntryRow(NamedTuple):
    """An entry of a list as its pages show it, read as a row (no model instances):
    the entry's columns and its player's (``name``: the public name), ``club`` the
    club's name ("" for none), ``country`` a code ("" for none)."""

    rank: int | None
    handle: str
    name: str
    fladub: int
    mu: float
    sigma: float
    results_counted: int
    movement: int | None
    provisional: bool
    club: str
    country: str


#: the columns ``EntryRows`` reads (``entry_row`` makes the public name of the 2nd to 4th)
ROW_VALUES = (
    "rank",
    "player__handle",
    "player__display_name",
    "player__public_name",
    "fladub",
    "mu",
    "sigma",
    "results_counted",
    "movement",
    "provisional",
    "player__club__name",
    "player__country",
)

#: above every position a list can hold (a ``PositiveIntegerField``: 2**31 - 1 at most)
NO_POSITION = 2**31

_ROWS_SQL = """
    (SELECT e.rank, p.handle, p.display_name, p.public_name, e.fladub, e.mu, e.sigma,
            e.results_counted, e.movement, e.provisional, c.name, p.country, %s::int AS part,
            e.position
       FROM ratings_rankingentry e
       JOIN federation_player p ON p.id = e.player_id
       LEFT JOIN federation_club c ON c.id = p.club_id
      WHERE e.ranking_id = %s AND e.provisional = %s AND e.position >= %s AND e.position < %s
      ORDER BY e.position LIMIT %s OFFSET %s)"""


def entry_row(values: tuple) -> EntryRow:
    """An ``EntryRow`` from the columns of ``ROW_VALUES`` (a list page makes a hundred:
    a consented name is the display name without a call, the tuple made directly)."""
    rank, handle, display_name, public_name, fladub, mu, sigma, counted, moved, *rest = values
    provisional, club, country = rest
    name = display_name if public_name else public_display_name(handle, display_name, False)
    return _new_row(
        EntryRow,
        (
            rank,
            handle,
            name,
            fladub,
            mu,
            sigma,
            counted,
            moved,
            provisional,
            club or "",
            country or "",
        ),
    )


#: ``EntryRow._make`` without its call: the named tuple made from a tuple of its fields
_new_row = tuple.__new__


class Rows:
    """A sequence of ``EntryRow`` a ``Paginator`` pages: its size and its slices."""

    def count(self) -> int:
        raise NotImplementedError

    def rows(self, start: int, stop: int) -> list[EntryRow]:
        """The rows ``[start:stop]`` (``0 <= start < stop <= count()``)."""
        raise NotImplementedError

    def __len__(self) -> int:
        return self.count()

    def __iter__(self) -> Iterator[EntryRow]:
        return iter(self[0 : self.count()])

    @overload
    def __getitem__(self, index: int) -> EntryRow: ...

    @overload
    def __getitem__(self, index: slice) -> list[EntryRow]: ...

    def __getitem__(self, index: int | slice) -> EntryRow | list[EntryRow]:
        if isinstance(index, int):
            found = self[index : index + 1] if index >= 0 else []
            if not found:
                raise IndexError(index)
            return found[0]
        start, stop, _ = index.indices(self.count())
        return self.rows(start, stop) if start < stop else []


class EntryRows(Rows):
    """``entries`` (a query of entries, in order) as rows: its COUNT, and a slice read
    as ``ROW_VALUES`` columns."""

    def __init__(self, entries: QuerySet[RankingEntry]) -> None:
        self.entries = entries
        self.size: int | None = None

    def count(self) -> int:
        if self.size is None:
            self.size = self.entries.count()
        return self.size

    def rows(self, start: int, stop: int) -> list[EntryRow]:
        return [entry_row(v) for v in self.entries.values_list(*ROW_VALUES)[start:stop]]


class ListPart(Rows):
    """One part of a published list (its ranked or its provisional entries, by
    position) as rows a ``Paginator`` pages without a COUNT: the part's size and page
    marks were stored at publication (``ratings.publication.list_parts_store``). A
    slice starts at the mark before it, an index range on (ranking, provisional,
    position), and skips fewer than a mark step of entries: one cheap query at any
    depth. ``read_slices`` reads the slices of several parts in one query beforehand;
    a slice read so is not read again."""

    def __init__(self, ranking: RankingList, *, provisional: bool) -> None:
        self.ranking, self.provisional = ranking, provisional
        marks = ranking.page_marks or {}
        self.step: int = marks["step"]
        self.marks: list[int] = marks["provisional" if provisional else "ranked"]
        size = ranking.provisional_count if provisional else ranking.ranked_count
        self.size: int = size or 0
        self.read: dict[tuple[int, int], list[EntryRow]] = {}
        #: the slices this process keeps (``read_slices``), by slice: their keys
        self.kept: dict[tuple[int, int], tuple[int, str, int, int]] = {}

    def count(self) -> int:
        return self.size

    def rows(self, start: int, stop: int) -> list[EntryRow]:
        rows = self.read.get((start, stop))
        if rows is None:
            read_slices([(self, start, stop)])
            rows = self.read[(start, stop)]
        return rows

    def query(self, start: int, stop: int) -> list[Any]:
        """The parameters of ``_ROWS_SQL`` (and ``_ENTRIES_JSON_SQL``) for the slice
        ``[start:stop]``: the part, the positions from the mark before ``start`` to the
        mark at or after ``stop`` (positions rise with the entries, so none of the
        slice is past it; no mark after the part's last: any position), and the slice
        in that range. The upper mark changes no row read; it lets PostgreSQL keep the
        statement's generic plan (the same index range): with a lower bound alone, its
        generic estimate (a third of the part) lost to each page's own plan, and every
        page was planned anew (``docs/performance.md``, "the fifth stop")."""
        step = self.step
        skip = start % step
        mark = self.marks[start // step]
        after = -(-stop // step)  # the first mark at or after ``stop``
        upto = self.marks[after] if after < len(self.marks) else NO_POSITION
        return [self.ranking.pk, self.provisional, mark, upto, stop - start, skip]


#: provisional pages read, by (list, players' generation, slice): every ranked page
#: of a list shows the same first provisional page (a few per process)
_KEPT: dict[tuple[int, str, int, int], list[EntryRow]] = memo({})
KEPT_PAGES = 8


def read_slices(wanted: list[tuple[ListPart, int, int]], players: str | None = None) -> None:
    """Read the slices ``(part, start, stop)`` (each within its part) in one query,
    kept by each part for ``__getitem__``. ``players``: the players' generation (a
    ``tag``) under which this process keeps the provisional slices it read, and
    reads them again without a query."""
    unread = []
    for part, start, stop in wanted:
        key = (part.ranking.pk, players or "", start, stop)
        kept = _KEPT.get(key) if players and part.provisional else None
        if kept is None:
            unread.append((part, start, stop))
        else:
            part.read[(start, stop)] = kept
            part.kept[(start, stop)] = key
    if not unread:
        return
    if connection.vendor != "postgresql":  # the quick start's SQLite: a query a slice
        each = [_slice_rows(part, start, stop) for part, start, stop in unread]
        _keep_slices(unread, each, players)
        return
    sql = " UNION ALL ".join([_ROWS_SQL] * len(unread))
    params: list[Any] = []
    for n, (part, start, stop) in enumerate(unread):
        params += [n, *part.query(start, stop)]
    found: list[list[EntryRow]] = [[] for _ in unread]
    with prepared_cursor() as cursor:
        cursor.execute(f"SELECT * FROM ({sql}) rows ORDER BY part, position", params)
        for row in cursor.fetchall():
            found[row[12]].append(entry_row(row[:12]))
    _keep_slices(unread, found, players)


def _slice_rows(part: ListPart, start: int, stop: int) -> list[EntryRow]:
    """The slice ``[start:stop]`` of ``part`` through the ORM (any database)."""
    entries = ranking_entries(part.ranking, provisional=part.provisional)
    return [entry_row(values) for values in entries.values_list(*ROW_VALUES)[start:stop]]


def _keep_slices(
    unread: list[tuple[ListPart, int, int]], found: list[list[EntryRow]], players: str | None
) -> None:
    """Give each part the slices read for it; keep the provisional ones (``_KEPT``)."""
    for (part, start, stop), rows in zip(unread, found, strict=True):
        part.read[(start, stop)] = rows
        if players and part.provisional:
            if len(_KEPT) >= KEPT_PAGES:
                _KEPT.clear()
            key = (part.ranking.pk, players, start, stop)
            _KEPT[key], part.kept[(start, stop)] = rows, key


T = TypeVar("T")

#: what pages wrote of the slices ``_KEPT`` keeps, by (slice's key, form): a list's
#: provisional page written once per process, language and format, not at each page
_WRITTEN: dict[tuple[Any, ...], Any] = memo({})
KEPT_WRITINGS = 16


def written(
    part: Rows,
    start: int,
    rows: list[EntryRow],
    form: Hashable,
    write: Callable[[list[EntryRow]], T],
) -> T:
    """``write(rows)``, ``rows`` the slice of ``part`` from ``start``: kept by the process
    when the slice is (a provisional page: every page of its list shows it), per
    ``form`` (whatever else the writing depends on: language, format), and written
    again only when its list or its players' generation changes."""
    kept = part.kept.get((start, start + len(rows))) if isinstance(part, ListPart) else None
    if kept is None or not rows:
        return write(rows)
    key = (*kept, form)
    found = _WRITTEN.get(key)
    if found is None:
        if len(_WRITTEN) >= KEPT_WRITINGS:
            _WRITTEN.clear()
        found = _WRITTEN[key] = write(rows)
    return found


#: a float as ``float.__repr__`` writes it (what ``json.dumps`` writes), where
#: PostgreSQL's shortest round-trip text (``extra_float_digits`` above 0, checked once
#: a query by ``_ENTRIES_JSON_SQL``) is the same digits: fixed notation between 1e-4
#: and 1e15, ".0" after an integral value; NULL elsewhere (the page is then written the
#: Python way)
_FLOAT_JSON = (
    "CASE WHEN {x} = trunc({x}) AND abs({x}) < 1e15 THEN {x}::text || '.0'"
    " WHEN abs({x}) >= 1e-4 AND abs({x}) < 1e15 THEN {x}::text END"
)

#: a slice of a list's part as the JSON array of its entries (``ranked_entry`` or
#: ``provisional_entry`` rendered by DRF's ``JSONRenderer``), written by PostgreSQL; a
#: name it cannot write is left as chr(1) (no JSON text holds one: ``to_json`` escapes
#: control characters), its player's handle and name given beside in order. Each level
#: is its own so that nothing is computed twice a row: the slice (``r``, its LIMIT keeps
#: it a level) with its public name, then each entry's JSON (``t``, kept a level by
#: ``OFFSET 0``: pulled up, its JSON would be written for each aggregate that reads it);
#: ``extra_float_digits`` read once (an InitPlan), not twice a row.
_ENTRIES_JSON_SQL = (
    "SELECT string_agg(t.j, ',' ORDER BY t.position),"
    " array_agg(t.handle ORDER BY t.position) FILTER (WHERE t.named IS NULL),"
    " array_agg(t.display_name ORDER BY t.position) FILTER (WHERE t.named IS NULL),"
    " bool_and(t.j IS NOT NULL)"
    " AND (SELECT current_setting('extra_float_digits')::int > 0)"
    " FROM (SELECT r.position, r.handle, r.display_name, r.named,"
    " '{{' || CASE WHEN r.provisional THEN ''"
    " ELSE '\"rank\":' || COALESCE(r.rank::text, 'null') || ',' END"
    " || '\"player\":' || to_json(r.handle)::text"
    " || ',\"name\":' || COALESCE(r.named, chr(1))"
    " || ',\"fladub\":' || r.fladub || ',\"mu\":' || ({mu})"
    " || ',\"sigma\":' || ({sigma})"
    " || ',\"results_counted\":' || r.results_counted"
    " || ',\"movement\":' || COALESCE(r.movement::text, 'null') || '}}' AS j"
    " FROM (SELECT e.position, e.provisional, e.rank, e.fladub, e.mu, e.sigma,"
    " e.results_counted, e.movement, p.handle, p.display_name, {name} AS named"
    " FROM ratings_rankingentry e JOIN federation_player p ON p.id = e.player_id"
    " WHERE e.ranking_id = %s AND e.provisional = %s AND e.position >= %s"
    " AND e.position < %s ORDER BY e.position LIMIT %s OFFSET %s) r OFFSET 0) t"
).format(
    mu=_FLOAT_JSON.format(x="r.mu"),
    sigma=_FLOAT_JSON.format(x="r.sigma"),
    name=public_name_json_sql("p"),
)


def entries_json(part: ListPart, start: int, stop: int) -> str | None:
    """The entries ``[start:stop]`` of ``part`` (within it) as the JSON array DRF's
    ``JSONRenderer`` writes of their dicts (``ranked_entry``, ``provisional_entry``;
    compact, ``ensure_ascii`` off, U+2028 and U+2029 escaped), in one query with no row
    built in Python: PostgreSQL writes the JSON, Python the public names it cannot.
    The slice counts as read (``part.rows`` gives placeholders: its JSON stands for its
    rows). None where a float is not written as Python writes it (never seen: out of
    1e-4..1e15, NaN), and on other databases than PostgreSQL: then read the rows."""
    if connection.vendor != "postgresql":
        return None
    with prepared_cursor() as cursor:
        cursor.execute(_ENTRIES_JSON_SQL, part.query(start, stop))
        text, handles, names, whole = cursor.fetchone()
    if not whole or text is None:
        return None
    pieces = text.split("\x01")
    if len(pieces) != len(handles or ()) + 1:
        return None
    out = [pieces[0]]
    for piece, handle, name in zip(pieces[1:], handles or (), names or (), strict=True):
        out += [encode_basestring(public_display_name(handle, name, False)), piece]
    part.read[(start, stop)] = [_WRITTEN_ROW] * (stop - start)
    body = "[" + "".join(out) + "]"
    return body.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


#: what stands for a row ``entries_json`` wrote (a paginator counts them, no one reads them)
_WRITTEN_ROW = EntryRow(None, "", "", 0, 0.0, 0.0, 0, None, False, "", "")


def page_slice(part: ListPart, number: object, size: int) -> tuple[int, int] | None:
    """The slice of page ``number`` (as the query gives it) of ``part`` at ``size``
    entries a page, as ``Paginator.page`` takes it; None for a page it would refuse."""
    if not isinstance(number, str) or not (number.isascii() and number.isdigit()):
        return None
    start = (int(number) - 1) * size
    if int(number) < 1 or start >= part.size:
        return None
    return start, min(start + size, part.size)


def ranking_part(ranking: RankingList, *, provisional: bool) -> Rows:
    """A part of ``ranking`` to page, as ``EntryRow``: by its marks, or (a list stored
    without them: ``store_list`` called alone) the query with its COUNT."""
    if ranking.page_marks is None:
        return EntryRows(ranking_entries(ranking, provisional=provisional))
    return ListPart(ranking, provisional=provisional)


def ranking_filter(
    entries: QuerySet[RankingEntry], *, club: str = "", country: str = "", name: str = ""
) -> QuerySet[RankingEntry]:
    """Entries of players of ``club`` (a slug), of ``country`` (a code), whose handle or
    consented name holds ``name`` (case and accents ignored); empty: no filter."""
    if club:
        entries = entries.filter(player__club__slug=club)
    if country:
        entries = entries.filter(player__country=country.upper())
    if name:
        entries = entries.filter(player__in=Player.objects.search(name))
    return entries


def ranking_clubs(ranking: RankingList) -> list[Club]:
    """The clubs of the players of ``ranking`` (its club filter), by name."""
    return list(
        Club.objects.filter(players__ranking_entries__ranking=ranking).distinct().order_by("name")
    )


def ranking_countries(ranking: RankingList) -> list[str]:
    """The country codes of the players of ``ranking`` (its country filter)."""
    codes = ranking.entries.exclude(player__country="").values_list("player__country", flat=True)
    return sorted(set(codes.order_by().distinct()))


def ranking_rows(ranking: RankingList) -> Iterator[RankingEntry]:
    """Every entry of ``ranking``, the ranked ones by position, then the provisional
    ones by position (the CSV download), streamed."""
    for provisional in (False, True):
        yield from ranking_entries(ranking, provisional=provisional).iterator(chunk_size=5000)


def player_history(*, player_id: int) -> QuerySet[RankingEntry]:
    """The player's entry in the latest revision of every published list."""
    latest = (
        RankingList.objects.filter(game=OuterRef("ranking__game"), month=OuterRef("ranking__month"))
        .order_by("-revision")
        .values("revision")[:1]
    )
    return (
        RankingEntry.objects.filter(player_id=player_id)
        .annotate(latest_revision=Subquery(latest))
        .filter(ranking__revision=F("latest_revision"))
        .select_related("ranking__game")
        .order_by("ranking__game__key", "-ranking__month")
    )


def _table(model: type[Model]) -> str:
    """``model``'s table, quoted for raw SQL."""
    return connection.ops.quote_name(model._meta.db_table)


@functools.cache
def _history_sql() -> str:
    player, entry = _table(Player), _table(RankingEntry)
    ranking, game = _table(RankingList), _table(Game)
    return (
        "SELECT p.id, x.key, x.month, x.rank, x.fladub, x.provisional, x.results_counted,"
        f" x.movement FROM {player} p LEFT JOIN LATERAL ("
        "SELECT g.key, r.month, e.rank, e.fladub, e.provisional, e.results_counted,"
        f" e.movement FROM {entry} e JOIN {ranking} r ON r.id = e.ranking_id"
        f" JOIN {game} g ON g.id = r.game_id WHERE e.player_id = p.id AND r.revision = ("
        f"SELECT u.revision FROM {ranking} u WHERE u.game_id = r.game_id"
        " AND u.month = r.month ORDER BY u.revision DESC LIMIT 1)"
        " ORDER BY g.key ASC, r.month DESC LIMIT %s) x ON TRUE"
        " WHERE lower(p.handle) = lower(%s) ORDER BY x.key ASC, x.month DESC"
    )


def player_history_rows(handle: str, limit: int) -> list[tuple[Any, ...]] | None:
    """``player_history`` of the player of ``handle`` (whatever its case, as
    ``Player.objects.by_handle``) as rows ``(game key, month, rank, fladub,
    provisional, results_counted, movement)``, at most ``limit`` of them, in its order;
    None when no player has that handle. One query (PostgreSQL's SQL: ``LATERAL``)
    where the player, the entries and their count took three; through the ORM on
    other databases (the quick start's SQLite)."""
    if connection.vendor != "postgresql":
        return _player_history_rows_orm(handle, limit)
    with prepared_cursor() as cursor:
        cursor.execute(_history_sql(), [limit, handle])
        rows = cursor.fetchall()
    if not rows:
        return None
    return [row[1:] for row in rows if row[1] is not None]


def _player_history_rows_orm(handle: str, limit: int) -> list[tuple[Any, ...]] | None:
    """``player_history_rows`` through the ORM: two queries, any database."""
    player = Player.objects.by_handle(handle).values_list("pk", flat=True).first()
    if player is None:
        return None
    columns = ("ranking__game__key", "ranking__month", "rank", "fladub", "provisional")
    entries = player_history(player_id=player).values_list(*columns, "results_counted", "movement")
    return list(entries[:limit])


def player_entry(*, player: Player, game: str, month: date) -> RankingEntry | None:
    """The player's entry in the latest revision of (game, month), if listed there."""
    ranking = ranking_get(game=game, month=month)
    if ranking is None:
        return None
    entry = ranking.entries.filter(player=player).first()
    if entry is not None:
        entry.ranking = ranking  # already read, with its game
    return entry


@dataclass(frozen=True)
class CountedResult:
    """A result counted in a player's entry: its age (months since its play month) and
    weight in that list, the player's rank at the table and the others' ``(rank,
    player)``. ``new``: it counts from this very list (the list before did not have it)."""

    match_id: int
    played_on: date
    age: int
    weight: float
    late: bool
    new: bool
    rank: int
    #: the other players in rank order: (rank, player, score)
    opponents: tuple[tuple[int, PlayerName, int | None], ...]


def entry_results(
    entry: RankingEntry, known: Mapping[int, Match] | None = None
) -> list[CountedResult]:
    """The results ``entry`` counted, newest first (two queries). ``known``: matches
    already read by id with all their seats and players (``scoring.selectors.
    match_rows``, a player's page's own list): those are not read again, the query
    names the counted ones and only the others are read (one query when all are known)."""
    ranking = entry.ranking
    params = Params.from_dict(ranking.parameters)
    oldest = first_day(month_index(ranking.month) - params.window + 1)
    matches = (
        Match.objects.filter(
            game_id=ranking.game_id,
            finished=True,
            counted_month__isnull=False,
            counted_month__lte=ranking.month,
            played_on__gte=oldest,
            seats__player_id=entry.player_id,
            seats__rank__isnull=False,
        )
        .exclude(status=Status.WITHDRAWN)
        .order_by("-played_on", "-id")
    )
    if known is None:
        rows = _with_ranked_seats(matches)
    else:
        ids = list(matches.values_list("pk", flat=True))
        unread = matches.filter(pk__in=set(ids) - set(known))
        read = {match.pk: (match, seats) for match, seats in _with_ranked_seats(unread)}
        rows = [read[pk] if pk in read else _ranked_from_all(known[pk]) for pk in ids]
    return [_counted(match, seats, entry, params) for match, seats in rows if len(seats) >= 2]


def _with_ranked_seats(matches: QuerySet[Match]) -> list[tuple[Match, list[MatchSeat]]]:
    """``matches`` (their light columns), each with its ranked seats and their players
    in rank order (first place first)."""
    ranked = MatchSeat.objects.filter(rank__isnull=False).select_related("player")
    ranked = ranked.order_by("rank", "seat")  # shown in rank order, first place first
    rows = matches.only("pk", "played_on", "late", "counted_month")
    rows = rows.prefetch_related(Prefetch("seats", queryset=ranked, to_attr="ranked_seats"))
    return [(match, match.ranked_seats) for match in rows]


def _ranked_from_all(match: Match) -> tuple[Match, list[MatchSeat]]:
    """A match whose seats are all prefetched, with the ranked seats the query of
    ``_with_ranked_seats`` would have read."""
    seats = [seat for seat in match.seats.all() if seat.rank is not None]
    return match, sorted(seats, key=lambda seat: (seat.rank or 0, seat.seat))


def _counted(
    match: Match, seats: list[MatchSeat], entry: RankingEntry, params: Params
) -> CountedResult:
    own = next(seat for seat in seats if seat.player_id == entry.player_id)
    months = age(match.played_on, entry.ranking.month)
    return CountedResult(
        match_id=match.pk,
        played_on=match.played_on,
        age=months,
        weight=weight(months, params),
        late=match.late,
        new=match.counted_month == entry.ranking.month,
        rank=int(own.rank or 0),
        opponents=tuple(
            (int(seat.rank or 0), seat.player, seat.score) for seat in seats if seat is not own
        ),
    )


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """A player's entry in the latest revision of a published list, as a player's page
    shows it (``player_page_entries``): the list's game and month, the month of the
    game's latest list, and the entry's own columns."""

    game_id: int
    game_key: str
    game_name: str
    month: date
    latest: date
    rank: int | None
    fladub: int
    results_counted: int
    movement: int | None
    provisional: bool
    parameters: dict[str, Any]

    @property
    def game_label(self) -> str:
        """The game's name in the reader's language (``Game.label``)."""
        return gettext(self.game_name)


#: a player's entries in the latest revision of every published list, with the month
#: of each game's latest list (``player_history`` and ``latest_months`` in one query)
HISTORY_SQL = """
SELECT g.id, g.key, g.name, l.month,
       (SELECT max(x.month) FROM ratings_rankinglist x WHERE x.game_id = l.game_id),
       e.rank, e.fladub, e.results_counted, e.movement, e.provisional, l.parameters
FROM ratings_rankingentry e
JOIN ratings_rankinglist l ON l.id = e.ranking_id
JOIN federation_game g ON g.id = l.game_id
WHERE e.player_id = %s
  AND l.revision = (SELECT x.revision FROM ratings_rankinglist x
                    WHERE x.game_id = l.game_id AND x.month = l.month
                    ORDER BY x.revision DESC LIMIT 1)
ORDER BY g.key, l.month DESC
"""


def player_page_entries(*, player_id: int) -> list[HistoryEntry]:
    """``player_history`` as plain rows (one query, no model instance), by game key,
    newest month first. Through the ORM on other databases (the quick start's SQLite:
    its raw rows hold dates as text)."""
    if connection.vendor != "postgresql":
        return _player_page_entries_orm(player_id)
    with prepared_cursor() as cursor:
        cursor.execute(HISTORY_SQL, [player_id])
        rows = cursor.fetchall()
    return [history_entry(row) for row in rows]


def _player_page_entries_orm(player_id: int) -> list[HistoryEntry]:
    """``player_page_entries`` through the ORM: two queries, any database."""
    latest = latest_months()
    entries = player_history(player_id=player_id)  # (its game selected)
    return [
        HistoryEntry(
            game_id=e.ranking.game_id,
            game_key=e.ranking.game.key,
            game_name=e.ranking.game.name,
            month=e.ranking.month,
            latest=latest[e.ranking.game_id],
            rank=e.rank,
            fladub=e.fladub,
            results_counted=e.results_counted,
            movement=e.movement,
            provisional=e.provisional,
            parameters=e.ranking.parameters,
        )
        for e in entries
    ]


def history_entry(row: Sequence[Any]) -> HistoryEntry:
    """The ``HistoryEntry`` of a row of ``HISTORY_SQL``'s columns (its first eleven)."""
    return HistoryEntry(
        game_id=row[0],
        game_key=row[1],
        game_name=row[2],
        month=row[3],
        latest=row[4],
        rank=row[5],
        fladub=row[6],
        results_counted=row[7],
        movement=row[8],
        provisional=row[9],
        parameters=_json(row[10]),
    )


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


class PlayerName(Protocol):
    """What a list shows of a player: a handle to link, a public name to show."""

    @property
    def handle(self) -> str: ...

    @property
    def public_display_name(self) -> str: ...


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """A player read as a row (``PlayerName``)."""

    handle: str
    public_display_name: str


#: the matches an entry counted (as ``entry_results`` selects them), each with its
#: ranked seats and their players, in the order the why table shows them
COUNTED_SQL = """
SELECT m.id, m.played_on, m.late, m.counted_month, s.player_id, s.rank, s.score,
       p.handle, p.display_name, p.public_name
FROM scoring_match m
JOIN scoring_matchseat s ON s.match_id = m.id AND s.rank IS NOT NULL
JOIN federation_player p ON p.id = s.player_id
WHERE m.id IN (
    SELECT m2.id FROM scoring_match m2
    JOIN scoring_matchseat s2 ON s2.match_id = m2.id
    WHERE m2.game_id = %(game)s AND m2.finished AND m2.counted_month IS NOT NULL
      AND m2.counted_month <= %(month)s AND m2.played_on >= %(oldest)s
      AND s2.player_id = %(player)s AND s2.rank IS NOT NULL AND m2.status <> %(withdrawn)s)
ORDER BY m.played_on DESC, m.id DESC, s.rank, s.seat
"""


def history_entry_results(entry: HistoryEntry, player_id: int) -> list[CountedResult]:
    """``entry_results`` of a ``HistoryEntry`` (the same results, in the same order),
    in one query of rows: the counted matches with their ranked seats and players."""
    params = Params.from_dict(entry.parameters)
    oldest = first_day(month_index(entry.month) - params.window + 1)
    args: dict[str, Any] = {
        "game": entry.game_id,
        "month": entry.month,
        "oldest": oldest,
        "player": player_id,
        "withdrawn": Status.WITHDRAWN.value,
    }
    with prepared_cursor() as cursor:
        cursor.execute(COUNTED_SQL, args)
        rows = cursor.fetchall()
    by_match: dict[int, list[tuple[Any, ...]]] = {}
    for row in rows:
        by_match.setdefault(row[0], []).append(row)
    results = []
    for seats in by_match.values():
        if len(seats) < 2:
            continue
        own = next(seat for seat in seats if seat[4] == player_id)
        match_id, played_on, late, counted_month = own[:4]
        months = age(played_on, entry.month)
        results.append(
            CountedResult(
                match_id=match_id,
                played_on=played_on,
                age=months,
                weight=weight(months, params),
                late=late,
                new=counted_month == entry.month,
                rank=int(own[5] or 0),
                opponents=tuple(
                    (
                        int(seat[5] or 0),
                        SeatedPlayer(seat[7], public_display_name(seat[7], seat[8], seat[9])),
                        seat[6],
                    )
                    for seat in seats
                    if seat is not own
                ),
            )
        )
    return results
