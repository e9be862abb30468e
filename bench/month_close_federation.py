"""The month-close benchmark's federation: generated, then loaded into PostgreSQL.

``bench/ratings_month_close_db.py`` closes a month on it. :class:`Federation` generates
the matches as columns (``synthetic.synthetic_tables``); :func:`load` writes a prefix of
them with COPY into a database this module creates (benchmark setup, not demo data),
and :func:`previous_list` stores the list of the month before.
"""

from __future__ import annotations

import json
import os
import time
from datetime import date

import numpy as np
from synthetic import last_closed_month, synthetic_tables

MONTH = last_closed_month()  # the list to close (an open month is refused)
MONTH_INDEX = MONTH.year * 12 + MONTH.month - 1
COPY_ROWS = 100_000  # matches per COPY block


# -- the synthetic federation ----------------------------------------------------------


class Federation:
    """Generated matches as columns; match i has id i + 1, player p has id p + 1."""

    def __init__(self, n_players: int, n_results: int, seed: int = 1) -> None:
        rng = np.random.default_rng(seed)
        size, seats, ranks = synthetic_tables(rng, n_players, n_results)
        played = MONTH_INDEX - rng.integers(0, 12, n_results)
        late = rng.random(n_results) < 0.03
        # a late result counts one or two months later; MONTH + 1 is not in this list
        counted = np.minimum(played + late * rng.integers(1, 3, n_results), MONTH_INDEX + 1)
        day = rng.integers(1, 29, n_results)
        digest = rng.bytes(32 * n_results)  # stands in for the sha256 of each record
        self.players, self.size, self.seats, self.ranks = n_players, size, seats + 1, ranks
        self.played, self.counted, self.late = played, counted, late
        self.played_on = [
            f"{_ym(m)}-{d:02d}" for m, d in zip(played.tolist(), day.tolist(), strict=True)
        ]
        self.fingerprint = [digest[32 * i : 32 * i + 32].hex() for i in range(n_results)]

    def __len__(self) -> int:
        return len(self.played_on)

    def results(self, stop: int) -> list:
        """The first ``stop`` matches as engine results, built as the service defines them."""
        from ratings.engine.results import Result

        size, seats, ranks = (
            self.size[:stop].tolist(),
            self.seats[:stop].tolist(),
            self.ranks[:stop].tolist(),
        )
        played, counted = self.played[:stop].tolist(), self.counted[:stop].tolist()
        return [
            Result(
                key=f"{self.played_on[i]}:{self.fingerprint[i]}",
                played=played[i],
                counted=counted[i],
                players=tuple(str(p) for p in seats[i][: size[i]]),
                ranks=tuple(ranks[i][: size[i]]),
            )
            for i in range(stop)
        ]


def _ym(index: int) -> str:
    year, month0 = divmod(index, 12)
    return f"{year:04d}-{month0 + 1:02d}"


# -- the database ------------------------------------------------------------------------


def create_database(server: str, name: str, keep: bool) -> None:
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if exists and keep:
            return
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(server: str, name: str) -> None:
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def setup_django(server: str, name: str, broker: str, chunk_size: int) -> None:
    os.environ["DATABASE_URL"] = f"{server}/{name}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "quotient.settings.test"
    os.environ["CELERY_BROKER_URL"] = broker
    os.environ["RANKING_CHUNK_SIZE"] = str(chunk_size)
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)


def bench_fixtures(fed: Federation):
    """The game, the club, and how many matches of ``fed`` are already loaded."""
    from federation.models import Club, Game, Player
    from scoring.models import Match

    game = Game.objects.get(key="divisor")
    label = f"bench federation: {fed.players} players, seed 1"
    club, _ = Club.objects.get_or_create(slug="bench", defaults={"name": label, "country": "FR"})
    loaded = Match.objects.filter(game=game).count()
    if club.name != label or (loaded and Player.objects.count() != fed.players):
        raise SystemExit("the kept database holds another federation; run without --keep")
    return game, club, loaded


def tables() -> tuple[str, str, str]:
    """The tables COPY writes: players, matches, seats (named by the models)."""
    from federation.models import Player
    from scoring.models import Match, MatchSeat

    return Player._meta.db_table, Match._meta.db_table, MatchSeat._meta.db_table


def column_defaults(written: list[str]) -> tuple[str, str]:
    """The match columns COPY does not write that need a value (NOT NULL, with a model
    default, e.g. a status): ``", col, ..."`` and the ``"\tvalue..."`` to append."""
    from scoring.models import Match

    fields = [
        f
        for f in Match._meta.concrete_fields
        if f.column not in written and not f.null and f.has_default()
    ]
    values = [f.get_prep_value(f.get_default()) for f in fields]
    text = ["t" if v is True else "f" if v is False else str(v) for v in values]
    return "".join(f", {f.column}" for f in fields), "".join(f"\t{v}" for v in text)


def player_columns():
    """Player columns the model derives from the display name on save (COPY skips
    ``save``): ``", col"`` and a function of the display name giving ``"\tvalue"``."""
    from federation import models

    if "search_name" not in {f.name for f in models.Player._meta.concrete_fields}:
        return "", lambda name: ""
    return ", search_name", lambda name: f"\t{models.search_key(name)}"


def copy_block(cursor, sql: str, lines: list[str]) -> None:
    with cursor.copy(sql) as copy:
        copy.write("".join(lines))


def load(fed: Federation, club_id: int, game_id: int, start: int, stop: int) -> float:
    """COPY players (first time) and matches ``start:stop`` with their seats; seconds.

    Benchmark setup, not demo data: raw COPY is fine here. It bypasses the scoring
    services on purpose (a million submissions would take hours) and writes exactly
    the columns the month close reads; foreign-key triggers are skipped
    (session_replication_role) since the generator's ids are consistent by
    construction. The tables' indexes and unique constraints (all but primary keys)
    are dropped for the load and built again at its end, in the same transaction: 30
    million seats go in some ten times faster than through five indexes each.
    """
    from django.db import connection, transaction

    player, match, seat = tables()
    t = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute("SET LOCAL maintenance_work_mem = '1GB'")
        rebuilt = _drop_indexes(cursor, [match, seat] + ([player] if start == 0 else []))
        if start == 0:
            columns, derived = player_columns()
            copy_block(
                cursor,
                f"COPY {player} (id, handle, display_name, club_id, country, public_name,"
                f" created_at{columns}) FROM STDIN",
                [
                    f"{p}\tbench{p:06d}\tPlayer {p}\t{club_id}\tFR\tf\t2025-01-01 00:00:00+00"
                    f"{derived(f'Player {p}')}\n"
                    for p in range(1, fed.players + 1)
                ],
            )
        written = (
            "id, game_id, club_id, played_on, submitted_at, record, verification, result,"
            " finished, fingerprint, counted_month, late"
        )
        defaults, default_values = column_defaults(written.split(", "))
        for lo in range(start, stop, COPY_ROWS):
            hi = min(stop, lo + COPY_ROWS)
            counted = [_ym(m) for m in fed.counted[lo:hi].tolist()]
            late = fed.late[lo:hi].tolist()
            copy_block(
                cursor,
                f"COPY {match} ({written}{defaults}) FROM STDIN",
                [
                    f"{i + 1}\t{game_id}\t{club_id}\t{fed.played_on[i]}\t{fed.played_on[i]} 20:00:00+00"
                    f"\t{{}}\tsummary\t{{}}\tt\t{fed.fingerprint[i]}\t{counted[i - lo]}-01"
                    f"\t{'t' if late[i - lo] else 'f'}{default_values}\n"
                    for i in range(lo, hi)
                ],
            )
            size, seats, ranks = (
                fed.size[lo:hi].tolist(),
                fed.seats[lo:hi].tolist(),
                fed.ranks[lo:hi].tolist(),
            )
            copy_block(
                cursor,
                f"COPY {seat} (match_id, player_id, seat, rank, details) FROM STDIN",
                [
                    f"{lo + k + 1}\t{seats[k][s]}\t{s + 1}\t{ranks[k][s]}\t{{}}\n"
                    for k in range(hi - lo)
                    for s in range(size[k])
                ],
            )
        for table in (player, match):
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
            )
        for statement in rebuilt:
            cursor.execute(statement)
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {player}, {match}, {seat}")
    return time.perf_counter() - t


def _drop_indexes(cursor, tables: list[str]) -> list[str]:
    """Drop the indexes and unique constraints of ``tables`` but their primary keys;
    the statements that build them again."""
    cursor.execute(
        "SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid),"
        " c.conname, c.conrelid::regclass::text, pg_get_constraintdef(c.oid)"
        " FROM pg_index i LEFT JOIN pg_constraint c ON c.conindid = i.indexrelid"
        "  AND c.contype IN ('u', 'p', 'x')"
        " WHERE i.indrelid = ANY(%s::regclass[]) AND NOT i.indisprimary",
        [tables],
    )
    rebuilt = []
    for index, definition, constraint, table, constraint_definition in cursor.fetchall():
        if constraint is None:
            cursor.execute(f"DROP INDEX {index}")
            rebuilt.append(definition)
        else:
            cursor.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{constraint}"')
            rebuilt.append(
                f'ALTER TABLE {table} ADD CONSTRAINT "{constraint}" {constraint_definition}'
            )
    return rebuilt


def previous_list(game_id: int) -> None:
    """A published list of the month before, every player in it, so that the close also
    computes the movement against 100,000 stored entries, as a real month does.

    Benchmark setup: its numbers are made up, only its size and shape matter.
    """
    from django.db import connection

    from ratings.engine.params import Params

    previous = date(MONTH.year - (MONTH.month == 1), (MONTH.month - 2) % 12 + 1, 1)
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE ratings_rankingentry, ratings_rankinglist, ratings_rankingrun")
        cursor.execute(
            "INSERT INTO ratings_rankinglist (game_id, month, revision, published_at, inputs_hash,"
            " parameters, engine_version, results_counted)"
            " VALUES (%s, %s, 1, now(), '', %s, 'bench', 0) RETURNING id",
            # the parameters a list is published with: its page shows them
            [game_id, previous, json.dumps(Params().as_dict())],
        )
        ranking_id = cursor.fetchone()[0]
        cursor.execute(
            "INSERT INTO ratings_rankingentry (ranking_id, player_id, position, rank, fladub, mu,"
            " sigma, results_counted, movement, provisional)"
            " SELECT %s, id, row_number() OVER (ORDER BY id),"
            "  CASE WHEN id %% 10 = 0 THEN NULL ELSE row_number() OVER (ORDER BY id) END,"
            f"  2000 - id %% 997, 25.0, 8.0, 5, NULL, id %% 10 = 0 FROM {tables()[0]}",
            [ranking_id],
        )


def clear_rankings() -> None:
    """Remove the list of MONTH (and the runs): each timed run publishes it anew."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM ratings_rankingrun")
        cursor.execute(
            "DELETE FROM ratings_rankingentry WHERE ranking_id IN"
            " (SELECT id FROM ratings_rankinglist WHERE month = %s)",
            [MONTH],
        )
        cursor.execute("DELETE FROM ratings_rankinglist WHERE month = %s", [MONTH])
