"""Mails of the monthly list (``federation.notifications``): once a list is committed,
each ranked player with an account is told their new rank, once per game and month
(a later revision of the same month's list sends nothing again)."""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from core.site import absolute_url
from federation.months import month_label
from federation.notifications import Kind, notify
from ratings.models import RankingEntry, RankingList


@receiver(post_save, sender=RankingList)
def _published(sender: object, instance: RankingList, created: bool, **kwargs: object) -> None:
    if created:  # the entries are stored after the list's row: read them once committed
        transaction.on_commit(partial(ranks_published, instance.pk))


def ranks_published(ranking_id: int) -> int:
    """Notify the ranked players with an account of ``ranking_id``; how many."""
    ranking = RankingList.objects.select_related("game").get(pk=ranking_id)
    month = month_label(ranking.month)
    url = absolute_url("ranking-month", ranking.game.key, month)
    entries = RankingEntry.objects.filter(
        ranking=ranking, rank__isnull=False, player__user__isnull=False
    ).select_related("player__user")
    sent = 0
    for entry in entries:
        context = {"month": month, "game": ranking.game.name, "rank": entry.rank, "url": url}
        key = f"ranking:{ranking.game.key}:{month}"
        sent += notify(Kind.RANK_PUBLISHED, entry.player, key, context)
    return sent
