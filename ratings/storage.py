"""Reading a month's results from the database and writing a published list.

The month close reads up to a million matches and writes a hundred thousand entries,
so on PostgreSQL both directions skip the ORM's per-row objects: results are grouped
by match in SQL (``array_agg``) and streamed, entries are inserted from one array per
column (``unnest``). SQLite (the quick start) takes the portable ORM path.
"""

from __future__ import annotations

import gc
import hashlib
import itertools
import json
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import date
from typing import NamedTuple

from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from federation.models import Game
from federation.months import month_index
from ratings.engine.params import ENGINE_VERSION, Params
from ratings.engine.ranking import movement
from ratings.engine.results import Result, canonical_order, window_results
from ratings.models import RankingEntry, RankingList
from scoring.models import MatchSeat


def month_date(index: int) -> date:
    """The first day of month ``index`` (``year * 12 + month - 1``)."""
    year, month0 = divmod(index, 12)
    return date(year, month0 + 1, 1)


def month_results(game: Game, month: date, params: Params) -> list[Result]:
    """Every finished, rated result of ``game`` that list ``month`` may use.

    One row per match: key ``"<played_on>:<fingerprint>"``, players as ``str(player_id)``
    and integer ranks in seat order; seats without a rank are left out, and a table with
    fewer than two ranked seats is skipped (nobody to be rated against). Returned in
    canonical order, restricted to the window (``window_results``).
    """
    index = month_index(month)
    oldest = month_date(index - params.window + 1)
    if connection.vendor == "postgresql":
        results = _window_rows_postgresql(game, month, oldest)
    else:  # the quick start (SQLite): the portable, slower way
        results = _window_rows_orm(game, month, oldest)
    return window_results(results, index, params)


#: one row per match, its ranked seats aggregated in seat order (the month close reads
#: a million matches: grouping in PostgreSQL is several times faster than the ORM)
_WINDOW_SQL = """
    SELECT m.{played_on}, m.{fingerprint}, m.{counted_month},
           array_agg(s.{player} ORDER BY s.{seat}), array_agg(s.{rank} ORDER BY s.{seat})
    FROM {match} m JOIN {seat_table} s ON s.{seat_match} = m.{match_pk}
    WHERE m.{game} = %s AND m.{finished} AND m.{counted_month} IS NOT NULL
      AND m.{counted_month} <= %s AND m.{played_on} >= %s AND s.{rank} IS NOT NULL
    GROUP BY m.{match_pk}
    HAVING count(*) >= 2
"""
_FETCH_ROWS = 20_000


def _window_sql() -> str:
    from scoring.models import Match

    q = connection.ops.quote_name
    match, seat = Match._meta, MatchSeat._meta
    return _WINDOW_SQL.format(
        match=q(match.db_table),
        seat_table=q(seat.db_table),
        match_pk=q(match.pk.column),
        **{
            name: q(match.get_field(name).column)
            for name in ("played_on", "fingerprint", "counted_month", "game", "finished")
        },
        **{name: q(seat.get_field(name).column) for name in ("player", "seat", "rank")},
        seat_match=q(seat.get_field("match").column),
    )


class _PlayerNames(dict):
    """player id -> its interned ``str``, made once per player (not once per seat)."""

    def __missing__(self, player_id: int) -> str:
        name = self[player_id] = sys.intern(str(player_id))
        return name


_new_result = object.__new__
_set_field = object.__setattr__


def _result(
    key: str, played: int, counted: int, players: tuple[str, ...], ranks: tuple[int, ...]
) -> Result:
    """A ``Result`` without re-running its per-seat checks (about 7 us each: 7 s for a
    million results). The database already guarantees them: 2+ seats (HAVING), one
    rank per seat (both arrays come from the same rows), no player twice at a table
    (unique constraint), ids and ranks as ints (made ``str`` here, interned as
    ``Result`` does). Only ``counted >= played`` is not a constraint: checked by the caller.
    """
    result = _new_result(Result)
    _set_field(result, "key", key)
    _set_field(result, "played", played)
    _set_field(result, "counted", counted)
    _set_field(result, "players", players)
    _set_field(result, "ranks", ranks)
    return result


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cycle collector while millions of acyclic objects are made: its full
    passes over an ever larger heap cost as much as the loading itself."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _window_rows_postgresql(game: Game, month: date, oldest: date) -> list[Result]:
    names = _PlayerNames()
    days: dict[date, tuple[str, int]] = {}  # a date -> (its key prefix, its month index)
    results = []
    # a server-side cursor streams the rows; inside a transaction it needs no WITH HOLD
    with _gc_paused(), transaction.atomic(using=connection.alias):
        streamed = not connection.settings_dict.get("DISABLE_SERVER_SIDE_CURSORS")
        with connection.chunked_cursor() if streamed else connection.cursor() as cursor:
            cursor.execute(_window_sql(), [game.pk, month, oldest])
            while rows := cursor.fetchmany(_FETCH_ROWS):
                for played_on, fingerprint, counted_on, players, ranks in rows:
                    prefix, played = days.get(played_on) or _day(days, played_on)
                    counted = (days.get(counted_on) or _day(days, counted_on))[1]
                    if counted < played:
                        raise ValueError("played and counted must be month ints, counted >= played")
                    results.append(
                        _result(
                            prefix + fingerprint,
                            played,
                            counted,
                            tuple(map(names.__getitem__, players)),
                            tuple(ranks),
                        )
                    )
    return results


def _day(days: dict[date, tuple[str, int]], day: date) -> tuple[str, int]:
    days[day] = (f"{day.isoformat()}:", month_index(day))
    return days[day]


def _window_rows_orm(game: Game, month: date, oldest: date) -> list[Result]:
    seats = (
        MatchSeat.objects.filter(
            match__game=game,
            match__finished=True,
            match__counted_month__isnull=False,
            match__counted_month__lte=month,
            match__played_on__gte=oldest,
            rank__isnull=False,
        )
        .order_by("match_id", "seat")
        .values_list(
            "match_id",
            "match__fingerprint",
            "match__played_on",
            "match__counted_month",
            "player_id",
            "rank",
        )
    )
    tables: dict[int, list[tuple]] = {}
    for row in seats.iterator(chunk_size=20_000):
        tables.setdefault(row[0], []).append(row)
    results = []
    for rows in tables.values():
        if len(rows) < 2:
            continue  # a solo game has nobody to be rated against
        _, fingerprint, played_on, counted, _, _ = rows[0]
        results.append(
            Result(
                key=f"{played_on.isoformat()}:{fingerprint}",
                played=month_index(played_on),
                counted=month_index(counted),
                players=tuple(str(r[4]) for r in rows),
                ranks=tuple(int(r[5]) for r in rows),
            )
        )
    return results


def inputs_hash(results: list[Result], params: Params) -> str:
    """A hash of everything the list depends on: the results and the parameters."""
    digest = hashlib.sha256()
    digest.update(json.dumps(params.as_dict(), sort_keys=True).encode())
    for result in canonical_order(results):
        digest.update(json.dumps(result.as_dict(), sort_keys=True, separators=(",", ":")).encode())
    return digest.hexdigest()


class _Row(NamedTuple):
    """The fields ``movement`` reads, from a stored entry."""

    player: str
    rank: int | None
    fladub: int


def _previous_entries(game: Game, month: date) -> list[_Row]:
    previous = month_date(month_index(month) - 1)
    latest = RankingList.objects.filter(game=game, month=previous).order_by("-revision").first()
    if latest is None:
        return []
    rows = latest.entries.order_by().values_list("player_id", "rank", "fladub")
    return [
        _Row(str(player), rank, number) for player, rank, number in rows.iterator(chunk_size=20_000)
    ]


#: the columns of a stored entry, in the order of the rows ``_store_entries`` makes
_ENTRY_FIELDS = (
    "ranking",
    "player",
    "position",
    "rank",
    "fladub",
    "mu",
    "sigma",
    "results_counted",
    "provisional",
    "movement",
)
_STORE_ROWS = 50_000


@transaction.atomic
def store_list(game: Game, month: date, computed, digest: str, results_count: int) -> RankingList:
    """Publish ``computed`` as the next revision of (game, month), entries and all."""
    revision = (
        RankingList.objects.filter(game=game, month=month).aggregate(top=Max("revision"))["top"]
        or 0
    ) + 1
    ranking = RankingList.objects.create(
        game=game,
        month=month,
        revision=revision,
        published_at=timezone.now(),
        inputs_hash=digest,
        parameters=computed.params.as_dict(),
        engine_version=ENGINE_VERSION,
        results_counted=results_count,
    )
    with _gc_paused():
        _store_entries(ranking, game, month, computed)
    return ranking


def _store_entries(ranking: RankingList, game: Game, month: date, computed) -> None:
    moves = movement(_previous_entries(game, month), computed.entries)
    rows = (
        (
            ranking.pk,
            int(entry.player),
            position + 1,
            entry.rank,
            entry.fladub,
            entry.mu,
            entry.sigma,
            entry.results_counted,
            entry.provisional,
            moves[entry.player].rank_change,
        )
        for position, entry in enumerate(computed.entries)
    )
    if connection.vendor == "postgresql":
        _insert_entries_postgresql(rows)
    else:  # the quick start (SQLite)
        names = [
            f"{name}_id" if RankingEntry._meta.get_field(name).is_relation else name
            for name in _ENTRY_FIELDS
        ]
        RankingEntry.objects.bulk_create(
            (RankingEntry(**dict(zip(names, row, strict=True))) for row in rows), batch_size=5_000
        )


def _insert_entries_postgresql(rows: Iterable[tuple]) -> None:
    """INSERT ... SELECT FROM unnest(one array per column), one statement per 50,000
    entries: 100,000 entries take about a second, against about eight through model
    instances and ``bulk_create``."""
    fields = [RankingEntry._meta.get_field(name) for name in _ENTRY_FIELDS]
    q = connection.ops.quote_name
    sql = "INSERT INTO {} ({}) SELECT * FROM unnest({})".format(
        q(RankingEntry._meta.db_table),
        ", ".join(q(field.column) for field in fields),
        ", ".join(f"%s::{field.db_type(connection)}[]" for field in fields),
    )
    with connection.cursor() as cursor:
        while batch := list(itertools.islice(rows, _STORE_ROWS)):
            cursor.execute(sql, [list(column) for column in zip(*batch, strict=True)])
