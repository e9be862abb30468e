"""What a cold page costs a worker: the cold families of ``bench/pages.py`` in-process.

wrk's figures on a shared machine follow its load; the CPU time of the process that
answers does not (much). This script answers, with Django's test client and the
benchmark's settings (``DEBUG=0``), the same seeded random objects as the load
benchmark's cold families (``bench/pages_cold.py``: a different player, match or
ranking page each request, the server cache emptied first), and prints per family the
worker's CPU milliseconds per request (``time.process_time``: Python's share, not
PostgreSQL's or Redis's), the wall milliseconds and the queries per request.

    .venv/bin/python bench/pages_cost.py --database quotient_bench
    .venv/bin/python bench/pages_cost.py --database quotient_bench --requests 100 --only player

Run it from two checkouts (before and after a change) on the same database to compare
them: the objects are the same.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default="quotient_bench")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--requests", type=int, default=200, help="per family (200)")
    parser.add_argument("--only", help="the families whose name contains this")
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = f"{args.server}/{args.database}"
    os.environ.setdefault("CACHE_URL", "redis://127.0.0.1:6379/12")
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.site.settings"
    os.environ.setdefault("SECRET_KEY", "bench-pages-cost")
    os.environ.update({"DEBUG": "0", "THROTTLE": "0", "SECURE_SSL_REDIRECT": "0"})
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    import django

    django.setup()
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from pages_cold import cold_families
    from pages_site import MONTH

    client = Client()
    cache.clear()
    client.get("/bench/bare/")  # the first request loads what every request uses
    print(f"{'family':<30} {'CPU ms':>7} {'wall ms':>8} {'queries':>8}  ({args.requests} requests)")
    for family in cold_families(f"{MONTH:%Y-%m}"):
        if args.only and args.only not in family.name:
            continue
        paths = family.paths.read_text().split()
        client.get(paths[-1])  # this family's templates and code loaded
        paths = paths[: args.requests]
        with CaptureQueriesContext(connection) as captured:
            client.get(paths[0])
        queries = len(captured.captured_queries)
        cpu, wall = time.process_time(), time.perf_counter()
        for path in paths:
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        n = len(paths)
        print(f"{family.name:<30} {cpu / n * 1e3:7.2f} {wall / n * 1e3:8.2f} {queries:8d}")


if __name__ == "__main__":
    main()
