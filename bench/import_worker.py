"""Benchmark: a bulk import of 2,000 divisor summaries, stored by a real Celery worker.

Builds a small federation of its own in its database (a club, its organiser, 400
players; nothing else: an import's cost does not depend on the matches already
stored, the duplicate check is a unique index), starts one ``celery worker`` process
as deployed (``deploy/quotient-worker.service``: the production settings from the
environment, prefork, acks late) on the given Redis, and times each import end to
end: the file handed to the upload's service (``scoring.imports.import_create``, as
``POST /api/v1/imports/`` does: read, job stored, task queued on commit) until the
job is ``done``, polled every 20 ms. The rows are distinct valid matches (JSON lines
of divisor records with one summary deal, tables of 2-4 players, dated today), a
different file each run; every run's matches are deleted after it. It prints the
rows per second of each run, the best and the median, the machine's load, and MET or
MISSED against the target: >= 300 rows/s.

    .venv/bin/python bench/import_worker.py                      # 3 runs of 2,000 rows
    .venv/bin/python bench/import_worker.py --quick              # one run of 500 rows
    .venv/bin/python bench/import_worker.py --database quotient_submit \
        --redis redis://127.0.0.1:6404
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_ROWS_S = 300.0
CLUB = "bench-imports"
ORGANISER = "bench-imports-organiser"
PLAYERS = 400


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one run of 500 rows: a smoke run")
    parser.add_argument("--rows", type=int, help="rows per file (2,000)")
    parser.add_argument("--runs", type=int, help="imports, each a new file (3)")
    parser.add_argument("--database", default="quotient_bench_imports")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument(
        "--redis",
        default=os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379"),
        help="the broker's server (databases 13 and 14 are used and emptied)",
    )
    args = parser.parse_args()
    args.rows = args.rows or (500 if args.quick else 2000)
    args.runs = args.runs or (1 if args.quick else 3)
    return args


def environment(args: argparse.Namespace) -> dict[str, str]:
    """The production settings from the environment, as the worker's unit gives them."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "quotient.settings.base",
        "DATABASE_URL": f"{args.server}/{args.database}",
        "CELERY_BROKER_URL": f"{args.redis}/13",
        "CACHE_URL": f"{args.redis}/14",
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        "DEBUG": "0",
        "LOG_LEVEL": "WARNING",
    }


def create_database(args: argparse.Namespace) -> None:
    import psycopg

    with psycopg.connect(f"{args.server}/postgres", autocommit=True) as conn:
        if not conn.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [args.database]
        ).fetchone():
            conn.execute(f'CREATE DATABASE "{args.database}"')


def setup(args: argparse.Namespace):
    """Django on the benchmark's database, migrated; the club, organiser and players."""
    os.environ.update(environment(args))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    from django.contrib.auth import get_user_model

    from federation.models import Club, Membership, Player

    club, _ = Club.objects.get_or_create(slug=CLUB, defaults={"name": "bench imports"})
    user, _ = get_user_model().objects.get_or_create(username=ORGANISER)
    Membership.objects.get_or_create(user=user, club=club, role=Membership.Role.ORGANISER)
    Player.objects.bulk_create(
        [
            Player(handle=handle(n), display_name=f"Imported {n}", search_name=f"imported {n}")
            for n in range(1, PLAYERS + 1)
        ],
        ignore_conflicts=True,
    )
    return club, user


def handle(n: int) -> str:
    return f"bimp{n:04d}"


def import_file(rows: int, seed: int) -> bytes:
    """``rows`` distinct valid divisor records (one summary deal each), JSON lines."""
    rng = random.Random(seed)
    seen: set[str] = set()
    lines = []
    while len(lines) < rows:
        table = [handle(p) for p in rng.sample(range(1, PLAYERS + 1), rng.randint(2, 4))]
        points = {h: rng.randrange(0, 60) for h in table}
        pips = {h: (0 if i == 0 else rng.randrange(1, 40)) for i, h in enumerate(table)}
        record = {
            "game": "divisor",
            "rules": {"set": 9},
            "players": table,
            "deals": [{"summary": {"points": points, "pips_left": pips}}],
        }
        line = json.dumps(record)
        if line not in seen:
            seen.add(line)
            lines.append(line)
    return "\n".join(lines).encode()


def start_worker(args: argparse.Namespace) -> subprocess.Popen:
    log = open(ROOT / "var" / "bench-import-worker.log", "w")  # noqa: SIM115 - the worker's
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "quotient", "worker", "--loglevel=WARNING"]
        + ["--hostname=bench-imports@%h", "--without-gossip", "--without-mingle"],
        cwd=ROOT,
        env=environment(args),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    from quotient.celery import app

    deadline = time.monotonic() + 60
    while not app.control.ping(timeout=0.5):
        if worker.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("the worker did not come up (var/bench-import-worker.log)")
    return worker


def one_import(club, user, content: bytes) -> tuple[float, dict]:
    """Seconds from the upload's service to the job done, and the job's counters."""
    from django.utils import timezone

    from scoring.imports import import_create
    from scoring.models import ImportJob
    from scoring.tasks import enqueue_import

    started = time.perf_counter()
    job = import_create(
        club=club,
        content=content,
        file_name="bench.jsonl",
        played_on=timezone.localdate(),
        submitted_by=user,
        enqueue=enqueue_import,
    )
    jobs = ImportJob.objects.defer("rows")
    while True:
        done = jobs.values("status", "done", "stored", "duplicates", "total").get(pk=job.pk)
        if done["status"] in (ImportJob.Status.DONE, ImportJob.Status.FAILED):
            break
        time.sleep(0.02)
    return time.perf_counter() - started, done


def clean() -> None:
    from scoring.models import ImportJob, Match

    Match.objects.filter(club__slug=CLUB).delete()
    ImportJob.objects.filter(club__slug=CLUB).delete()


def main() -> int:
    args = parse_args()
    (ROOT / "var").mkdir(exist_ok=True)
    create_database(args)
    club, user = setup(args)
    import redis

    for db in (13, 14):
        redis.Redis.from_url(f"{args.redis}/{db}").flushdb()
    clean()
    worker = start_worker(args)
    rates = []
    try:
        print(f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1, 5 min)")
        for run in range(args.runs):
            content = import_file(args.rows, seed=1000 + run + int(time.time()))
            seconds, job = one_import(club, user, content)
            if job["status"] != "done" or job["stored"] != args.rows:
                print(f"run {run + 1}: job {job}: not every row stored")
                return 1
            rates.append(args.rows / seconds)
            print(f"run {run + 1}: {args.rows} rows in {seconds:.2f} s: {rates[-1]:.0f} rows/s")
            clean()
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    load = os.getloadavg()
    best, median = max(rates), statistics.median(rates)
    print(f"load after: {load[0]:.2f} {load[1]:.2f} (1, 5 min), {os.cpu_count()} CPUs")
    verdict = "MET" if median >= TARGET_ROWS_S else "MISSED"
    print(f"import of {args.rows} divisor summaries by a Celery worker: best {best:.0f} rows/s,")
    print(f"  median {median:.0f} rows/s; target >= {TARGET_ROWS_S:.0f} rows/s: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
