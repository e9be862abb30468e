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

Each timed close runs in a process of its own (``month_close_once.py``), started for
it: the bench's own process holds the generated federation (gigabytes at 10,000,000
results), the closing process only what the close needs, and its peak resident memory
(``ru_maxrss``) is reported with its times. A fanned-out close reports the peak memory
of the worker's main process and of each of its pool processes apart (``VmHWM``).

Each step is timed three ways: wall time, the CPU time of this process (``os.times``,
children included) and the CPU time of its PostgreSQL backend (from ``/proc``, when the
server runs on this machine). Outside a transaction the window is read in parts on two
connections (``ratings.storage.WINDOW_PARTS``): the second backend's CPU time is not
counted, so the load step's PostgreSQL CPU is about half the server's work. The inputs
hash runs in a thread during the store step (``CONCURRENT``). On a machine shared
with other jobs wall time includes waiting for them; the targets (<= 15 s at 1,000,000
results; <= 60 s and <= 4 GB at 10,000,000) are judged on both.

    .venv/bin/python bench/ratings_month_close_db.py            # 250k / 500k / 1M, a few minutes
    .venv/bin/python bench/ratings_month_close_db.py --quick    # 50k smoke run, well under a minute
    .venv/bin/python bench/ratings_month_close_db.py --sizes 1000000 --repeat 3
    .venv/bin/python bench/ratings_month_close_db.py --sizes 10000000 --players 1000000 \
        --keep --database quotient_bench10m --fan-out 2   # ten times the federation
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
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from month_close_federation import (
    MONTH,
    MONTH_INDEX,
    Federation,
    bench_fixtures,
    clear_rankings,
    create_database,
    drop_database,
    load,
    previous_list,
    setup_django,
)
from month_close_timing import STEPS, describe, summary

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


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


def publish_once(args, game) -> tuple[tuple, dict[str, tuple], object, int]:
    """One timed close, in a process of its own (``month_close_once.py``): the times,
    the list, and the closing process's peak resident memory in bytes."""
    from django.conf import settings

    from ratings.models import RankingList

    clear_rankings()
    database = settings.DATABASES["default"]
    url = f"{args.server}/{database['NAME']}"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "month_close_once.py"), url, args.broker]
        + [str(args.chunk_size)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise SystemExit(f"the close failed:\n{done.stderr[-3000:]}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    steps = {label: tuple(value) for label, value in report["steps"].items()}
    ranking = RankingList.objects.get(pk=report["ranking"])
    return tuple(report["total"]), steps, ranking, report["peak"]


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


def peak_memory(pid: int) -> list[int]:
    """Peak resident memory (``VmHWM``, bytes) of process ``pid`` and of each of its
    children: a worker's main process, then its pool processes."""
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            children.append(int(stat.parent.name))
    peaks = []
    for process in [pid, *sorted(children)]:
        status = Path(f"/proc/{process}/status").read_text()
        line = next(x for x in status.splitlines() if x.startswith("VmHWM:"))
        peaks.append(int(line.split()[1]) * 1024)
    return peaks


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


def close_every_size(
    args, fed: Federation, game, club, loaded: int, worker: subprocess.Popen | None
) -> tuple[list, int]:
    """Load each size, time the close, verify it (and fan it out); rows for the table."""
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
        runs = []
        for _ in range(args.repeat):
            total, steps, ranking, peak = publish_once(args, game)
            print(
                f"  {size:>9,} results: ranking_publish {describe(total)} s ("
                + "; ".join(f"{label} {describe(steps[label])}" for _, label in STEPS)
                + f"); peak memory of the closing process {peak / 2**30:.2f} GiB"
            )
            runs.append((total, steps, peak))
        check = "not verified" if args.no_verify else verify(fed, size, ranking)
        print(f"  {size:>9,} results: {check}")
        in_process = fingerprint(ranking, args.dump, str(size))
        entries = ranking.entries.count()  # before a fanned-out run replaces the list
        print(f"  {size:>9,} results: list sha256 {in_process}")
        if worker is not None:
            seconds, run = publish_fanned_out(game)
            fanned = fingerprint(run.ranking, args.dump, f"{size}-fan-out")
            main, *pool = peak_memory(worker.pid)
            print(
                f"  {size:>9,} results: fanned out to {args.fan_out} worker processes in "
                f"{seconds:.2f} s ({run.message}); peak memory: worker {main / 2**30:.2f} GiB, "
                f"its processes {', '.join(f'{p / 2**30:.2f}' for p in pool)} GiB; "
                f"list sha256 {fanned}, "
                + ("identical to the in-process list" if fanned == in_process else "DIFFERENT")
            )
            if fanned != in_process:
                raise SystemExit("the fanned-out list differs from the in-process one")
        rows.append((size, runs, ranking.results_counted, entries))
    return rows, loaded


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
        rows, loaded = close_every_size(args, fed, game, club, loaded, worker)
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
