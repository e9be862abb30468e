"""One month close in a process of its own, for ``bench/ratings_month_close_db.py``.

The bench generates the federation in its own process (gigabytes at 10,000,000
results), so the close it times runs here instead: a fresh Python that sets Django up
on the bench database, publishes the list once with ``ranking_publish`` (each step
timed, ``month_close_timing.Timed``) and prints one JSON line: the times, the list's
id and this process's peak resident memory (``ru_maxrss``: the closing process, its
threads included), which is what the close costs in memory.

    python bench/month_close_once.py DATABASE_URL BROKER_URL CHUNK_SIZE
"""

from __future__ import annotations

import json
import os
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    database, broker, chunk_size = sys.argv[1:4]
    os.environ.update(
        DATABASE_URL=database,
        DJANGO_SETTINGS_MODULE="quotient.settings.test",
        CELERY_BROKER_URL=broker,
        RANKING_CHUNK_SIZE=chunk_size,
    )
    import django

    django.setup()
    from month_close_federation import MONTH
    from month_close_timing import Clock, Timed, spent

    from federation.models import Game
    from ratings.models import RankingRun
    from ratings.services import ranking_publish

    game = Game.objects.get(key="divisor")
    clock = Clock()
    with Timed(clock) as timed:
        start = clock.now()
        run = ranking_publish(game=game, month=MONTH)
        total = spent(start, clock.now())
    if run.status != RankingRun.Status.PUBLISHED:
        raise SystemExit(f"run ended {run.status}: {run.message}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
    print(
        json.dumps({"total": total, "steps": timed.steps, "ranking": run.ranking_id, "peak": peak})
    )


if __name__ == "__main__":
    main()
