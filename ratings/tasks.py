"""Celery tasks of the month close: thin shells around ``ratings.services``.

Tasks receive ids and ``YYYY-MM`` labels, never model instances. Only transient
database errors are retried; a locked month is an answer, not an error.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from datetime import date
from typing import Any

from celery import shared_task
from celery.exceptions import TimeoutError as CeleryTimeout
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from federation.models import Game
from federation.months import month_index
from ratings.engine.batch import ChunkIncrements, ChunkTask, rate_chunk
from ratings.models import RankingRun
from ratings.services import (
    month_date,
    previous_month,
    ranking_close_month,
    ranking_publish,
    result_summary,
)

#: how long a chunk may wait unclaimed before the coordinating task computes it itself
UNCLAIMED_CHUNK_SECONDS = 10.0


@shared_task(name="ratings.tasks.rate_chunk")
def rate_chunk_task(task: dict[str, Any]) -> dict[str, Any]:
    """Rate one chunk of a monthly batch (pure: any worker gives the same bits)."""
    return rate_chunk(ChunkTask.from_dict(task)).as_dict()


class CeleryMap:
    """Fan chunks out to Celery workers and collect them in order.

    A chunk that no worker has started after ``UNCLAIMED_CHUNK_SECONDS`` (every
    worker busy, e.g. a single worker running this very task) is computed here:
    the work is pure, so who computes it changes nothing.
    """

    def __init__(self) -> None:
        self.by_workers = 0
        self.here = 0

    def __call__(
        self, fn: Callable[[ChunkTask], ChunkIncrements], tasks: Iterable[ChunkTask]
    ) -> Iterator[ChunkIncrements]:
        tasks = list(tasks)
        pending = [rate_chunk_task.apply_async((task.as_dict(),)) for task in tasks]
        for task, result in zip(tasks, pending, strict=True):
            yield self._collect(fn, task, result)

    def _collect(self, fn, task: ChunkTask, result) -> ChunkIncrements:
        waited = 0.0
        while True:
            try:
                payload = result.get(timeout=0.5, disable_sync_subtasks=False)
            except CeleryTimeout:
                waited += 0.5
            else:
                self.by_workers += 1
                return ChunkIncrements.from_dict(payload)
            if result.state == "PENDING" and waited >= UNCLAIMED_CHUNK_SECONDS:
                result.revoke()
                self.here += 1
                return fn(task)
            time.sleep(0.01)

    def report(self) -> str:
        return f"chunks: {self.by_workers} rated by workers, {self.here} by the coordinating task"


@shared_task(
    bind=True,
    name="ratings.tasks.publish_ranking",
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=5,
    retry_kwargs={"max_retries": 5},
    acks_late=True,
)
def publish_ranking(self, run_id: int, parallel: bool = True) -> dict[str, Any]:
    """Compute and publish the list of the run's game and month."""
    run = RankingRun.objects.select_related("game").get(pk=run_id)
    if run.status in (RankingRun.Status.PUBLISHED, RankingRun.Status.UNCHANGED):
        return result_summary(run)  # a redelivered message: the work is done
    if self.request.id:
        RankingRun.objects.filter(pk=run.pk).update(task_id=self.request.id)
    fan_out = CeleryMap()
    run = ranking_publish(
        game=run.game,
        month=run.month,
        force=run.force,
        run=run,
        map_fn=fan_out if parallel else map,
    )
    if parallel and run.status == RankingRun.Status.PUBLISHED:
        RankingRun.objects.filter(pk=run.pk).update(message=fan_out.report())
        run.message = fan_out.report()
    return result_summary(run)


def enqueue(run: RankingRun) -> None:
    publish_ranking.delay(run.pk)


@shared_task(name="ratings.tasks.close_previous_month")
def close_previous_month(today: str | None = None) -> list[int]:
    """Beat's monthly job: publish the previous month's list of every game."""
    day = date.fromisoformat(today) if today else timezone.localdate()
    runs = ranking_close_month(month=previous_month(day), enqueue=enqueue)
    return [run.pk for run in runs]


def run_for(game_key: str, month: str, force: bool = False) -> RankingRun:
    """A queued run for ``game_key`` and ``YYYY-MM`` (for the command and the admin)."""
    game = Game.objects.get(key=game_key)
    return RankingRun.objects.create(game=game, month=month_date(month_index(month)), force=force)
