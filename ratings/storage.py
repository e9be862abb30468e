"""Reading a month's results from the database: the window of a list, and its hash.

The month close reads up to a million matches, so on PostgreSQL they go from the
database to numpy arrays in the binary COPY format, without a Python object per row:
the window is read as columns (``month_columns``: one statement, one row of
aggregates, read in place by numpy) and hashed from them (``inputs_hash``). SQLite
(the quick start) takes the portable ORM path. The list is written back by
``ratings.publication``, by COPY too.
"""

from __future__ import annotations

import ctypes
import gc
import hashlib
import json
import re
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from datetime import date

import psycopg
from django.db import connection, transaction
from django.db.models import Field, Model

from federation.models import Game
from federation.months import first_day, month_index
from ratings.engine.canonical_json import canonical_json
from ratings.engine.columns import ResultColumns, ResultList
from ratings.engine.params import Params
from ratings.engine.results import Result
from ratings.window_copy import COPY_TYPES, Pieces, copy_rows, joined, window_columns
from scoring.models import Match, MatchSeat


def month_results(game: Game, month: date, params: Params) -> ResultList:
    """Every finished, rated result of ``game`` that list ``month`` may use.

    One row per match: key ``"<played_on>:<fingerprint>"``, players as ``str(player_id)``
    and integer ranks in seat order; seats without a rank are left out, and a table with
    fewer than two ranked seats is skipped (nobody to be rated against). Returned in
    canonical order, restricted to the window (``window_results``), as a read-only list
    that carries its columns (``month_columns``): the inputs hash and the schedule of
    the list use those.
    """
    columns = month_columns(game, month, params)
    with _gc_paused():
        return ResultList(columns)


def month_columns(game: Game, month: date, params: Params) -> ResultColumns:
    """The results of ``month_results`` as columns only (no object per result)."""
    index = month_index(month)
    oldest = first_day(index - params.window + 1)
    if connection.vendor == "postgresql":
        columns = _window_columns_postgresql(game, month, oldest)
    else:  # the quick start (SQLite): the portable, slower way
        columns = ResultColumns.from_results(_window_rows_orm(game, month, oldest))
    return columns.window(index, params)


#: The window in one statement (one snapshot), as a few hundred rows of columns: each
#: aggregate is every value of one column for a block of ``WINDOW_BLOCK`` match ids, as
#: the big-endian bytes of its binary form, so that numpy reads millions of matches
#: without an object per match (``ratings.window_copy``). A row is a block of matches
#: (kind 0) or of their ranked seats (kind 1, no fingerprints). Matches and seats come
#: apart, in any order (seats name their match), and numpy groups and sorts them
#: (``window_columns``): building the rows in PostgreSQL (``array_agg`` per match,
#: ordered by seat) cost it half as much again. Blocks rather than one row keep every
#: value far below PostgreSQL's 1 GB and what is in flight small: at 10,000,000
#: matches one row was some 800 MB, held two or three times over by the server, libpq
#: and Python.
_WINDOW_SQL = """
COPY (
    SELECT 0::int2,
           string_agg(int8send(m.{match_pk}::int8), ''),
           string_agg(int4send(m.{played_on} - DATE '1970-01-01'), ''),
           string_agg(int4send(m.{counted_month} - DATE '1970-01-01'), ''),
           string_agg(int4send(octet_length(f.text)), ''),
           string_agg(f.text, '')
    FROM {match} m, LATERAL (SELECT convert_to(m.{fingerprint}, 'UTF8')) f (text)
    WHERE {matches}
    GROUP BY m.{match_pk} / %(block)s
  UNION ALL
    SELECT 1::int2,
           string_agg(int8send(s.{seat_match}::int8), ''),
           string_agg(int4send(s.{seat}::int4), ''),
           string_agg(int8send(s.{player}::int8), ''),
           string_agg(int4send(s.{rank}::int4), ''),
           NULL
    FROM {seat_table} s JOIN {match} m ON s.{seat_match} = m.{match_pk}
    WHERE {matches} AND s.{rank} IS NOT NULL{seat_part}
    GROUP BY s.{seat_match} / %(block)s
) TO STDOUT (FORMAT binary)
"""
#: match ids per row of the window's COPY (a block of matches, or of their seats)
WINDOW_BLOCK = 1 << 16
_MATCHES = """m.{game} = %(game)s AND m.{finished} AND m.{status} <> 'withdrawn'
          AND m.{counted_month} IS NOT NULL AND m.{counted_month} <= %(month)s
          AND m.{played_on} >= %(oldest)s"""
_PART = " AND {table}.{column} / %(block)s %% %(parts)s = %(part)s"


def _window_sql(split: bool = False) -> str:
    """The window's statement; ``split``: only the matches whose block of ids (``id /
    %(block)s``) is ``%(part)s`` modulo ``%(parts)s``, and their seats."""
    q = connection.ops.quote_name
    names = {
        "match": q(Match._meta.db_table),
        "seat_table": q(MatchSeat._meta.db_table),
        "match_pk": quoted_column(Match, "id"),
        "seat_match": quoted_column(MatchSeat, "match"),
        **{
            name: quoted_column(Match, name)
            for name in ("played_on", "fingerprint", "counted_month", "game", "finished", "status")
        },
        **{name: quoted_column(MatchSeat, name) for name in ("player", "seat", "rank")},
    }
    # the seats' own filter too, so that only their part is probed in the hash join
    match_part = _PART.format(table="m", column=names["match_pk"]) if split else ""
    seat_part = _PART.format(table="s", column=names["seat_match"]) if split else ""
    matches = _MATCHES.format(**names) + match_part
    return _WINDOW_SQL.format(matches=matches, seat_part=seat_part, **names)


def concrete_field(model: type[Model], name: str) -> Field:
    """The field ``name`` of ``model``, which must have a column of its own."""
    field = model._meta.get_field(name)
    if not isinstance(field, Field):
        raise TypeError(f"{model.__name__}.{name} is not a concrete field")
    return field


def quoted_column(model: type[Model], name: str) -> str:
    """The quoted column name of a concrete field of ``model``."""
    column = concrete_field(model, name).column
    if column is None:
        raise TypeError(f"{model.__name__}.{name} has no column")
    return connection.ops.quote_name(column)


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cycle collector while a million acyclic objects are made: its passes
    over an ever larger heap would double the cost."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


#: the window is read in this many parts, one connection each, when it can be: the
#: server's work (scans, the hash join, the aggregates) then runs on as many cores
WINDOW_PARTS = 2


def _window_columns_postgresql(game: Game, month: date, oldest: date) -> ResultColumns:
    """The window, read by ``COPY ... TO STDOUT (FORMAT binary)`` of rows of blocks.

    Outside a transaction the window is read in ``WINDOW_PARTS`` parts (blocks of
    matches by their number modulo the parts, with their seats), each on its own
    connection and all in one snapshot (``_window_parts``). Inside one (a caller's
    atomic block, the tests) a second connection would not see the transaction's own
    writes: one statement.
    """
    params = {"game": game.pk, "month": month, "oldest": oldest}
    if connection.in_atomic_block or WINDOW_PARTS < 2:
        with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
            return window_columns(_trimmed(joined([_read_part(cursor, params, 0, 1)])))
    return window_columns(_trimmed(joined(_window_parts(params, WINDOW_PARTS))))


def _trimmed(fields: dict) -> dict:
    """``fields``, once the C heap has given back to the system what it holds free, for
    a large window: it comes as a few hundred buffers of some megabytes, below the size
    glibc maps apart, and freed they would stay in the process (a gigabyte or more at
    10,000,000 results) while ``window_columns`` needs as much again. A smaller window's
    freed heap is better kept: the steps after reuse it, and taking fresh memory from
    the system again cost more time than it saved (1.5 s of a 6 s close at 1,000,000
    results, on the bench machine). Elsewhere than glibc, a no-op."""
    if sum(values.nbytes for values in fields.values()) >= TRIM_ABOVE:
        with suppress(OSError, AttributeError):
            ctypes.CDLL(None).malloc_trim(0)
    return fields


#: the size of a window (its columns' bytes) from which its reading's freed heap is given
#: back (``_trimmed``); a window of 1,000,000 results is about 160 MB
TRIM_ABOVE = 512 * 2**20


def _read_part(cursor, params: dict, part: int, parts: int) -> Pieces:
    """One part of the window (all of it when ``parts`` is 1), in the open transaction."""
    # enough memory to hash a million matches for the join, rather than spill
    cursor.execute("SET LOCAL work_mem = '256MB'")
    # the blocks by hashing: sorting millions of rows by block would spill to disk
    cursor.execute("SET LOCAL enable_sort = off")
    # each scan from the table's start, so that blocks come in the table's order (the
    # parts' scans would otherwise join each other midway): sorted, seats need no sort
    cursor.execute("SET LOCAL synchronize_seqscans = off")
    if parts > 1:
        # the planner takes ``id / block % parts = part`` for a rare condition (it has no
        # statistics of it) and would loop over the seats' index: hash-join as a whole;
        # no JIT, which the cost of a disabled plan kind would set off (~0.7 s)
        cursor.execute("SET LOCAL enable_nestloop = off")
        cursor.execute("SET LOCAL max_parallel_workers_per_gather = 0")
        cursor.execute("SET LOCAL jit = off")
    bound = {**params, "part": part, "parts": parts, "block": WINDOW_BLOCK}
    statement = _bound(cursor, _window_sql(parts > 1), bound)
    with cursor.copy(statement) as copy:
        copy.set_types(COPY_TYPES)
        return copy_rows(copy.rows())


def _bound(cursor, statement: str, params: dict) -> str:
    """``statement`` with ``params`` bound as literals, as psycopg itself binds a COPY's
    parameters (COPY takes none on the server): the COPY is then run by the statement
    alone, which is all the debug wrapper Django puts on a cursor with DEBUG on passes
    to ``copy()`` (it takes no parameters)."""
    with psycopg.ClientCursor(cursor.connection) as client:
        return client.mogrify(statement, params)


def _window_parts(params: dict, parts: int) -> list[Pieces]:
    """Every part of the window, part 0 on this connection and the others each on a
    connection of its own in a thread, all in this connection's snapshot (exported by a
    REPEATABLE READ transaction, imported by the others): one consistent window, read
    by as many server processes. psycopg waits for the server without the GIL."""
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        cursor.execute("SELECT pg_export_snapshot()")
        snapshot = cursor.fetchone()[0]
        with ThreadPoolExecutor(parts - 1) as pool:
            others = [
                pool.submit(_read_part_apart, snapshot, params, part, parts)
                for part in range(1, parts)
            ]
            first = _read_part(cursor, params, 0, parts)
            # the snapshot lives as long as this transaction: wait for every part
            return [first, *(other.result() for other in others)]


def _read_part_apart(snapshot: str, params: dict, part: int, parts: int) -> Pieces:
    """One part on a new connection of its own, in the exported ``snapshot``."""
    apart = connection.get_new_connection(connection.get_connection_params())
    try:
        apart.autocommit = True
        with apart.cursor() as cursor:
            cursor.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            cursor.execute(f"SET TRANSACTION SNAPSHOT '{_snapshot_id(snapshot)}'")
            data = _read_part(cursor, params, part, parts)
            cursor.execute("COMMIT")
        return data
    finally:
        apart.close()


def _snapshot_id(snapshot: str) -> str:
    """``pg_export_snapshot()``'s id, checked: SET TRANSACTION SNAPSHOT takes a literal."""
    if not re.fullmatch(r"[0-9A-Fa-f-]+", snapshot):
        raise ValueError(f"unexpected snapshot id {snapshot!r}")
    return snapshot


def _window_rows_orm(game: Game, month: date, oldest: date) -> list[Result]:
    seats = (
        MatchSeat.objects.filter(
            match__game=game,
            match__finished=True,
            match__status__in=["recorded", "corrected"],
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


def inputs_hash(results: Sequence[Result] | ResultColumns, params: Params) -> str:
    """A hash of everything the list depends on: the results and the parameters.

    sha256 of the parameters' JSON, then of every result's canonical JSON in canonical
    order (``canonical_json``: the same bytes whether the results come as columns or
    as ``Result`` objects).
    """
    if isinstance(results, ResultList):
        results = results.columns
    elif not isinstance(results, ResultColumns):
        results = ResultColumns.from_results(results)
    digest = hashlib.sha256()
    digest.update(json.dumps(params.as_dict(), sort_keys=True).encode())
    for block in canonical_json(results):
        digest.update(block)
    return digest.hexdigest()
