"""Who holds a month: one run per (game, month) at a time.

A run computing in one process holds a PostgreSQL advisory lock (session level, tried
without waiting) on (game, month) for as long as it runs; a second run reports
*locked*. A process killed mid-run drops its connection, which releases the lock, and
the next run of the month marks it failed. A fanned-out run holds the lock only while
it reads its inputs: between its steps, its row (running, carried by a Celery task)
keeps the month, for up to ``TASK_RUN_LEASE``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, timedelta

from django.db import connection
from django.utils import timezone

from core.errors import CodedError
from federation.models import Game
from federation.months import month_index, month_label
from ratings.models import RankingRun

#: first key of the two-int advisory lock: "QUO" in ASCII
LOCK_CLASS = 0x51554F
#: how long a running run carried by Celery tasks keeps its month without holding the
#: lock (a fanned-out run between two steps; a run whose worker died, which the broker
#: delivers again): after that it is taken for lost
TASK_RUN_LEASE = timedelta(hours=2)


class MonthLocked(CodedError):
    """Another run holds the (game, month)."""

    status = 409


@contextmanager
def month_lock(game: Game, month: date) -> Iterator[None]:
    """Hold the advisory lock of (game, month) or raise ``MonthLocked`` at once."""
    if connection.vendor != "postgresql":  # the quick start runs one process
        yield
        return
    key = game.pk * 1_000_000 + month_index(month)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [LOCK_CLASS, key])
        if not cursor.fetchone()[0]:
            raise MonthLocked("month-locked", game=game.key, month=month_label(month))
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_CLASS, key])


def claim_month(run: RankingRun) -> None:
    """Under the month's lock, settle the month's other runs still marked running.

    One carried by Celery tasks (it has a task id) and started less than
    ``TASK_RUN_LEASE`` ago is alive though it holds no lock: this run is locked out.
    Any other died before publishing (it would hold the lock): it is marked failed.
    """
    others = RankingRun.objects.filter(
        game=run.game_id, month=run.month, status=RankingRun.Status.RUNNING
    ).exclude(pk=run.pk)
    alive = others.exclude(task_id="").filter(started_at__gte=timezone.now() - TASK_RUN_LEASE)
    if alive.exists():
        raise MonthLocked("month-locked-tasks", game=run.game.key, month=month_label(run.month))
    others.update(
        status=RankingRun.Status.FAILED,
        finished_at=timezone.now(),
        message="abandoned: its process stopped before publishing (nothing was stored)",
    )
