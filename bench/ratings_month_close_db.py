"""Benchmark: the monthly close end to end, through the service and PostgreSQL.

``bench/ratings_month_close.py`` times the engine alone on results held in memory.
This script times what the month close really does: ``ratings.services.ranking_publish``
on a PostgreSQL database holding a synthetic federation (default 100,000 players,
1,000,000 finished divisor matches over 12 months at tables of 2-4, ~3,000,000 seats,
~5% of tables with a tie, ~3% late results): load the window from the database
(``month_results``), hash the inputs, compute the list (``compute_ranking``) and store
the ~100,000 entries in one transaction (``_store``).

The script creates its own database (``quotient_bench`` by default; dropped and
recreated on every run unless ``--keep``), migrates it, and bulk-loads the federation
with PostgreSQL COPY. The matches are loaded in growing prefixes (250k, then 500k, then
1M by default), each size being timed before the next is loaded, so one load of 1M
results shows the scaling. Loading is benchmark setup, reported apart, and not part of
the target. Every size is verified: the published list must equal ``compute_ranking``
run directly on the same results, built here from the generated data (same entries,
same numbers bit for bit, same inputs hash).

    .venv/bin/python bench/ratings_month_close_db.py            # 250k / 500k / 1M, a few minutes
    .venv/bin/python bench/ratings_month_close_db.py --quick    # 50k smoke run, well under a minute
    .venv/bin/python bench/ratings_month_close_db.py --sizes 1000000 --repeat 3

Needs PostgreSQL at 127.0.0.1:5432 (user postgres, allowed to create databases);
``--server`` changes that.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np
from synthetic import synthetic_tables

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MONTH = date(2026, 11, 1)  # the list to close
MONTH_INDEX = MONTH.year * 12 + MONTH.month - 1
COPY_ROWS = 100_000  # matches per COPY block


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="smoke run: 5,000 players, 50,000 results"
    )
    parser.add_argument(
        "--sizes", help="comma-separated result counts (default 250000,500000,1000000)"
    )
    parser.add_argument("--players", type=int, help="default 100,000 (5,000 with --quick)")
    parser.add_argument("--repeat", type=int, help="timed runs per size, best reported (default 2)")
    parser.add_argument("--database", default="quotient_bench")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument(
        "--keep", action="store_true", help="reuse the database and its loaded matches"
    )
    parser.add_argument(
        "--no-verify", action="store_true", help="skip the comparison with the engine"
    )
    args = parser.parse_args()
    sizes = args.sizes or ("50000" if args.quick else "250000,500000,1000000")
    args.sizes = sorted({int(s.replace("_", "")) for s in sizes.split(",") if s.strip()})
    args.players = args.players or (5_000 if args.quick else 100_000)
    args.repeat = args.repeat or (1 if args.quick else 2)
    return args


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


def setup_django(server: str, name: str) -> None:
    os.environ["DATABASE_URL"] = f"{server}/{name}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "quotient.settings.test"
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


def copy_block(cursor, sql: str, lines: list[str]) -> None:
    with cursor.copy(sql) as copy:
        copy.write("".join(lines))


def load(fed: Federation, club_id: int, game_id: int, start: int, stop: int) -> float:
    """COPY players (first time) and matches ``start:stop`` with their seats; seconds.

    Benchmark setup, not demo data: raw COPY is fine here. It bypasses the scoring
    services on purpose (a million submissions would take hours) and writes exactly
    the columns the month close reads; foreign-key triggers are skipped
    (session_replication_role) since the generator's ids are consistent by
    construction. Indexes and unique constraints are maintained as usual.
    """
    from django.db import connection, transaction

    t = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        if start == 0:
            copy_block(
                cursor,
                "COPY tournaments_player (id, handle, display_name, club_id, country, public_name,"
                " created_at) FROM STDIN",
                [
                    f"{p}\tbench{p:06d}\tPlayer {p}\t{club_id}\tFR\tf\t2025-01-01 00:00:00+00\n"
                    for p in range(1, fed.players + 1)
                ],
            )
        for lo in range(start, stop, COPY_ROWS):
            hi = min(stop, lo + COPY_ROWS)
            counted = [_ym(m) for m in fed.counted[lo:hi].tolist()]
            late = fed.late[lo:hi].tolist()
            copy_block(
                cursor,
                "COPY scoring_match (id, game_id, club_id, played_on, submitted_at, record,"
                " verification, result, finished, fingerprint, counted_month, late) FROM STDIN",
                [
                    f"{i + 1}\t{game_id}\t{club_id}\t{fed.played_on[i]}\t{fed.played_on[i]} 20:00:00+00"
                    f"\t{{}}\tsummary\t{{}}\tt\t{fed.fingerprint[i]}\t{counted[i - lo]}-01"
                    f"\t{'t' if late[i - lo] else 'f'}\n"
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
                "COPY scoring_matchseat (match_id, player_id, seat, rank, details) FROM STDIN",
                [
                    f"{lo + k + 1}\t{seats[k][s]}\t{s + 1}\t{ranks[k][s]}\t{{}}\n"
                    for k in range(hi - lo)
                    for s in range(size[k])
                ],
            )
        for table in ("tournaments_player", "scoring_match"):
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))"
            )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE tournaments_player, scoring_match, scoring_matchseat")
    return time.perf_counter() - t


# -- timing --------------------------------------------------------------------------------


STEPS = (
    ("month_results", "load from DB"),
    ("inputs_hash", "inputs hash"),
    ("compute_ranking", "compute"),
    ("store_list", "store"),
)


class Timed:
    """Wraps the steps ranking_publish calls (module attributes of ratings.services)."""

    def __init__(self) -> None:
        from ratings import services

        self.services, self.seconds, self.saved = services, {}, {}

    def __enter__(self) -> Timed:
        for name, _ in STEPS:
            fn = self.saved[name] = getattr(self.services, name)
            setattr(self.services, name, self._wrap(name, fn))
        return self

    def __exit__(self, *exc) -> None:
        for name, fn in self.saved.items():
            setattr(self.services, name, fn)

    def _wrap(self, name, fn):
        def timed(*args, **kwargs):
            t = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - t

        return timed


def previous_list(game_id: int) -> None:
    """A published list of the month before, every player in it, so that the close also
    computes the movement against 100,000 stored entries, as a real month does.

    Benchmark setup: its numbers are made up, only its size and shape matter.
    """
    from django.db import connection

    previous = date(MONTH.year - (MONTH.month == 1), (MONTH.month - 2) % 12 + 1, 1)
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE ratings_rankingentry, ratings_rankinglist, ratings_rankingrun")
        cursor.execute(
            "INSERT INTO ratings_rankinglist (game_id, month, revision, published_at, inputs_hash,"
            " parameters, engine_version, results_counted)"
            " VALUES (%s, %s, 1, now(), '', '{}', 'bench', 0) RETURNING id",
            [game_id, previous],
        )
        ranking_id = cursor.fetchone()[0]
        cursor.execute(
            "INSERT INTO ratings_rankingentry (ranking_id, player_id, position, rank, fladub, mu,"
            " sigma, results_counted, movement, provisional)"
            " SELECT %s, id, row_number() OVER (ORDER BY id),"
            "  CASE WHEN id %% 10 = 0 THEN NULL ELSE row_number() OVER (ORDER BY id) END,"
            "  2000 - id %% 997, 25.0, 8.0, 5, NULL, id %% 10 = 0 FROM tournaments_player",
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


def publish_once(game) -> tuple[float, dict[str, float], object]:
    from ratings.models import RankingRun
    from ratings.services import ranking_publish

    clear_rankings()
    with Timed() as timed:
        t = time.perf_counter()
        run = ranking_publish(game=game, month=MONTH)
        total = time.perf_counter() - t
    if run.status != RankingRun.Status.PUBLISHED:
        raise SystemExit(f"run ended {run.status}: {run.message}")
    return total, timed.seconds, run.ranking


def verify(fed: Federation, size: int, ranking) -> str:
    """The stored list against compute_ranking on the generated results."""
    from ratings.engine.ranking import compute_ranking
    from ratings.engine.results import window_results
    from ratings.services import inputs_hash, ranking_params

    params = ranking_params()
    window = window_results(fed.results(size), MONTH_INDEX, params)
    expected = compute_ranking(window, MONTH_INDEX, params)
    stored = list(
        ranking.entries.order_by("position").values_list(
            "player_id", "rank", "fladub", "mu", "sigma", "results_counted", "provisional"
        )
    )
    wanted = [
        (int(e.player), e.rank, e.fladub, e.mu, e.sigma, e.results_counted, e.provisional)
        for e in expected.entries
    ]
    problems = []
    if stored != wanted:
        differ = sum(1 for a, b in zip(stored, wanted, strict=False) if a != b)
        problems.append(
            f"entries differ ({len(stored):,} stored, {len(wanted):,} expected, {differ:,} unequal)"
        )
    if ranking.results_counted != len(window):
        problems.append(f"results_counted {ranking.results_counted:,} != {len(window):,}")
    if ranking.inputs_hash != inputs_hash(window, params):
        problems.append("inputs hash differs")
    from django.db import connection

    with connection.cursor() as cursor:  # movement: places gained since the previous list
        cursor.execute(
            "SELECT count(*) FROM ratings_rankingentry e LEFT JOIN ratings_rankingentry p"
            " ON p.player_id = e.player_id AND p.ranking_id IN"
            "  (SELECT id FROM ratings_rankinglist WHERE month < %s)"
            " WHERE e.ranking_id = %s AND e.movement IS DISTINCT FROM p.rank - e.rank",
            [MONTH, ranking.pk],
        )
        wrong = cursor.fetchone()[0]
    if wrong:
        problems.append(f"{wrong:,} entries with a wrong movement")
    if problems:
        raise SystemExit(f"VERIFICATION FAILED at {size:,} results: " + "; ".join(problems))
    return (
        f"identical to compute_ranking on the same {len(window):,} results ({len(wanted):,} entries,"
        " movement against the previous list checked)"
    )


def main() -> None:
    args = parse_args()
    total_results = args.sizes[-1]
    print(
        f"month close end to end: list {MONTH:%Y-%m}, {args.players:,} players, sizes "
        f"{', '.join(f'{s:,}' for s in args.sizes)} results; best of {args.repeat}; "
        f"database {args.database}{' (kept)' if args.keep else ''}"
    )
    t = time.perf_counter()
    fed = Federation(args.players, total_results)
    print(f"federation generated in {time.perf_counter() - t:.1f} s")

    t = time.perf_counter()
    create_database(args.server, args.database, args.keep)
    setup_django(args.server, args.database)
    print(f"database created and migrated in {time.perf_counter() - t:.1f} s")
    game, club, loaded = bench_fixtures(fed)

    rows = []
    for size in args.sizes:
        if loaded > size:
            raise SystemExit(f"the kept database holds {loaded:,} matches, more than {size:,}")
        if loaded < size:
            seconds = load(fed, club.pk, game.pk, loaded, size)
            seats = int(fed.size[loaded:size].sum())
            print(
                f"loaded matches {loaded + 1:,}..{size:,} ({size - loaded:,} matches, {seats:,} seats) "
                f"with COPY in {seconds:.1f} s  [setup, not timed]"
            )
            loaded = size
        previous_list(game.pk)
        best = None
        for _ in range(args.repeat):
            total, steps, ranking = publish_once(game)
            print(
                f"  {size:>9,} results: ranking_publish {total:6.2f} s  ("
                + ", ".join(f"{label} {steps.get(name, 0.0):.2f}" for name, label in STEPS)
                + ")"
            )
            if best is None or total < best[0]:
                best = (total, steps, ranking.results_counted, ranking.entries.count())
        check = "not verified" if args.no_verify else verify(fed, size, ranking)
        print(f"  {size:>9,} results: {check}")
        rows.append((size, *best))

    print()
    print(f"best of {args.repeat}, seconds (ranking_publish end to end; the steps are inside it):")
    header = f"{'results':>10} {'window':>9} {'entries':>8} " + " ".join(
        f"{label:>13}" for _, label in STEPS
    )
    print(header + f" {'other':>7} {'total':>7} {'us/result':>9}")
    for size, total, steps, window, entries in rows:
        other = total - sum(steps.get(name, 0.0) for name, _ in STEPS)
        print(
            f"{size:>10,} {window:>9,} {entries:>8,} "
            + " ".join(f"{steps.get(name, 0.0):>13.2f}" for name, _ in STEPS)
            + f" {other:>7.2f} {total:>7.2f} {total / size * 1e6:>9.2f}"
        )
    size, total = rows[-1][0], rows[-1][1]
    if len(rows) > 1:
        first = rows[0]
        ratio = (total / size) / (first[1] / first[0])
        print(
            f"cost per result at {size:,} vs {first[0]:,}: x{ratio:.2f} (1.00 = linear; load, hash and"
            " compute grow with the results, store with the entries, i.e. the players)"
        )
    target = 60.0 * size / 1_000_000
    verdict = "met" if total <= target else "MISSED"
    scale = "" if size == 1_000_000 else f" (scaled to {size:,} results: {target:.1f} s)"
    print(f"target: 12-month close of 1,000,000 results <= 60 s{scale}: {verdict} ({total:.1f} s)")
    if args.keep:
        print(f"database {args.database} kept with {loaded:,} matches")
    else:
        from django.db import connections

        connections.close_all()
        drop_database(args.server, args.database)


if __name__ == "__main__":
    main()
