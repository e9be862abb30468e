"""Benchmark: the monthly close end to end, through the service and PostgreSQL.

``bench/ratings_month_close.py`` times the engine alone on results held in memory.
This script times what the month close really does: ``ratings.services.ranking_publish``
on a PostgreSQL database holding a synthetic federation (default 100,000 players,
1,000,000 finished divisor matches over 12 months at tables of 2-4, ~3,000,000 seats,
~5% of tables with a tie, ~3% late results) and its last closed month (the service
refuses open months): load the window from the database as columns (``month_columns``),
hash the inputs, compute the list (``compute_ranking``) and store the ~100,000 entries
in one transaction (``_publish``: ``store_list``'s COPY, indexes and ANALYZE, the
list's counts, and the commit with its deferred foreign-key checks). Each step is the
close's own function, wrapped where the orchestrator (``ratings.close``) calls it
(``Timed``).

The script creates its own database (``quotient_bench`` by default; dropped and
recreated on every run unless ``--keep``), migrates it, and bulk-loads the federation
with PostgreSQL COPY. The matches are loaded in growing prefixes (250k, then 500k, then
1M by default), each size being timed before the next is loaded, so one load of 1M
results shows the scaling. Loading is benchmark setup, reported apart, and not part of
the target. Every size is verified: the published list must equal ``compute_ranking``
run directly on the same results, built here from the generated data (same entries,
same numbers bit for bit, same inputs hash).

Each step is timed three ways: wall time, the CPU time of this process (``os.times``,
children included) and the CPU time of its PostgreSQL backend (from ``/proc``, when the
server runs on this machine). Outside a transaction the window is read in parts on two
connections (``ratings.storage.WINDOW_PARTS``): the second backend's CPU time is not
counted, so the load step's PostgreSQL CPU is about half the server's work. The inputs
hash runs in a thread during the store step (``CONCURRENT``). On a machine shared
with other jobs wall time includes waiting for them; the target (<= 15 s at 1,000,000
results) is judged on both.

    .venv/bin/python bench/ratings_month_close_db.py            # 250k / 500k / 1M, a few minutes
    .venv/bin/python bench/ratings_month_close_db.py --quick    # 50k smoke run, well under a minute
    .venv/bin/python bench/ratings_month_close_db.py --sizes 1000000 --repeat 3
    .venv/bin/python bench/ratings_month_close_db.py --players 20000 --sizes 200000 \
        --dump /tmp/close --fan-out 2 --chunk-size 5000   # lists to compare byte for byte

``--dump PREFIX`` writes each published list as canonical JSON (every stored number,
floats exact) and prints its sha256, so that two versions of the code can be compared
byte for byte. ``--fan-out N`` also publishes each size the way beat does, through the
``publish_ranking`` task with ``RANKING_FAN_OUT`` on a real ``celery worker`` of N
processes (broker ``--broker``, Redis), and fails unless that list is byte-identical to
the in-process one.

Needs PostgreSQL at 127.0.0.1:5432 (user postgres, allowed to create databases);
``--server`` changes that.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import json
import os
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import numpy as np
from synthetic import last_closed_month, synthetic_tables

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


MONTH = last_closed_month()  # the list to close (an open month is refused)
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
    parser.add_argument(
        "--repeat", type=int, help="timed runs per size, median and best reported (default 2)"
    )
    parser.add_argument("--database", default="quotient_bench")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument(
        "--keep", action="store_true", help="reuse the database and its loaded matches"
    )
    parser.add_argument(
        "--no-verify", action="store_true", help="skip the comparison with the engine"
    )
    parser.add_argument(
        "--dump",
        metavar="PREFIX",
        help="write each published list as canonical JSON to PREFIX-<size>.json (and "
        "PREFIX-<size>-fan-out.json) and print its sha256, to compare runs byte for byte",
    )
    parser.add_argument(
        "--fan-out",
        type=int,
        metavar="WORKERS",
        help="also publish each size through the Celery task, fanned out to a real worker "
        "with this many processes, and check the list is identical to the in-process one",
    )
    parser.add_argument("--chunk-size", type=int, default=20_000, help="results per chunk task")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/11")
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
    construction. Indexes and unique constraints are maintained as usual.
    """
    from django.db import connection, transaction

    player, match, seat = tables()
    t = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
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
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {player}, {match}, {seat}")
    return time.perf_counter() - t


# -- timing --------------------------------------------------------------------------------


#: the steps of the close, each a function of ratings.close (of ratings.services before
#: the close had a module of its own), by the first of its names it has: the window is read as columns (``month_columns``;
#: ``month_results`` in older versions), and the store step is ``_publish``: writing
#: the list (``store_list``: the COPY, the indexes, ANALYZE), its counts and the commit,
#: at which PostgreSQL checks the deferred foreign keys of every entry
STEPS = (
    (("month_columns", "month_results"), "load"),
    (("inputs_hash",), "hash"),
    (("compute_ranking",), "compute"),
    (("_publish", "store_list"), "store"),
)
#: steps that run in a thread alongside the others (the inputs hash, during the store
#: step): their times overlap the others', and are not subtracted for 'other'; their
#: CPU time is the whole process's over their span (``os.times`` is per process)
CONCURRENT = {"hash"}


class Clock:
    """Wall time, this process's CPU time (``os.times``, children included: a fanned-out
    close's worker is a child) and the CPU time of our PostgreSQL backend (read from
    ``/proc`` when the server runs on this machine, else None). On a machine other
    jobs share, wall time waits for them; CPU time counts only the work."""

    def __init__(self) -> None:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        self.stat = Path(f"/proc/{pid}/stat")
        if not os.access(self.stat, os.R_OK):
            self.stat = None

    def now(self) -> tuple[float, float, float | None]:
        t = os.times()
        return (
            time.perf_counter(),
            t.user + t.system + t.children_user + t.children_system,
            self.server(),
        )

    def server(self) -> float | None:
        if self.stat is None:
            return None
        fields = self.stat.read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def spent(start, stop) -> tuple[float, float, float | None]:
    """(wall, ours, PostgreSQL's) seconds between two ``Clock.now()``."""
    server = None if start[2] is None or stop[2] is None else stop[2] - start[2]
    return stop[0] - start[0], stop[1] - start[1], server


class Timed:
    """Wraps the steps the close calls (module attributes of ``ratings.close``, or of
    ``ratings.services`` in versions before it), to time the code of either."""

    def __init__(self, clock: Clock) -> None:
        name = "ratings.close" if importlib.util.find_spec("ratings.close") else "ratings.services"
        self.services = importlib.import_module(name)
        self.clock, self.steps, self.saved = clock, {}, {}

    def __enter__(self) -> Timed:
        for names, label in STEPS:
            attribute = next((n for n in names if hasattr(self.services, n)), None)
            if attribute is None:
                raise SystemExit(f"{self.services.__name__} has none of {names} ({label})")
            fn = self.saved[attribute] = getattr(self.services, attribute)
            setattr(self.services, attribute, self._wrap(label, fn))
        return self

    def __exit__(self, *exc) -> None:
        for attribute, fn in self.saved.items():
            setattr(self.services, attribute, fn)

    def _wrap(self, name, fn):
        def timed(*args, **kwargs):
            start = self.clock.now()
            try:
                return fn(*args, **kwargs)
            finally:
                self.steps[name] = spent(start, self.clock.now())

        return timed


def describe(times) -> str:
    """``wall W s, CPU C s + PostgreSQL P s``."""
    wall, ours, server = times
    pg = "" if server is None else f" + PostgreSQL {server:.2f}"
    return f"wall {wall:.2f}, CPU {ours:.2f}{pg}"


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


def publish_once(game, clock: Clock) -> tuple[tuple, dict[str, tuple], object]:
    from ratings.models import RankingRun
    from ratings.services import ranking_publish

    clear_rankings()
    with Timed(clock) as timed:
        start = clock.now()
        run = ranking_publish(game=game, month=MONTH)
        total = spent(start, clock.now())
    if run.status != RankingRun.Status.PUBLISHED:
        raise SystemExit(f"run ended {run.status}: {run.message}")
    return total, timed.steps, run.ranking


def verify(fed: Federation, size: int, ranking) -> str:
    """The stored list against compute_ranking on the generated results."""
    from ratings.close import ranking_params
    from ratings.engine.ranking import compute_ranking
    from ratings.engine.results import window_results
    from ratings.storage import inputs_hash

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


def canonical_list(ranking) -> bytes:
    """The published list as canonical JSON: every stored number (floats exact as repr)."""
    rows = ranking.entries.order_by("position").values_list(
        "position",
        "player_id",
        "rank",
        "fladub",
        "mu",
        "sigma",
        "results_counted",
        "provisional",
        "movement",
    )
    content = {
        "game": ranking.game.key,
        "month": ranking.month.isoformat()[:7],
        "inputs_hash": ranking.inputs_hash,
        "parameters": ranking.parameters,
        "engine_version": ranking.engine_version,
        "results_counted": ranking.results_counted,
        "entries": [list(row) for row in rows],
    }
    return json.dumps(content, sort_keys=True, separators=(",", ":")).encode()


def fingerprint(ranking, dump: str | None, name: str) -> str:
    """sha256 of the canonical list; written to ``<dump>-<name>.json`` when asked."""
    blob = canonical_list(ranking)
    if dump:
        Path(f"{dump}-{name}.json").write_bytes(blob)
    return hashlib.sha256(blob).hexdigest()


def start_worker(args) -> subprocess.Popen:
    """A ``celery worker`` on the bench database that fans the month close out."""
    from quotient.celery import app

    env = {
        **os.environ,
        "RANKING_FAN_OUT": "1",
        "RANKING_CHUNK_SIZE": str(args.chunk_size),
        "CELERY_BROKER_URL": args.broker,
    }
    log = open(ROOT / "var" / "bench-worker.log", "w")  # noqa: SIM115 - the worker's own
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "quotient", "worker", "--loglevel=INFO"]
        + [f"--concurrency={args.fan_out}", "--hostname=bench-worker@%h", "--without-gossip"]
        + ["--without-mingle"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    app.control.purge()
    deadline = time.monotonic() + 60
    while not app.control.ping(timeout=0.5):
        if time.monotonic() > deadline or worker.poll() is not None:
            raise SystemExit("the bench worker did not come up (see var/bench-worker.log)")
    return worker


def publish_fanned_out(game, timeout: float = 1800.0) -> tuple[float, object]:
    """The month close as beat runs it (the task), on the worker; seconds and the run."""
    from ratings.models import RankingRun
    from ratings.tasks import publish_ranking

    clear_rankings()
    run = RankingRun.objects.create(game=game, month=MONTH)
    t = time.perf_counter()
    publish_ranking.delay(run.pk)
    while run.finished_at is None:  # the bench waits; no task does
        if time.perf_counter() - t > timeout:
            raise SystemExit("the fanned-out close did not finish")
        time.sleep(0.2)
        run.refresh_from_db()
    if run.status != RankingRun.Status.PUBLISHED:
        raise SystemExit(f"fanned-out run ended {run.status}: {run.message}")
    return time.perf_counter() - t, run


def close_every_size(args, fed: Federation, game, club, loaded: int) -> tuple[list, int]:
    """Load each size, time the close, verify it (and fan it out); rows for the table."""
    rows = []
    clock = Clock()
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
        runs = []
        for _ in range(args.repeat):
            total, steps, ranking = publish_once(game, clock)
            print(
                f"  {size:>9,} results: ranking_publish {describe(total)} s ("
                + "; ".join(f"{label} {describe(steps[label])}" for _, label in STEPS)
                + ")"
            )
            runs.append((total, steps))
        check = "not verified" if args.no_verify else verify(fed, size, ranking)
        print(f"  {size:>9,} results: {check}")
        in_process = fingerprint(ranking, args.dump, str(size))
        entries = ranking.entries.count()  # before a fanned-out run replaces the list
        print(f"  {size:>9,} results: list sha256 {in_process}")
        if args.fan_out:
            seconds, run = publish_fanned_out(game)
            fanned = fingerprint(run.ranking, args.dump, f"{size}-fan-out")
            print(
                f"  {size:>9,} results: fanned out to {args.fan_out} worker processes in "
                f"{seconds:.2f} s ({run.message}); list sha256 {fanned}, "
                + ("identical to the in-process list" if fanned == in_process else "DIFFERENT")
            )
            if fanned != in_process:
                raise SystemExit("the fanned-out list differs from the in-process one")
        rows.append((size, runs, ranking.results_counted, entries))
    return rows, loaded


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def summary(rows: list, repeat: int) -> None:
    """Per size: median of the runs, per step wall / our CPU / PostgreSQL's CPU; then
    the target on wall time and on CPU time (ours + PostgreSQL's backend)."""
    print(
        f"median of {repeat} run(s), seconds: wall / CPU of this process / CPU of its "
        "PostgreSQL backend ('other': ranking_publish's own work around the steps)"
    )
    labels = [label for _, label in STEPS] + ["other", "total"]
    print(f"{'results':>10} {'window':>9} {'entries':>8} " + " ".join(f"{x:>18}" for x in labels))
    verdicts = []
    for size, runs, window, entries in rows:
        cells = []
        for name in labels:
            parts = []
            for k in range(3):
                values = []
                for total, steps in runs:
                    if name == "total":
                        v = total[k]
                    elif name == "other":
                        inside = [steps[x][k] for _, x in STEPS if x not in CONCURRENT]
                        v = None if total[k] is None or None in inside else total[k] - sum(inside)
                    else:
                        v = steps[name][k]
                    values.append(v)
                parts.append("-" if None in values else f"{median(values):.2f}")
            cells.append("/".join(parts))
        print(f"{size:>10,} {window:>9,} {entries:>8,} " + " ".join(f"{c:>18}" for c in cells))
        walls = [total[0] for total, _ in runs]
        cpus = [total[1] + (total[2] or 0.0) for total, _ in runs]
        verdicts.append((size, median(walls), min(walls), median(cpus), min(cpus)))
    size, wall, best_wall, cpu, best_cpu = verdicts[-1]
    target = 15.0 * size / 1_000_000
    scale = "" if size == 1_000_000 else f" (scaled to {size:,} results: {target:.1f} s)"
    print(f"target: 12-month close of 1,000,000 results <= 15 s{scale}:")
    for what, value, best in (
        ("wall time", wall, best_wall),
        ("CPU time, ours + PostgreSQL's", cpu, best_cpu),
    ):
        verdict = "MET" if value <= target else "MISSED"
        print(f"  {what}: median {value:.1f} s, best {best:.1f} s: {verdict}")


def main() -> None:
    args = parse_args()
    total_results = args.sizes[-1]
    print(
        f"month close end to end: list {MONTH:%Y-%m}, {args.players:,} players, sizes "
        f"{', '.join(f'{s:,}' for s in args.sizes)} results; {args.repeat} timed run(s) per size; "
        f"database {args.database}{' (kept)' if args.keep else ''}"
    )
    t = time.perf_counter()
    fed = Federation(args.players, total_results)
    print(f"federation generated in {time.perf_counter() - t:.1f} s")

    t = time.perf_counter()
    create_database(args.server, args.database, args.keep)
    setup_django(args.server, args.database, args.broker, args.chunk_size)
    print(f"database created and migrated in {time.perf_counter() - t:.1f} s")
    game, club, loaded = bench_fixtures(fed)
    worker = start_worker(args) if args.fan_out else None
    try:
        rows, loaded = close_every_size(args, fed, game, club, loaded)
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(30)

    print()
    summary(rows, args.repeat)
    if args.keep:
        print(f"database {args.database} kept with {loaded:,} matches")
    else:
        from django.db import connections

        connections.close_all()
        drop_database(args.server, args.database)


if __name__ == "__main__":
    main()
