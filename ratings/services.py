"""Publishing the monthly world ranking (the month close).

``ranking_publish`` is the one entry point: the Celery task, the beat schedule
and the ``publish_rankings`` command all call it. Its guarantees:

* **One run per month at a time.** A PostgreSQL advisory lock (session level,
  tried without waiting) guards (game, month); a second run reports *locked*. A
  worker killed mid-run drops its connection, which releases the lock.
* **All or nothing.** The list and its entries are written in one transaction at
  the end; a run that dies earlier leaves nothing, and a rerun computes the same
  list from the same inputs.
* **Immutable lists.** An already published month is left alone unless forced; a
  forced run publishes a new revision and keeps the old one.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from federation.models import Game
from federation.months import month_index, month_label
from ratings.engine.batch import ChunkIncrements, ChunkTask
from ratings.engine.params import Params
from ratings.engine.ranking import compute_ranking
from ratings.engine.results import Result
from ratings.models import RankingList, RankingRun
from ratings.storage import inputs_hash, month_date, month_results, store_list

logger = logging.getLogger(__name__)

#: first key of the two-int advisory lock: "QUO" in ASCII
LOCK_CLASS = 0x51554F

MapFn = Callable[
    [Callable[[ChunkTask], ChunkIncrements], Iterable[ChunkTask]], Iterable[ChunkIncrements]
]


class MonthLocked(Exception):
    """Another run holds the (game, month) lock."""


def ranking_params() -> Params:
    return Params(**getattr(settings, "RANKING_PARAMS", {}))


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
            raise MonthLocked(f"{game.key} {month:%Y-%m} is being computed by another run")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [LOCK_CLASS, key])


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


def _chunk_count(results: list[Result], chunk_size: int) -> int:
    per_batch: dict[int, int] = {}
    for result in results:
        per_batch[result.counted] = per_batch.get(result.counted, 0) + 1
    return sum(math.ceil(n / chunk_size) for n in per_batch.values())


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


def ranking_publish(
    *,
    game: Game,
    month: date,
    force: bool = False,
    run: RankingRun | None = None,
    map_fn: MapFn = map,
    chunk_size: int | None = None,
    lock: bool = True,
) -> RankingRun:
    """Compute and publish the list of ``game`` for ``month``; returns the run.

    The run's status says what happened: published, unchanged (already
    published and not forced) or locked (another run holds the month).
    ``lock=False`` exists only for the race test's negative control.
    """
    month = month.replace(day=1)
    run = run or RankingRun.objects.create(game=game, month=month, force=force)
    run.status, run.started_at = RankingRun.Status.RUNNING, timezone.now()
    run.save(update_fields=["status", "started_at"])
    try:
        with month_lock(game, month) if lock else _no_lock():
            return _publish_locked(run, game, month, force, map_fn, chunk_size)
    except MonthLocked as exc:
        return _finish(run, RankingRun.Status.LOCKED, str(exc))
    except Exception as exc:
        _finish(run, RankingRun.Status.FAILED, f"{type(exc).__name__}: {exc}")
        raise


@contextmanager
def _no_lock() -> Iterator[None]:
    yield


def _abandon_dead_runs(run: RankingRun) -> None:
    """Runs of this month still marked running died (we hold the month's lock)."""
    RankingRun.objects.filter(
        game=run.game_id, month=run.month, status=RankingRun.Status.RUNNING
    ).exclude(pk=run.pk).update(
        status=RankingRun.Status.FAILED,
        finished_at=timezone.now(),
        message="abandoned: its process stopped before publishing (nothing was stored)",
    )


def _publish_locked(run, game, month, force, map_fn, chunk_size) -> RankingRun:
    _abandon_dead_runs(run)
    published = RankingList.objects.filter(game=game, month=month)
    if published.exists() and not force:
        return _finish(run, RankingRun.Status.UNCHANGED, "already published; use force to re-run")
    params = ranking_params()
    chunk_size = chunk_size or settings.RANKING_CHUNK_SIZE
    results = month_results(game, month, params)
    players = len({p for r in results for p in r.players})
    progress = Progress(run, players, _chunk_count(results, chunk_size))
    RankingRun.objects.filter(pk=run.pk).update(players_total=players, players_done=0)
    computed = compute_ranking(
        results, month_index(month), params, chunk_size=chunk_size, map_fn=progress.wrap(map_fn)
    )
    ranking = store_list(game, month, computed, inputs_hash(results, params), len(results))
    RankingRun.objects.filter(pk=run.pk).update(players_done=players)
    logger.info("published %s with %d entries", ranking, len(computed.entries))
    return _finish(run, RankingRun.Status.PUBLISHED, ranking=ranking)


def previous_month(today: date) -> date:
    """The month to close on ``today`` (the month before today's)."""
    return month_date(month_index(today) - 1)


def ranking_close_month(*, month: date, enqueue: Callable[[RankingRun], None]) -> list[RankingRun]:
    """Queue one run per game for ``month``; each is enqueued after commit."""
    runs = []
    with transaction.atomic():
        for game in Game.objects.all():
            run = RankingRun.objects.create(game=game, month=month.replace(day=1))
            transaction.on_commit(lambda run=run: enqueue(run))
            runs.append(run)
    return runs


def label(month: date) -> str:
    return month_label(month_index(month))


def result_summary(run: RankingRun) -> dict[str, Any]:
    return {
        "game": run.game.key,
        "month": label(run.month),
        "status": run.status,
        "players_total": run.players_total,
        "players_done": run.players_done,
        "revision": run.ranking.revision if run.ranking else None,
        "message": run.message,
    }
