"""The month close: one run of a (game, month), from its start to its published list.

A *run* (``RankingRun``) computes and publishes the list of one game and month.
``ratings.services`` starts it (``ranking_publish``: the ``publish_rankings`` command
and the tests; ``run_publish``: a queued run's task) once the month is closed; this
module takes it through its steps, and the Celery tasks of a fanned-out run
(``ratings.tasks``) only call back into it:

1. **begin** (``_begin``): the run is running.
2. **read** (``_read_inputs``), under the month's lock (``ratings.locking``): the run
   takes the month from runs that died, stops as *unchanged* when the month is
   published and the run not forced, and reads the window as columns (:class:`Inputs`).
3. **rate** the monthly batches, oldest first, each from the state (every player's mu
   and sigma) the one before left, cut into chunks of ``RANKING_CHUNK_SIZE`` results:

   * *in process* (:func:`run_close`): ``compute_ranking`` rates the chunks with
     ``map_fn``, the lock held throughout;
   * *fanned out* (:func:`run_fan_out`, ``RANKING_FAN_OUT``): one Celery chord per
     batch with results, the lock released after the read::

         chord([carry(step), rate_chunk(chunk 1), ..., rate_chunk(chunk n)],
               batch_rated(run_id))

     ``rate_chunk`` rates a chunk on any worker; ``batch_rated`` (:func:`batch_fold`)
     folds the chunks into the state and sends the next batch's chord (:func:`_rate_from`).
     No task waits for another. The schedule is kept once, in Redis
     (``ratings.handoff``), and each step reads the batch it rates from there. What
     one batch hands to the next (a :class:`Step`: the state and the schedule's key)
     rides in the chord as its first member, ``carry``, which returns it unchanged: a
     chord copies its callback's signature into every chunk's message, so that
     signature stays small.

4. **store** (``_publish``): the list, assembled from the state (``ranking_list``), is
   written with its counts in one transaction.
5. **finish** (``_finish``): the run's status (published, unchanged, locked, failed)
   and its message.

Either way:

* **One run per month at a time**: a second run reports *locked*; a run whose process
  died is marked failed by the next one. Between two steps a fanned-out run holds no
  lock (its row, running and carried by a task, keeps the month) and publishes only if
  its row is still running at its last step; a chunk or step that fails marks it
  failed (the chord's error callback, ``ratings.tasks.run_failed``).
* **All or nothing.** The list and its entries are written in one transaction at the
  end; a run that dies earlier leaves nothing, and a rerun computes the same list from
  the same inputs.
* **Immutable lists.** An already published month is left alone unless forced; a
  forced run publishes a new revision and keeps the old one.
* **The same list, bit for bit.** Both ways make the same calls on the same numbers
  (``ratings.engine.schedule``), and a step's arrays travel as their bytes.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from celery import chord, signature
from celery.canvas import Signature
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from federation.months import month_index
from ratings.caching import lists_published
from ratings.engine.batch import ChunkIncrements, combine_arrays
from ratings.engine.columns import ResultColumns
from ratings.engine.params import Params
from ratings.engine.ranking import MapFn, compute_ranking, ranking_list
from ratings.engine.ranking import RankingList as ComputedList
from ratings.engine.schedule import Schedule
from ratings.engine.wire import pack, unpack
from ratings.handoff import (
    schedule_batch,
    schedule_drop,
    schedule_head,
    schedule_keep,
    schedules_drop,
)
from ratings.locking import MonthLocked, claim_month, month_lock
from ratings.models import RankingList, RankingRun
from ratings.publication import list_parts_store, store_list
from ratings.storage import inputs_hash, month_columns

logger = logging.getLogger(__name__)


def ranking_params() -> Params:
    """The ranking parameters of ``settings.RANKING_PARAMS``."""
    try:
        return Params(**settings.RANKING_PARAMS)
    except (TypeError, ValueError) as exc:
        raise ImproperlyConfigured(f"RANKING_PARAMS: {exc}") from exc


@dataclass(frozen=True)
class Inputs:
    """What a run computes its list from, read once under the month's lock."""

    results: ResultColumns  # the window, rows in canonical order (no object per result)
    params: Params
    players: int
    chunk_size: int

    @property
    def digest(self) -> str:
        """``inputs_hash``: stored with the list."""
        return inputs_hash(self.results, self.params)

    def hashing(self) -> Future[str]:
        """``digest``, made in a thread: the month close starts it once the list is
        computed, so that it runs on the other core while PostgreSQL writes the list
        (``store_list`` waits for it only before the commit). The hash is numpy and
        sha256 on large buffers, which let go of the GIL, but started alongside the
        computation it would slow it down by as much as it saved."""
        pool = ThreadPoolExecutor(1, thread_name_prefix="inputs-hash")
        try:
            return pool.submit(inputs_hash, self.results, self.params)
        finally:
            pool.shutdown(wait=False)  # the thread ends with its one task


# -- begin, read, store, finish: the steps both ways share -------------------------------


def _begin(run: RankingRun) -> RankingRun:
    run.status, run.started_at = RankingRun.Status.RUNNING, timezone.now()
    run.save(update_fields=["status", "started_at"])
    return run


@contextmanager
def _settled(run: RankingRun) -> Iterator[None]:
    """A locked month ends the run as *locked*; any other error as *failed*, and is
    raised again."""
    try:
        yield
    except MonthLocked as exc:
        _finish(run, RankingRun.Status.LOCKED, str(exc))
    except Exception as exc:
        _finish(run, RankingRun.Status.FAILED, f"{type(exc).__name__}: {exc}")
        raise


def _read_inputs(run: RankingRun, chunk_size: int | None) -> Inputs | None:
    """Under the month's lock: take the month, then read the window (None: unchanged)."""
    claim_month(run)
    published = RankingList.objects.filter(game=run.game_id, month=run.month)
    if published.exists() and not run.force:
        _finish(run, RankingRun.Status.UNCHANGED, "already published; use force to re-run")
        return None
    params = ranking_params()
    results = month_columns(run.game, run.month, params)
    players = len(results.names)
    RankingRun.objects.filter(pk=run.pk).update(players_total=players, players_done=0)
    return Inputs(
        results=results,
        params=params,
        players=players,
        chunk_size=chunk_size or settings.RANKING_CHUNK_SIZE,
    )


def _publish(
    run: RankingRun,
    computed: ComputedList,
    digest: str | Future[str],
    results_count: int,
    message: str = "",
) -> RankingRun:
    with transaction.atomic():  # the list is never seen without its counts
        ranking = store_list(run.game, run.month, computed, digest, results_count)
        list_parts_store(ranking, [entry.provisional for entry in computed.entries])
    lists_published()
    RankingRun.objects.filter(pk=run.pk).update(players_done=F("players_total"))
    logger.info("published %s with %d entries", ranking, len(computed.entries))
    return _finish(run, RankingRun.Status.PUBLISHED, message, ranking=ranking)


def _finish(
    run: RankingRun, status: str, message: str = "", ranking: RankingList | None = None
) -> RankingRun:
    run.refresh_from_db(fields=["players_total", "players_done"])
    run.status = status
    run.message = message
    run.ranking = ranking
    run.finished_at = timezone.now()
    run.save(update_fields=["status", "message", "ranking", "finished_at"])
    return run


def run_refuse(run: RankingRun, message: str) -> RankingRun:
    """End ``run`` failed before it began (its month is still open)."""
    return _finish(run, RankingRun.Status.FAILED, message)


def run_fail(*, run_id: int, message: str) -> None:
    """Mark a running run failed (a fanned-out step raised) and drop its schedule."""
    RankingRun.objects.filter(pk=run_id, status=RankingRun.Status.RUNNING).update(
        status=RankingRun.Status.FAILED, finished_at=timezone.now(), message=message
    )
    schedules_drop(run_id)


# -- in process ------------------------------------------------------------------------


def run_close(*, run: RankingRun, map_fn: MapFn = map, chunk_size: int | None = None) -> RankingRun:
    """Take ``run`` through every step in this process; ``map_fn`` rates the chunks
    (builtin ``map``, or a process pool's map). Returns the run, which says what
    happened: published, unchanged (already published, not forced) or locked."""
    _begin(run)
    with _settled(run), month_lock(run.game, run.month):
        inputs = _read_inputs(run, chunk_size)
        if inputs is not None:
            progress = Progress(run, inputs.players, _chunk_count(inputs))
            computed = compute_ranking(
                inputs.results,
                month_index(run.month),
                inputs.params,
                chunk_size=inputs.chunk_size,
                map_fn=progress.wrap(map_fn),
            )
            _publish(run, computed, inputs.hashing(), len(inputs.results))
    return run


@dataclass
class Progress:
    """Counts finished chunks and writes players processed to the run row."""

    run: RankingRun
    players: int
    chunks: int
    done: int = 0

    def wrap(self, map_fn: MapFn) -> MapFn:
        def counted(fn, tasks):
            for increments in map_fn(fn, tasks):
                self.done += 1
                self.save()
                yield increments

        return counted

    def save(self) -> None:
        processed = self.players if self.chunks == 0 else self.players * self.done // self.chunks
        RankingRun.objects.filter(pk=self.run.pk).update(players_done=processed)


def _chunk_count(inputs: Inputs) -> int:
    _, per_batch = np.unique(inputs.results.counted, return_counts=True)
    return int((-(-per_batch // inputs.chunk_size)).sum())


# -- fanned out: a chord per batch ---------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """What a fanned-out run hands from one batch's chord to the next."""

    key: str  # where the run's schedule is kept (``ratings.handoff``)
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
        fields = {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}
        arrays = {"mu": pack(self.mu), "sigma": pack(self.sigma)}
        return {**fields, **arrays}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Step:
        arrays = {"mu": unpack(data["mu"]), "sigma": unpack(data["sigma"])}
        return cls(**{**data, **arrays})


def run_fan_out(*, run: RankingRun) -> None:
    """Begin ``run`` and read its inputs under the lock, then send the first chord
    (or publish at once when no batch has results). The run is still running on
    return, unless it ended unchanged, locked or failed."""
    _begin(run)
    inputs = None
    with _settled(run), month_lock(run.game, run.month):
        inputs = _read_inputs(run, None)
    if inputs is None:
        return  # unchanged or locked: the run says which
    try:
        step = _first_step(run, inputs)
        del inputs  # the schedule in Redis holds all that is needed: let the window go
        _rate_from(run.pk, step, step.batch, step.mu, step.sigma)
    except Exception as exc:  # e.g. no result backend for chords; eagerly, a failed step
        run_fail(run_id=run.pk, message=f"{type(exc).__name__}: {exc}")
        raise


def _first_step(run: RankingRun, inputs: Inputs) -> Step:
    """The step before the first batch: the schedule kept, everybody at the start."""
    schedule = Schedule.build(
        inputs.results, month_index(run.month), inputs.params, inputs.chunk_size
    )
    mu, sigma = schedule.start()
    return Step(
        key=schedule_keep(run.pk, schedule),
        batch=schedule.batches().start,
        mu=mu,
        sigma=sigma,
        digest=inputs.digest,
        results=len(inputs.results),
        chunks=schedule.chunk_count(),
    )


def _rate_from(run_id: int, step: Step, batch: int, mu: np.ndarray, sigma: np.ndarray) -> None:
    """Walk the batches from ``batch`` (state ``mu``, ``sigma`` after the one before):
    send the chord of the first batch with results, or publish the list if none is left.

    An empty batch only widens every sigma: the same calls ``compute_ranking`` makes.
    """
    head = schedule_head(step.key)  # the players and parameters; each batch's rows apart
    for current in head.batches(batch):
        sigma, tasks = schedule_batch(step.key, head, current).open(current, mu, sigma)
        if tasks:
            handed = replace(
                step,
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
        computed=ranking_list(head, mu, sigma),
        digest=step.digest,
        results_count=step.results,
        message=message,
    )
    schedule_drop(step.key, head)


def batch_chord(run_id: int, step: dict[str, Any], chunks: list[dict[str, Any]]) -> Signature:
    """One batch: its chunk tasks, with the step carried alongside, then ``batch_rated``
    (the tasks of ``ratings.tasks``, by name: it calls back into this module)."""
    callback = signature("ratings.tasks.batch_rated", args=(run_id,))
    callback = callback.on_error(signature("ratings.tasks.run_failed", args=(run_id,)))
    members = [signature("ratings.tasks.carry", args=(step,))]
    members += [signature("ratings.tasks.rate_chunk", args=(chunk,)) for chunk in chunks]
    return chord(members, callback)


def batch_fold(*, run_id: int, parts: list[dict[str, Any]]) -> None:
    """A batch's chord is rated (``parts``: the step, then each chunk's increments):
    fold the chunks into the state, then carry on from the next batch."""
    if not RankingRun.objects.filter(pk=run_id, status=RankingRun.Status.RUNNING).exists():
        return  # failed, or taken for lost by another run: no more work for it
    step = Step.from_dict(parts[0])
    increments = [ChunkIncrements.from_dict(part) for part in parts[1:]]
    mu, sigma = combine_arrays(step.mu, step.sigma, increments)
    step = replace(step, done=step.done + len(increments))
    _progress(run_id=run_id, chunks_done=step.done, chunks=step.chunks)
    _rate_from(run_id, step, step.batch + 1, mu, sigma)


def _progress(*, run_id: int, chunks_done: int, chunks: int) -> None:
    """Players processed, in proportion to the chunks rated so far."""
    run = RankingRun.objects.filter(pk=run_id)
    total = run.values_list("players_total", flat=True).first() or 0
    run.update(players_done=total * chunks_done // max(chunks, 1))


def ranking_store(
    *, run_id: int, computed: ComputedList, digest: str, results_count: int, message: str = ""
) -> RankingRun:
    """A fanned-out run's last step: publish ``computed`` if the run still holds its month.

    The run row is locked while the list is written: a run that another one took for
    lost in the meantime (marked failed) publishes nothing.
    """
    with transaction.atomic():
        run = RankingRun.objects.select_for_update().select_related("game").get(pk=run_id)
        if run.status != RankingRun.Status.RUNNING:
            logger.warning("run %s is %s: its list is not published", run.pk, run.status)
            return run
        return _publish(run, computed, digest, results_count, message)
