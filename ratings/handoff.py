"""Where a fanned-out month close keeps its schedule between its chords: Redis, once.

A fanned-out run (``ratings.close``) reads its window once; its chords then rate it one
batch each, on any worker. The schedule is written here once, in parts (its
:meth:`~ratings.engine.schedule.Schedule.head` and each batch's rows, as JSON), under
keys named by the run and a random token; each step reads the head and the rows of the
batch it rates, and the messages carry only the key. So a 10M-result window crosses
Redis once rather than three times per batch (the first member of a chord, its result,
the callback's arguments).

The store is the Redis of the chords' result backend (``CELERY_RESULT_BACKEND``: a
chord needs one anyway), reachable by every worker; the keys expire after the lease of
a run carried by tasks (``ratings.locking.TASK_RUN_LEASE``), by which time the run is
taken for lost anyway, and are deleted as soon as the list is published or the run
fails.
"""

from __future__ import annotations

import json
import logging
import secrets

import redis
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from ratings.engine.schedule import Schedule
from ratings.locking import TASK_RUN_LEASE

logger = logging.getLogger(__name__)

PREFIX = "quotient:ratings:schedule"


class ScheduleGone(RuntimeError):
    """The schedule of a fanned-out run is no longer in Redis (expired, or flushed)."""


def _redis() -> redis.Redis:
    url = settings.CELERY_RESULT_BACKEND or ""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(
            "RANKING_FAN_OUT needs a Redis result backend (CELERY_RESULT_BACKEND): "
            "the chords and the run's schedule live there"
        )
    return redis.Redis.from_url(url)


def schedule_keep(run_id: int, schedule: Schedule) -> str:
    """Write ``schedule`` in parts, once; returns the key its steps read it by."""
    key = f"{PREFIX}:{run_id}:{secrets.token_hex(8)}"
    ttl = int(TASK_RUN_LEASE.total_seconds())
    client = _redis()
    client.set(f"{key}:head", json.dumps(schedule.head()), ex=ttl)
    for batch in schedule.batches():  # one write each: a batch's rows stay well under 512 MB
        client.set(f"{key}:{batch}", json.dumps(schedule.rows(batch)), ex=ttl)
    return key


def schedule_head(key: str) -> Schedule:
    """The schedule's players and parameters, no results: what the finished list needs."""
    return Schedule.from_head(_read(key, "head"))


def schedule_batch(key: str, head: Schedule, batch: int) -> Schedule:
    """The schedule of ``batch`` alone (``head`` from :func:`schedule_head`)."""
    return head.with_rows(_read(key, str(batch)))


def schedule_drop(key: str, head: Schedule) -> None:
    """Delete the schedule's parts (the list is published)."""
    _redis().delete(f"{key}:head", *(f"{key}:{batch}" for batch in head.batches()))


def schedules_drop(run_id: int) -> None:
    """Delete whatever schedule ``run_id`` kept (the run failed). Best effort: the run
    may have failed for want of Redis, and the keys expire anyway."""
    try:
        client = _redis()
        keys = list(client.scan_iter(f"{PREFIX}:{run_id}:*", count=1000))
        if keys:
            client.delete(*keys)
    except (redis.RedisError, ImproperlyConfigured) as exc:
        logger.warning("run %s: its schedule was not dropped (%s)", run_id, exc)


def _read(key: str, part: str) -> dict:
    raw = _redis().get(f"{key}:{part}")
    if raw is None:
        raise ScheduleGone(f"the run's schedule is gone from Redis ({key}:{part})")
    return json.loads(raw)
