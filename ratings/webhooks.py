"""The ranking event of webhooks (``hooks``): ``ranking.published``, reported once the
list (or a new revision of it) is committed. It concerns the whole federation: every
endpoint subscribed to it is sent it, whatever its club.

Its data (``RankingPublished`` in ``hooks/payloads.schema.json``): the list's game,
month, revision, counts and links, and its first ten ranked players by handle and
public name.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from core.site import absolute_url
from federation.months import month_label
from hooks.emit import emit_on_commit
from hooks.events import RANKING_PUBLISHED
from ratings.models import RankingList

TOP = 10


@receiver(post_save, sender=RankingList)
def _published(sender: object, instance: RankingList, created: bool, **kwargs: object) -> None:
    if created:
        emit_on_commit(
            RANKING_PUBLISHED,
            occurred_at=instance.published_at,
            club_id=None,
            data=partial(ranking_data, instance.pk),
        )


def ranking_data(ranking_id: int) -> dict[str, Any]:
    ranking = RankingList.objects.select_related("game").get(pk=ranking_id)
    month = month_label(ranking.month)
    top = (
        ranking.entries.filter(rank__isnull=False)
        .select_related("player")
        .order_by("position")[:TOP]
    )
    return {
        "ranking": {
            "game": ranking.game.key,
            "month": month,
            "revision": ranking.revision,
            "published_at": ranking.published_at.isoformat(),
            "url": absolute_url("ranking-month", ranking.game.key, month),
            "api_url": absolute_url("api-ranking-detail", ranking.game.key, month),
            "ranked": ranking.ranked_count,
            "provisional": ranking.provisional_count,
            "results_counted": ranking.results_counted,
        },
        "top": [
            {
                "rank": entry.rank,
                "player": entry.player.handle,
                "name": entry.player.public_display_name,
                "fladub": entry.fladub,
            }
            for entry in top
        ],
    }
