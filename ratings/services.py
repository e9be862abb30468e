"""Publishing the monthly world ranking (the month close).

A run computes the list of one game and month. ``ranking_publish`` does all of it in
one process: the ``publish_rankings`` command, the beat job's task (by default) and
the tests call it. With ``RANKING_FAN_OUT`` the task splits the same steps across
Celery tasks (``ratings.tasks``): ``ranking_prepare``, one chord of chunk tasks per
monthly batch, then ``ranking_store``. Either way:

* **One run per month at a time** (``ratings.locking``): a second run reports
  *locked*; a run whose process died is marked failed by the next one. A fanned-out
  run publishes only if its row is still running at its last step.
* **All or nothing.** The list and its entries are written in one transaction at
  the end; a run that dies earlier leaves nothing, and a rerun computes the same
  list from the same inputs.
* **Immutable lists.** An already published month is left alone unless forced; a
  forced run publishes a new revision and keeps the old one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import partial
from typing import Any

import numpy as np
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from federation.models import Game
from federation.months import first_day, last_day, month_index, month_label
from ratings.caching import lists_published
from ratings.engine.batch import ChunkIncrements, ChunkTask
from ratings.engine.params import Params
from ratings.engine.ranking import RankingList as ComputedList
from ratings.engine.ranking import compute_ranking
from ratings.engine.results import ResultColumns
from ratings.locking import MonthLocked, claim_month, month_lock
from ratings.models import RankingList, RankingRun
from ratings.storage import inputs_hash, month_columns, store_list

logger = logging.getLogger(__name__)

MapFn = Callable[
    [Callable[[ChunkTask], ChunkIncrements], Iterable[ChunkTask]], Iterable[ChunkIncrements]
]


class MonthOpen(Exception):
    """The month's submission deadline has not passed: its list cannot be published."""


def month_closed_check(month: date, now: datetime | None = None) -> None:
    """Refuse a month whose deadline (its last day, 23:59:59 federation time) has not
    passed: a list published early would miss the month's last results and, being
    immutable, could never be taken back."""
    today = timezone.localtime(now or timezone.now()).date()
    if today <= last_day(month):
        raise MonthOpen(
            f"{month_label(month)} is still open: its deadline is {last_day(month)} "
            f"23:59 ({settings.TIME_ZONE}); its list can be published from the next day"
        )


def ranking_params() -> Params:
    """The ranking parameters of ``settings.RANKING_PARAMS``."""
    try:
        return Params(**settings.RANKING_PARAMS)
    except (TypeError, ValueError) as exc:
        raise ImproperlyConfigured(f"RANKING_PARAMS: {exc}") from exc


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


def _begin(game: Game, month: date, force: bool, run: RankingRun | None) -> RankingRun:
    run = run or RankingRun.objects.create(game=game, month=first_day(month), force=force)
    run.status, run.started_at = RankingRun.Status.RUNNING, timezone.now()
    run.save(update_fields=["status", "started_at"])
    return run


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
            _finish(run, RankingRun.Status.FAILED, str(exc))
        raise
    run = _begin(game, month, force, run)
    try:
        with month_lock(game, month):
            inputs = _read_inputs(run, chunk_size)
            if inputs is None:
                return run
            progress = Progress(run, inputs.players, _chunk_count(inputs))
            computed = compute_ranking(
                inputs.results,
                month_index(month),
                inputs.params,
                chunk_size=inputs.chunk_size,
                map_fn=progress.wrap(map_fn),
            )
            return _publish(run, computed, inputs.hashing(), len(inputs.results))
    except MonthLocked as exc:
        return _finish(run, RankingRun.Status.LOCKED, str(exc))
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


def _chunk_count(inputs: Inputs) -> int:
    _, per_batch = np.unique(inputs.results.counted, return_counts=True)
    return int((-(-per_batch // inputs.chunk_size)).sum())


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


#: a page mark every this many entries of a part (``RankingList.page_marks``)
MARK_STEP = 100


def list_parts_store(ranking: RankingList, provisional: list[bool]) -> None:
    """Store the sizes of ``ranking``'s two parts (ranked, provisional) and their page
    marks: the position of every ``MARK_STEP``-th entry of each part. Positions are
    dense over the whole list, but the two parts interleave, so a page of one part
    starts at a mark and skips fewer than ``MARK_STEP`` entries (``ratings.selectors.
    ListPart``), at any depth. ``provisional``: each entry's flag, in position order."""
    flags = np.asarray(provisional, dtype=bool)
    positions = np.arange(1, flags.size + 1)
    ranked, listed = positions[~flags], positions[flags]
    ranking.ranked_count, ranking.provisional_count = int(ranked.size), int(listed.size)
    ranking.page_marks = {
        "step": MARK_STEP,
        "ranked": ranked[::MARK_STEP].tolist(),
        "provisional": listed[::MARK_STEP].tolist(),
    }
    ranking.save(update_fields=["ranked_count", "provisional_count", "page_marks"])


# -- the fanned-out run's steps (``ratings.tasks``) -------------------------------------


def ranking_prepare(*, run: RankingRun, chunk_size: int | None = None) -> Inputs | None:
    """A fanned-out run's first step: take the month and read the inputs.

    Returns None when the run is already over (unchanged, locked: its status says).
    The lock is released on return; the run row, running and carried by its task,
    keeps the month (see ``ratings.locking.claim_month``).
    """
    run = _begin(run.game, run.month, run.force, run)
    try:
        with month_lock(run.game, run.month):
            return _read_inputs(run, chunk_size)
    except MonthLocked as exc:
        _finish(run, RankingRun.Status.LOCKED, str(exc))
        return None
    except Exception as exc:
        _finish(run, RankingRun.Status.FAILED, f"{type(exc).__name__}: {exc}")
        raise


def ranking_progress(*, run_id: int, chunks_done: int, chunks: int) -> None:
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


def ranking_fail(*, run_id: int, message: str) -> None:
    """Mark a running run failed (a fanned-out step raised)."""
    RankingRun.objects.filter(pk=run_id, status=RankingRun.Status.RUNNING).update(
        status=RankingRun.Status.FAILED, finished_at=timezone.now(), message=message
    )


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


class RunRefused(Exception):
    """A first run that would do nothing: the month is already published (a forced
    re-run revises it) or a run of it is already queued or running."""


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
            raise RunRefused(f"{label} is already published: re-run it to publish a new revision")
        pending = (RankingRun.Status.QUEUED, RankingRun.Status.RUNNING)
        if RankingRun.objects.filter(game=game, month=month, status__in=pending).exists():
            # (two requests racing past this check are harmless: the month's lock lets
            # one run publish, the other then finds the list and reports unchanged)
            raise RunRefused(f"{label} already has a run queued or running")
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
