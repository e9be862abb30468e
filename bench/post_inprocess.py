"""In-process cost of ``POST /api/v1/matches/``: queries, CPU and wall clock a POST.

Runs ``count`` distinct valid submissions (those of ``bench/pages.py``) through
Django's test client under the benchmark's production-like settings (DEBUG off,
throttling off), on the benchmark's database, and prints the mean queries, CPU ms
and wall ms a POST, the CPU ms of the PostgreSQL backend serving them (read from
``/proc``: the server runs on this machine), and the same for the API root's GET, with
the token and without it (as ``bench/pages.py`` asks it).
The submissions are deleted afterwards. ``--profile`` prints cProfile's top functions (CPU time).

    .venv/bin/python bench/post_inprocess.py --database quotient_submit_pages --count 200
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default="quotient_bench_quick")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    for name, value in {
        "DEBUG": "0",
        "THROTTLE": "0",
        "ALLOWED_HOSTS": "testserver",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_HSTS_SECONDS": "0",
        "SECURE_COOKIES": "0",
        "AXES_ENABLED": "0",
    }.items():
        os.environ[name] = value
    from bench.pages_site import fixtures, remove_submissions, setup_django, submissions

    setup_django(args)
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    f = fixtures()
    remove_submissions()
    path = ROOT / "var" / "bench-post-inprocess.jsonl"
    submissions(path, args.count + 20, args.players, seed=11)
    bodies = path.read_text().splitlines()
    client = Client(HTTP_AUTHORIZATION=f"Token {f.token}")

    def post(body: str) -> None:
        response = client.post("/api/v1/matches/", body, content_type="application/json")
        assert response.status_code == 201, (response.status_code, response.content[:300])

    def root(_: str) -> None:
        assert client.get("/api/v1/").status_code == 200

    anonymous = Client()

    def anonymous_root(_: str) -> None:  # as bench/pages.py asks it: without a token
        assert anonymous.get("/api/v1/").status_code == 200

    try:
        for body in bodies[:20]:  # warm up: imports, connections, caches
            post(body)
            root(body)
            anonymous_root(body)
        measured = (
            ("POST /api/v1/matches/", post),
            ("GET /api/v1/", root),
            ("GET /api/v1/ anonymous", anonymous_root),
        )
        for name, call in measured:
            todo = bodies[20 : 20 + args.count]
            profiler = None
            if args.profile and call is post:
                import cProfile

                profiler = cProfile.Profile(time.process_time)
                profiler.enable()
            with CaptureQueriesContext(connection) as queries:
                server = backend_cpu(connection)
                cpu, wall = time.process_time(), time.perf_counter()
                for body in todo:
                    call(body)
                cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                server = backend_cpu(connection) - server
            if profiler is not None:
                import pstats

                profiler.disable()
                pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
            n = len(todo)
            print(
                f"{name}: {len(queries) / n:.1f} queries, {1000 * cpu / n:.2f} ms CPU, "
                f"{1000 * wall / n:.2f} ms wall, {1000 * server / n:.2f} ms PostgreSQL CPU"
                f" (mean of {n})"
            )
            if call is post:  # the queries of the last POST
                print("\n".join(f"  {q['sql'][:100]}" for q in queries.captured_queries[-6:]))
    finally:
        print(f"removed {remove_submissions():,} rows of the submissions")
    print(f"load average: {os.getloadavg()}")


def backend_cpu(connection) -> float:
    """The CPU seconds (user and system) the PostgreSQL backend serving ``connection``
    has used so far, from ``/proc`` (the server is on this machine); 0 elsewhere."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    main()
