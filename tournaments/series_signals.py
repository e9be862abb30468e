"""When a series' standings are computed again (``tournaments.series``): a tournament
of it finishes, a match of one of its tournaments is corrected or withdrawn, the
series or its list of tournaments changes. Connected in ``TournamentsConfig.ready``."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import m2m_changed, post_save
from django.dispatch import receiver

from federation.models import Game
from scoring.models import MatchEvent
from scoring.signals import match_changed
from tournaments.models import Series, Table, Tournament
from tournaments.series import recompute_on_commit, series_check

STANDINGS_ONLY = frozenset({"standings", "computed_at"})


@receiver(post_save, sender=Tournament)
def _tournament_saved(sender: Any, instance: Tournament, **kwargs: Any) -> None:
    if instance.status == Tournament.Status.FINISHED:
        recompute_on_commit(instance.series.values_list("pk", flat=True))


@receiver(match_changed)
def _match_changed(sender: Any, match: Any, action: str = "", **kwargs: Any) -> None:
    if action not in (MatchEvent.Action.CORRECTED, MatchEvent.Action.WITHDRAWN):
        return  # a result recorded at a table finishes its tournament: _tournament_saved
    table = Table.objects.filter(match=match).select_related("round__tournament").first()
    if table is None:
        return
    tournament = table.round.tournament
    if tournament.status == Tournament.Status.FINISHED:
        recompute_on_commit(tournament.series.values_list("pk", flat=True))


@receiver(post_save, sender=Series)
def _series_saved(sender: Any, instance: Series, update_fields: Any = None, **kwargs: Any) -> None:
    if update_fields is not None and set(update_fields) <= STANDINGS_ONLY:
        return
    recompute_on_commit([instance.pk])


@receiver(m2m_changed, sender=Series.tournaments.through)
def _series_tournaments(
    sender: Any, instance: Any, action: str, reverse: bool, pk_set: Any, **kwargs: Any
) -> None:
    """A tournament of another game is refused before it is added, from either side."""
    if action == "pre_add" and pk_set:
        if reverse:  # tournament.series.add(series...)
            for series in Series.objects.filter(pk__in=pk_set).select_related("game"):
                series_check(game=series.game, tournaments=[instance])
        else:
            game = Game.objects.get(pk=instance.game_id)
            added = Tournament.objects.filter(pk__in=pk_set).select_related("game")
            series_check(game=game, tournaments=added)
    if action in ("post_add", "post_remove", "post_clear"):
        ids = list(pk_set or []) if reverse else [instance.pk]
        if reverse and action == "post_clear":
            ids = list(instance.series.values_list("pk", flat=True))
        recompute_on_commit(ids)
