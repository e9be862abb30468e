"""Writes of the ranking: publishing a month's list (the month close) and queueing runs.

``ranking_publish`` publishes a list in this process (the ``publish_rankings``
command, the tests); ``run_publish`` publishes a queued run for its task
(``publish_ranking``), in the task's process or fanned out to the workers with
``RANKING_FAN_OUT``. Both refuse a month whose deadline has not passed, then hand the
run to the month close, whose steps ``ratings.close`` owns. The other services queue
runs (after commit) for the beat job, the admin's re-runs and first runs, and send
again the runs the broker lost.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import date, datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.errors import CodedError
from federation.models import Game
from federation.months import first_day, last_day, month_label
from ratings.close import run_close, run_fail, run_fan_out, run_refuse
from ratings.engine.ranking import MapFn
from ratings.models import RankingList, RankingRun

logger = logging.getLogger(__name__)


class MonthOpen(CodedError):
    """The month's submission deadline has not passed: its list cannot be published."""

    status = 409


def month_closed_check(month: date, now: datetime | None = None) -> None:
    """Refuse a month whose deadline (its last day, 23:59:59 federation time) has not
    passed: a list published early would miss the month's last results and, being
    immutable, could never be taken back."""
    today = timezone.localtime(now or timezone.now()).date()
    if today <= last_day(month):
        raise MonthOpen(
            "month-open",
            month=month_label(month),
            deadline=last_day(month).isoformat(),
            zone=settings.TIME_ZONE,
        )


def ranking_publish(
    *,
    game: Game,
    month: date,
    force: bool = False,
    run: RankingRun | None = None,
    map_fn: MapFn = map,
    chunk_size: int | None = None,
) -> RankingRun:
    """Compute and publish the list of ``game`` for ``month`` in this process.

    Returns the run; its status says what happened: published, unchanged (already
    published and not forced) or locked (another run holds the month). ``map_fn``
    rates the chunks (builtin ``map``, or a process pool's map).
    """
    month = first_day(month)
    try:
        month_closed_check(month)
    except MonthOpen as exc:
        if run is not None:  # queued before its month closed: it fails, with the reason
            run_refuse(run, str(exc))
        raise
    run = run or RankingRun.objects.create(game=game, month=month, force=force)
    return run_close(run=run, map_fn=map_fn, chunk_size=chunk_size)


def run_publish(*, run_id: int, task_id: str = "") -> RankingRun:
    """Publish the queued run ``run_id``, as its task does: in this process, or fanned
    out with ``RANKING_FAN_OUT`` (the run is then still running on return: its last
    chord publishes it). ``task_id``: the Celery task carrying the run, if any."""
    run = RankingRun.objects.select_related("game").get(pk=run_id)
    if run.status in (RankingRun.Status.PUBLISHED, RankingRun.Status.UNCHANGED):
        return run  # a redelivered message: the work is done
    if task_id:
        # a run carried by a task keeps its month while the broker may still deliver it
        RankingRun.objects.filter(pk=run.pk).update(task_id=task_id)
    try:
        month_closed_check(run.month)
    except MonthOpen as exc:
        run_fail(run_id=run.pk, message=str(exc))
        run.refresh_from_db()
        return run
    if not settings.RANKING_FAN_OUT:
        return run_close(run=run)
    run_fan_out(run=run)
    run.refresh_from_db()
    return run


# -- queueing runs ---------------------------------------------------------------------


def ranking_close_month(*, month: date, enqueue: Callable[[RankingRun], None]) -> list[RankingRun]:
    """Queue one run per game for ``month``; each is enqueued after commit."""
    month_closed_check(month)
    runs = []
    with transaction.atomic():
        for game in Game.objects.all():
            run = RankingRun.objects.create(game=game, month=first_day(month))
            transaction.on_commit(partial(run_enqueue, run=run, enqueue=enqueue))
            runs.append(run)
    return runs


def ranking_rerun(
    *, game: Game, month: date, requested_by: Any, enqueue: Callable[[RankingRun], None]
) -> RankingRun:
    """Queue a forced run of (game, month), enqueued after commit: it publishes a new
    revision and keeps the old one."""
    month_closed_check(month)
    with transaction.atomic():
        run = RankingRun.objects.create(game=game, month=first_day(month), force=True)
        transaction.on_commit(partial(run_enqueue, run=run, enqueue=enqueue))
    logger.info("re-run of %s %s requested by %s", game.key, month_label(month), requested_by)
    return run


class RunRefused(CodedError):
    """A first run that would do nothing: the month is already published (a forced
    re-run revises it) or a run of it is already queued or running."""

    status = 409


def ranking_request(
    *, game: Game, month: date, requested_by: Any, enqueue: Callable[[RankingRun], None]
) -> RankingRun:
    """Queue the first run of (game, month), enqueued after commit: a closed month that
    was never published (the month close missed it, or it was never run). Refuses an
    open month (:class:`MonthOpen`), a published one and one already queued or running
    (:class:`RunRefused`)."""
    month_closed_check(month)
    month = first_day(month)
    label = f"{game.key} {month_label(month)}"
    with transaction.atomic():
        if RankingList.objects.filter(game=game, month=month).exists():
            raise RunRefused("month-published", game=game.key, month=month_label(month))
        pending = (RankingRun.Status.QUEUED, RankingRun.Status.RUNNING)
        if RankingRun.objects.filter(game=game, month=month, status__in=pending).exists():
            # (two requests racing past this check are harmless: the month's lock lets
            # one run publish, the other then finds the list and reports unchanged)
            raise RunRefused("run-pending", game=game.key, month=month_label(month))
        run = RankingRun.objects.create(game=game, month=month)
        transaction.on_commit(partial(run_enqueue, run=run, enqueue=enqueue))
    logger.info("first run of %s requested by %s", label, requested_by)
    return run


def run_enqueue(*, run: RankingRun, enqueue: Callable[[RankingRun], None]) -> bool:
    """Hand ``run`` to the workers; when the broker cannot take it, the run is marked
    failed with the reason (nothing left queued forever, no 500 for the admin)."""
    try:
        enqueue(run)
    except Exception as exc:  # the broker's errors vary: kombu, redis, socket
        logger.warning("could not queue run %s: %s", run.pk, exc)
        RankingRun.objects.filter(pk=run.pk, status=RankingRun.Status.QUEUED).update(
            status=RankingRun.Status.FAILED,
            finished_at=timezone.now(),
            message=f"could not be queued (broker unreachable?): {type(exc).__name__}: {exc}",
        )
        return False
    return True


#: a run still queued after this long was lost by the broker or never reached it
STALE_QUEUED = timedelta(minutes=10)


def stale_runs_resend(*, enqueue: Callable[[RankingRun], None], now: datetime | None = None) -> int:
    """Send again the runs left queued for more than :data:`STALE_QUEUED` (beat calls it
    every few minutes). Only runs still queued are sent: a run a worker has started is
    running, and a published one is skipped by the task if its first message arrives
    after all."""
    cutoff = (now or timezone.now()) - STALE_QUEUED
    stale = RankingRun.objects.filter(status=RankingRun.Status.QUEUED, created_at__lt=cutoff)
    return sum(run_enqueue(run=run, enqueue=enqueue) for run in stale.order_by("pk"))


def result_summary(run: RankingRun) -> dict[str, Any]:
    return {
        "game": run.game.key,
        "month": month_label(run.month),
        "status": run.status,
        "players_total": run.players_total,
        "players_done": run.players_done,
        "revision": run.ranking.revision if run.ranking else None,
        "message": run.message,
    }
