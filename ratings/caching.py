"""The ranking lists' caches: a published list's row and a game's latest month, kept
under the generation of the lists (``core.generations``, which says how pages
depend on what changes). Publishing or removing a list bumps it."""

from __future__ import annotations

from datetime import date

from django.db.models.signals import post_delete
from django.dispatch import receiver

from core.generations import (
    LISTS,
    MATCHES,
    PLAYERS,
    Generation,
    bump_on_commit,
    changed_at,
    generations,
    tag,
)
from core.http_cache import LONG, keep, kept
from core.near_cache import near
from ratings.models import RankingList
from ratings.selectors import ranking_get, ranking_months

__all__ = ["LISTS", "MATCHES", "PLAYERS", "changed_at", "generations", "tag"]


def lists_published() -> None:
    """At a publication: pages of the latest lists change."""
    bump_on_commit(LISTS)


@receiver(post_delete, sender="ratings.RankingList")
def _list_removed(sender: object, **kwargs: object) -> None:
    bump_on_commit(LISTS)


def list_key(game: str, month: date, revision: int | None, lists: Generation) -> str:
    """The cache key of a list's row: by revision, or the latest one as of ``lists``."""
    return f"list:{game}:{month:%Y-%m}:{revision or 'latest'}:{tag(lists)}"


def published_list(
    *, game: str, month: date, revision: int | None = None, lists: Generation
) -> RankingList | None:
    """``ranking_get``, kept in the cache (``lists``: the lists' generation)."""
    key = list_key(game, month, revision, lists)
    ranking = kept(key)
    if ranking is None:
        ranking = ranking_get(game=game, month=month, revision=revision)
        if ranking is not None:
            keep(key, ranking, LONG)
    return ranking


def published_list_here(
    *, game: str, month: date, revision: int | None = None, lists: Generation
) -> RankingList | None:
    """``published_list`` from this process's copy only (``core.near_cache``): None
    when it has none. No round trip, no query: for a guess
    (``core.http_cache.generations_and_body``)."""
    ranking: RankingList | None = near.get(list_key(game, month, revision, lists))
    return ranking


def latest_month(*, game: str, lists: Generation) -> date | None:
    """The month of ``game``'s latest published list, kept in the cache."""
    key = f"latest:{game}:{tag(lists)}"
    month = kept(key)
    if month is None:
        latest = ranking_months(game=game).first()
        month = latest.month if latest is not None else None
        if month is not None:
            keep(key, month, LONG)
    return month
