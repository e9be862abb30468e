"""What the ranking pages' caches depend on, kept in the cache itself.

A *generation* is a value that changes whenever something a set of pages shows
changes: ``lists`` when a list is published (or removed), ``players`` when a player or
a club is saved (names and clubs shown in the lists), ``matches`` when a match is
recorded, corrected or withdrawn (a player's page and "why my number changed"). Each
is the time it last changed (nanoseconds, with a random tag: two changes within one
tick, or under a frozen test clock, still differ), so it doubles as a Last-Modified. Pages
name the generations they depend on in their ETag and cache keys: a change makes new
keys, and nothing is deleted. A lost cache (Redis restarted, evicted) starts new
generations: every page is recomputed once, never served stale.
"""

from __future__ import annotations

import secrets
import time
from datetime import UTC, date, datetime

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from federation.models import Club, Player
from quotient.http_cache import LONG
from ratings.models import RankingList
from ratings.selectors import ranking_get, ranking_months
from scoring.signals import match_changed

LISTS, PLAYERS, MATCHES = "gen:lists", "gen:players", "gen:matches"


Generation = tuple[int, str]


def _fresh() -> Generation:
    return time.time_ns(), secrets.token_hex(4)


def generations(*names: str) -> dict[str, Generation]:
    """The current value of each generation (one cache read when they are known)."""
    found = cache.get_many(list(names))
    for name in names:
        if name not in found:
            fresh = _fresh()
            found[name] = fresh if cache.add(name, fresh, None) else cache.get(name, fresh)
    return found


def tag(value: Generation) -> str:
    """A generation as a part of a cache key."""
    return f"{value[0]}-{value[1]}"


def changed_at(*values: Generation) -> datetime:
    """The latest of generation values, as a time (a Last-Modified)."""
    return datetime.fromtimestamp(max(value[0] for value in values) / 1e9, UTC)


def bump(name: str) -> None:
    cache.set(name, _fresh(), None)


def lists_published() -> None:
    """At a publication: pages of the latest lists change."""
    _bump_on_commit(LISTS)


def _bump_on_commit(name: str) -> None:
    """Now (the writing transaction reads its own change) and again at its commit (a
    page computed meanwhile by another process, from the data before, is left behind)."""
    bump(name)
    transaction.on_commit(lambda: bump(name))


@receiver(match_changed)
def _match_changed(sender: object, **kwargs: object) -> None:
    _bump_on_commit(MATCHES)


@receiver(post_save, sender=Player)
@receiver(post_delete, sender=Player)
@receiver(post_save, sender=Club)
@receiver(post_delete, sender=Club)
def _player_changed(sender: object, **kwargs: object) -> None:
    _bump_on_commit(PLAYERS)


@receiver(post_delete, sender="ratings.RankingList")
def _list_removed(sender: object, **kwargs: object) -> None:
    _bump_on_commit(LISTS)


def list_key(game: str, month: date, revision: int | None, lists: Generation) -> str:
    """The cache key of a list's row: by revision, or the latest one as of ``lists``."""
    return f"list:{game}:{month:%Y-%m}:{revision or 'latest'}:{tag(lists)}"


def published_list(
    *, game: str, month: date, revision: int | None = None, lists: Generation
) -> RankingList | None:
    """``ranking_get``, kept in the cache (``lists``: the lists' generation)."""
    key = list_key(game, month, revision, lists)
    ranking = cache.get(key)
    if ranking is None:
        ranking = ranking_get(game=game, month=month, revision=revision)
        if ranking is not None:
            cache.set(key, ranking, LONG)
    return ranking


def latest_month(*, game: str, lists: Generation) -> date | None:
    """The month of ``game``'s latest published list, kept in the cache."""
    key = f"latest:{game}:{tag(lists)}"
    month = cache.get(key)
    if month is None:
        latest = ranking_months(game=game).first()
        month = latest.month if latest is not None else None
        if month is not None:
            cache.set(key, month, LONG)
    return month
