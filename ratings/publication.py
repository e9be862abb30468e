"""Writing a published list: the list row, its entries and its page marks.

A list is about a hundred thousand entries, written at once at the end of the month
close (``ratings.close``), in the transaction that publishes it. On PostgreSQL they go
in as one binary COPY whose rows numpy lays out (``store_list``: no object or SQL
literal per entry), and the server checks their players in one query instead of a
foreign key checked row by row; SQLite (the quick start) takes the portable ORM path.
*Page marks* (``list_parts_store``) let a page of a long list start near its place.
"""

from __future__ import annotations

import itertools
from concurrent.futures import Future
from datetime import date
from operator import attrgetter

import numpy as np
from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, Max, OuterRef
from django.db.models.functions import Coalesce
from django.utils import timezone

from federation.models import Game, Player
from federation.months import previous_month
from ratings.engine.params import ENGINE_VERSION
from ratings.models import RankingEntry, RankingList
from ratings.storage import concrete_field, quoted_column
from ratings.window_copy import COPY_SIGNATURE

#: the columns of a stored entry, in the order ``_copy_entries`` writes them
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

#: an entry column: its values, and where it is NULL (None: nowhere)
Column = tuple[np.ndarray, np.ndarray | None]


@transaction.atomic
def store_list(
    game: Game, month: date, computed, digest: str | Future[str], results_count: int
) -> RankingList:
    """Publish ``computed`` as the next revision of (game, month), entries and all.

    On PostgreSQL the ~100,000 entries go in as one binary COPY built by numpy (no
    object or SQL literal per entry); the rest of the step is the server's: five
    indexes per entry, at commit the deferred check of each entry's list, and one
    set-based check of all their players (``_check_players``, under ``_lock_players``,
    in place of a foreign key checked row by row).
    The table is analysed in the same transaction (``_analyze_entries``). A ``digest``
    still being computed (a future) is waited for only once the entries are in, and
    stored in the same transaction: the list is never seen without it.
    """
    revision = (
        RankingList.objects.filter(game=game, month=month).aggregate(top=Max("revision"))["top"]
        or 0
    ) + 1
    ranking = RankingList.objects.create(
        game=game,
        month=month,
        revision=revision,
        published_at=timezone.now(),
        inputs_hash=digest if isinstance(digest, str) else "",
        parameters=computed.params.as_dict(),
        engine_version=ENGINE_VERSION,
        results_counted=results_count,
    )
    columns = _entry_columns(ranking.pk, computed.entries, _previous_ranks(game, month))
    if connection.vendor == "postgresql":
        _lock_players()
        _copy_entries(columns)
        _check_players(ranking)
        _analyze_entries()
    else:  # the quick start (SQLite)
        _create_entries(columns)
    if not isinstance(digest, str):
        ranking.inputs_hash = digest.result()
        ranking.save(update_fields=["inputs_hash"])
    return ranking


def _previous_ranks(game: Game, month: date) -> tuple[np.ndarray, np.ndarray] | None:
    """Players and ranks (-1: unranked) of the latest list of the month before."""
    previous = previous_month(month)
    latest = RankingList.objects.filter(game=game, month=previous).order_by("-revision").first()
    if latest is None:
        return None
    if connection.vendor == "postgresql":
        return _previous_ranks_copy(latest.pk)
    # rank >= 0 is a constraint: -1 stands for NULL
    rows = latest.entries.order_by().values_list("player_id", Coalesce("rank", -1))
    flat = itertools.chain.from_iterable(rows.iterator(chunk_size=20_000))
    table = np.fromiter(flat, np.int64).reshape(-1, 2)
    return table[:, 0], table[:, 1]


def _previous_ranks_copy(ranking: int) -> tuple[np.ndarray, np.ndarray]:
    """``_previous_ranks`` on PostgreSQL: a million entries as one row of two columns
    (binary COPY of aggregates, read by numpy), not a million rows."""
    player, rank, list_id = (quoted_column(RankingEntry, f) for f in ("player", "rank", "ranking"))
    sql = (
        f"COPY (SELECT string_agg(int8send({player}::int8), ''),"
        f" string_agg(int8send(coalesce({rank}, -1)::int8), '')"
        f" FROM {connection.ops.quote_name(RankingEntry._meta.db_table)}"
        f" WHERE {list_id} = {int(ranking)}) TO STDOUT (FORMAT binary)"
    )
    with connection.cursor() as cursor, cursor.copy(sql) as copy:
        copy.set_types(["bytea", "bytea"])
        (row,) = list(copy.rows())  # aggregates of no rows: one row of NULLs
    players, ranks = (np.frombuffer(value or b"", ">i8").astype(np.int64) for value in row)
    return players, ranks


def _entry_columns(
    ranking: int, entries, previous: tuple[np.ndarray, np.ndarray] | None
) -> dict[str, Column]:
    """The stored columns of ``entries`` (in list order), movement included: places
    gained since ``previous`` where the player was ranked in both (``movement``)."""
    n = len(entries)
    players = np.fromiter(map(int, map(attrgetter("player"), entries)), np.int64, n)
    ranks = np.fromiter(
        (-1 if r is None else r for r in map(attrgetter("rank"), entries)), np.int64, n
    )
    moved = np.zeros(n, dtype=bool)
    change = np.zeros(n, dtype=np.int64)
    if previous is not None and previous[0].size:
        order = np.argsort(previous[0])
        known, known_ranks = previous[0][order], previous[1][order]
        at = np.minimum(np.searchsorted(known, players), known.size - 1)
        before = np.where(known[at] == players, known_ranks[at], -1)
        moved = (before >= 0) & (ranks >= 0)
        change = np.where(moved, before - ranks, 0)

    def values(name: str, kind: type) -> np.ndarray:
        return np.fromiter(map(attrgetter(name), entries), kind, n)

    return {
        "ranking": (np.full(n, ranking, np.int64), None),
        "player": (players, None),
        "position": (np.arange(1, n + 1), None),
        "rank": (np.maximum(ranks, 0), ranks < 0),
        "fladub": (values("fladub", np.int64), None),
        "mu": (values("mu", np.float64), None),
        "sigma": (values("sigma", np.float64), None),
        "results_counted": (values("results_counted", np.int64), None),
        "provisional": (values("provisional", np.bool_), None),
        "movement": (change, ~moved),
    }


#: PostgreSQL's binary form of the entry columns' types
_BINARY = {"bigint": ">i8", "integer": ">i4", "double precision": ">f8", "boolean": "?"}


def _copy_entries(columns: dict[str, Column]) -> None:
    """One ``COPY ... FROM STDIN (FORMAT binary)``, its rows laid out by numpy: each
    row a field count, then per field its length and big-endian value; a NULL is
    length -1 and no value (dropped from the row by a byte mask)."""
    kinds = [
        _BINARY[concrete_field(RankingEntry, name).db_type(connection) or ""]
        for name in _ENTRY_FIELDS
    ]
    layout = [("fields", ">i2")]
    for i, kind in enumerate(kinds):
        layout += [(f"length{i}", ">i4"), (f"value{i}", kind)]
    rows = np.zeros(len(columns["player"][0]), np.dtype(layout))
    rows["fields"] = len(kinds)
    keep = np.ones((rows.size, rows.dtype.itemsize), dtype=bool)
    offset = 2  # after the field count
    for i, name in enumerate(_ENTRY_FIELDS):
        values, null = columns[name]
        size = np.dtype(kinds[i]).itemsize
        rows[f"value{i}"] = values
        rows[f"length{i}"] = size
        offset += 4
        if null is not None:
            rows[f"length{i}"][null] = -1
            keep[null, offset : offset + size] = False
        offset += size
    body = rows.view(np.uint8).reshape(rows.size, rows.dtype.itemsize)[keep]
    sql = "COPY {} ({}) FROM STDIN (FORMAT binary)".format(
        connection.ops.quote_name(RankingEntry._meta.db_table),
        ", ".join(quoted_column(RankingEntry, name) for name in _ENTRY_FIELDS),
    )
    with connection.cursor() as cursor, cursor.copy(sql) as copy:
        copy.write(COPY_SIGNATURE + bytes(8) + body.tobytes() + b"\xff\xff")


def _lock_players() -> None:
    """Keep the players table from writes (reads go on) until the list is committed:
    no player the list names can be deleted between ``_check_players`` and the commit.
    It stands in for the entries' foreign key, whose check locks each of the list's
    100,000 players one by one (~3 s of the month close); player edits wait for the
    end of the store step (a few seconds, once a month)."""
    table = connection.ops.quote_name(Player._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"LOCK TABLE {table} IN SHARE MODE")


def _check_players(ranking: RankingList) -> None:
    """Every player ``ranking`` names exists (one anti-join): ``IntegrityError``
    otherwise, and the publishing transaction stores nothing."""
    missing = (
        RankingEntry.objects.filter(ranking=ranking)
        .exclude(Exists(Player.objects.filter(pk=OuterRef("player_id"))))
        .values_list("player_id", flat=True)
        .first()
    )
    if missing is not None:
        raise IntegrityError(
            f"ranking list {ranking.pk} names player {missing}, who does not exist"
        )


def _analyze_entries() -> None:
    """``ANALYZE`` the entries table, so that the planner knows the new list as soon as
    it is published: a list is 100,000 rows at once, and autovacuum may not analyse
    the table for a long time, while the pages read a list by ranges of it. Run in the
    publishing transaction, it samples the new rows too (its own, not yet committed)
    and its statistics are committed with them; it samples a bounded number of rows
    (``default_statistics_target``), so it costs the same on a table of any size."""
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {connection.ops.quote_name(RankingEntry._meta.db_table)}")


def _create_entries(columns: dict[str, Column]) -> None:
    """The portable way (the quick start): model instances and ``bulk_create``."""
    names = [
        f"{name}_id" if RankingEntry._meta.get_field(name).is_relation else name
        for name in _ENTRY_FIELDS
    ]
    lists = []
    for name in _ENTRY_FIELDS:
        values, null = columns[name]
        column = values.tolist()
        for i in [] if null is None else np.flatnonzero(null).tolist():
            column[i] = None
        lists.append(column)
    RankingEntry.objects.bulk_create(
        (RankingEntry(**dict(zip(names, row, strict=True))) for row in zip(*lists, strict=True)),
        batch_size=5_000,
    )


#: a page mark every this many entries of a part (``RankingList.page_marks``)
MARK_STEP = 100


def list_parts_store(ranking: RankingList, provisional: list[bool]) -> None:
    """Store the sizes of ``ranking``'s two parts (ranked, provisional) and their page
    marks: the position of every ``MARK_STEP``-th entry of each part. Positions are
    dense over the whole list, but the two parts interleave, so a page of one part
    starts at a mark and skips fewer than ``MARK_STEP`` entries (``ratings.selectors.
    ListPart``), at any depth. ``provisional``: each entry's flag, in position order."""
    flags = np.asarray(provisional, dtype=bool)
    positions = np.arange(1, flags.size + 1)
    ranked, listed = positions[~flags], positions[flags]
    ranking.ranked_count, ranking.provisional_count = int(ranked.size), int(listed.size)
    ranking.page_marks = {
        "step": MARK_STEP,
        "ranked": ranked[::MARK_STEP].tolist(),
        "provisional": listed[::MARK_STEP].tolist(),
    }
    ranking.save(update_fields=["ranked_count", "provisional_count", "page_marks"])
