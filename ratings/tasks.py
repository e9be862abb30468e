"""Celery tasks of the month close: thin shells around ``ratings.services``.

Tasks receive ids, ``YYYY-MM`` labels and JSON, never model instances. Only
transient database errors are retried; a locked month is an answer, not an error.

``publish_ranking`` computes a list in its own process by default. With
``settings.RANKING_FAN_OUT`` it fans the list out instead, one chord per monthly
batch that has results (the batches are rated in sequence: each starts from the
state the previous one left)::

    chord([carry(step), rate_chunk(chunk 1), ..., rate_chunk(chunk n)],
          batch_rated(run_id))

``batch_rated`` combines the chunks' increments into the state, then sends the chord
of the next batch with results, or stores the list after the last. No task waits for
another. What one step hands to the next (the state of every player and the part of
the schedule still to rate: a :class:`Step`) rides in the chord as its first member,
``carry``, which returns it unchanged: a chord copies its callback's signature into
every chunk's message, so that signature stays small. A chunk or step that fails
calls ``run_failed``, which marks the run failed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from typing import Any

import numpy as np
from celery import chord, shared_task
from celery.canvas import Signature
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from federation.months import month_index, previous_month
from ratings.engine.batch import ChunkIncrements, ChunkTask, combine_arrays, rate_chunk
from ratings.engine.ranking import ranking_list
from ratings.engine.schedule import Schedule
from ratings.engine.wire import pack, unpack
from ratings.models import RankingRun
from ratings.services import (
    MonthOpen,
    month_closed_check,
    ranking_close_month,
    ranking_fail,
    ranking_prepare,
    ranking_progress,
    ranking_publish,
    ranking_store,
    result_summary,
    stale_runs_resend,
)

TRANSIENT = (OperationalError, InterfaceError)


@shared_task(name="ratings.tasks.rate_chunk")
def rate_chunk_task(task: dict[str, Any]) -> dict[str, Any]:
    """Rate one chunk of a monthly batch (pure: any worker gives the same bits)."""
    return rate_chunk(ChunkTask.from_dict(task)).as_dict()


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
    run = RankingRun.objects.select_related("game").get(pk=run_id)
    if run.status in (RankingRun.Status.PUBLISHED, RankingRun.Status.UNCHANGED):
        return result_summary(run)  # a redelivered message: the work is done
    if self.request.id and not self.request.is_eager:
        # a run carried by a task keeps its month while the broker may still deliver it
        RankingRun.objects.filter(pk=run.pk).update(task_id=self.request.id)
    try:
        month_closed_check(run.month)
    except MonthOpen as exc:
        ranking_fail(run_id=run.pk, message=str(exc))
        run.refresh_from_db()
        return result_summary(run)
    if settings.RANKING_FAN_OUT:
        fan_out(run)
        run.refresh_from_db()
    else:
        run = ranking_publish(game=run.game, month=run.month, force=run.force, run=run)
    return result_summary(run)


@dataclass(frozen=True)
class Step:
    """What a fanned-out run hands from one batch's chord to the next."""

    schedule: Schedule  # the results still to rate: this batch and later ones
    batch: int  # the batch being rated
    mu: np.ndarray  # its priors, sigma already widened
    sigma: np.ndarray
    digest: str  # the inputs hash, stored with the list
    results: int  # results in the window
    chunks: int  # chunk tasks of the whole run
    done: int = 0  # chunk tasks rated so far
    chords: int = 0  # chords sent so far

    def as_dict(self) -> dict[str, Any]:
        """JSON; the arrays as their bytes: the state survives the trip bit for bit."""
        return {
            "schedule": self.schedule.as_dict(),
            "batch": self.batch,
            "mu": pack(self.mu),
            "sigma": pack(self.sigma),
            "digest": self.digest,
            "results": self.results,
            "chunks": self.chunks,
            "done": self.done,
            "chords": self.chords,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Step:
        return cls(
            schedule=Schedule.from_dict(data["schedule"]),
            batch=data["batch"],
            mu=unpack(data["mu"]),
            sigma=unpack(data["sigma"]),
            digest=data["digest"],
            results=data["results"],
            chunks=data["chunks"],
            done=data["done"],
            chords=data["chords"],
        )


def fan_out(run: RankingRun) -> None:
    """The fanned-out run's first step: read the inputs, then send the first chord."""
    inputs = ranking_prepare(run=run)
    if inputs is None:
        return  # unchanged or locked
    try:
        schedule = Schedule.build(
            inputs.results, month_index(run.month), inputs.params, inputs.chunk_size
        )
        mu, sigma = schedule.start()
        step = Step(
            schedule=schedule,
            batch=schedule.batches().start,
            mu=mu,
            sigma=sigma,
            digest=inputs.digest,
            results=len(inputs.results),
            chunks=schedule.chunk_count(),
        )
        del inputs  # the schedule holds all that is needed: let a million results go
        rate_from(run.pk, step, step.batch, mu, sigma)
    except Exception as exc:  # e.g. no result backend for chords; eagerly, a failed step
        ranking_fail(run_id=run.pk, message=f"{type(exc).__name__}: {exc}")
        raise


def rate_from(run_id: int, step: Step, batch: int, mu: np.ndarray, sigma: np.ndarray) -> None:
    """Walk the batches from ``batch`` (state ``mu``, ``sigma`` after the one before):
    send the chord of the first batch with results, or store the list if none is left.

    An empty batch only widens every sigma: the same calls ``compute_ranking`` makes.
    """
    schedule = step.schedule
    for current in schedule.batches(batch):
        sigma, tasks = schedule.open(current, mu, sigma)
        if tasks:
            handed = replace(
                step,
                schedule=schedule.after(current - 1),
                batch=current,
                mu=mu,
                sigma=sigma,
                chords=step.chords + 1,
            )
            batch_chord(run_id, handed.as_dict(), [t.as_dict() for t in tasks]).apply_async()
            return
        mu, sigma = combine_arrays(mu, sigma, [])
    message = f"fanned out to the workers: {step.done} chunk tasks in {step.chords} chord(s)"
    ranking_store(
        run_id=run_id,
        computed=ranking_list(schedule, mu, sigma),
        digest=step.digest,
        results_count=step.results,
        message=message,
    )


def batch_chord(run_id: int, step: dict[str, Any], chunks: list[dict[str, Any]]) -> Signature:
    """One batch: its chunk tasks, with the step carried alongside, then ``batch_rated``."""
    callback = batch_rated.s(run_id).on_error(run_failed.s(run_id))
    return chord([carry.s(step), *(rate_chunk_task.s(chunk) for chunk in chunks)], callback)


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
    if not RankingRun.objects.filter(pk=run_id, status=RankingRun.Status.RUNNING).exists():
        return  # failed, or taken for lost by another run: no more work for it
    step = Step.from_dict(parts[0])
    increments = [ChunkIncrements.from_dict(part) for part in parts[1:]]
    mu, sigma = combine_arrays(step.mu, step.sigma, increments)
    step = replace(step, done=step.done + len(increments))
    ranking_progress(run_id=run_id, chunks_done=step.done, chunks=step.chunks)
    rate_from(run_id, step, step.batch + 1, mu, sigma)


@shared_task(name="ratings.tasks.run_failed")
def run_failed(request: Any, exc: BaseException, traceback: Any, run_id: int) -> None:
    """Error callback of a batch chord (a chunk or the step failed): the run failed."""
    ranking_fail(run_id=run_id, message=f"fanned-out step failed: {type(exc).__name__}: {exc}")


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
