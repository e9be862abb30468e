"""Celery tasks of the month close: each delegates to a service or to the close itself.

Tasks receive ids, ``YYYY-MM`` labels and JSON, never model instances. Only
transient database errors are retried; a locked month is an answer, not an error.

``publish_ranking`` publishes a queued run (``ratings.services.run_publish``). A run
fanned out (``RANKING_FAN_OUT``) goes on in a chord per monthly batch, which
``ratings.close`` builds and whose tasks call back into it: ``carry`` and
``rate_chunk`` are its members, ``batch_rated`` its callback, ``run_failed`` its error
callback. The names are fixed: beat's schedule and queued messages refer to them.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from celery import shared_task
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from federation.months import previous_month
from ratings.close import batch_fold, run_fail
from ratings.engine.batch import ChunkTask, rate_chunk
from ratings.models import RankingRun
from ratings.services import ranking_close_month, result_summary, run_publish, stale_runs_resend

TRANSIENT = (OperationalError, InterfaceError)


@shared_task(
    bind=True,
    name="ratings.tasks.publish_ranking",
    autoretry_for=TRANSIENT,
    retry_backoff=5,
    retry_kwargs={"max_retries": 5},
    acks_late=True,
)
def publish_ranking(self, run_id: int) -> dict[str, Any]:
    """Compute and publish the list of the run's game and month (or fan it out)."""
    task_id = self.request.id if self.request.id and not self.request.is_eager else ""
    return result_summary(run_publish(run_id=run_id, task_id=task_id))


@shared_task(name="ratings.tasks.rate_chunk")
def rate_chunk_task(task: dict[str, Any]) -> dict[str, Any]:
    """Rate one chunk of a monthly batch (pure: any worker gives the same bits)."""
    return rate_chunk(ChunkTask.from_dict(task)).as_dict()


@shared_task(name="ratings.tasks.carry")
def carry(step: dict[str, Any]) -> dict[str, Any]:
    """A batch chord's first member: hands the run's step to ``batch_rated`` unchanged."""
    return step


@shared_task(
    name="ratings.tasks.batch_rated",
    autoretry_for=TRANSIENT,
    retry_backoff=5,
    retry_kwargs={"max_retries": 5},
    acks_late=True,
)
def batch_rated(parts: list[dict[str, Any]], run_id: int) -> None:
    """A batch's chord callback: fold its chunks into the state, then carry on."""
    batch_fold(run_id=run_id, parts=parts)


@shared_task(name="ratings.tasks.run_failed")
def run_failed(request: Any, exc: BaseException, traceback: Any, run_id: int) -> None:
    """Error callback of a batch chord (a chunk or the step failed): the run failed."""
    run_fail(run_id=run_id, message=f"fanned-out step failed: {type(exc).__name__}: {exc}")


def enqueue(run: RankingRun) -> None:
    publish_ranking.delay(run.pk)


@shared_task(name="ratings.tasks.resend_stale_runs")
def resend_stale_runs() -> int:
    """Beat's safety net: send again the runs left queued for more than 10 minutes
    (the broker was down when they were queued, or lost them)."""
    return stale_runs_resend(enqueue=enqueue)


@shared_task(name="ratings.tasks.close_previous_month")
def close_previous_month(today: str | None = None) -> list[int]:
    """Beat's monthly job: publish the previous month's list of every game."""
    day = date.fromisoformat(today) if today else timezone.localdate()
    runs = ranking_close_month(month=previous_month(day), enqueue=enqueue)
    return [run.pk for run in runs]
