"""Reads of published ranking lists."""

from __future__ import annotations

from datetime import date

from django.db.models import F, OuterRef, QuerySet, Subquery

from ratings.models import RankingEntry, RankingList


def ranking_get(*, game: str, month: date, revision: int | None = None) -> RankingList | None:
    """The published list (the latest revision unless one is asked for)."""
    lists = RankingList.objects.select_related("game").filter(game__key=game, month=month)
    if revision is not None:
        return lists.filter(revision=revision).first()
    return lists.order_by("-revision").first()


def ranking_months(*, game: str) -> QuerySet[RankingList]:
    """The latest revision of every published month of ``game``, newest first."""
    latest = (
        RankingList.objects.filter(game__key=game, month=OuterRef("month"))
        .order_by("-revision")
        .values("pk")[:1]
    )
    return (
        RankingList.objects.filter(game__key=game, pk=Subquery(latest))
        .select_related("game")
        .order_by("-month")
    )


def ranking_entries(ranking: RankingList, *, provisional: bool) -> QuerySet[RankingEntry]:
    return (
        ranking.entries.filter(provisional=provisional)
        .select_related("player")
        .order_by("position")
    )


def player_history(*, player_id: int) -> QuerySet[RankingEntry]:
    """The player's entry in the latest revision of every published list."""
    latest = (
        RankingList.objects.filter(game=OuterRef("ranking__game"), month=OuterRef("ranking__month"))
        .order_by("-revision")
        .values("revision")[:1]
    )
    return (
        RankingEntry.objects.filter(player_id=player_id)
        .annotate(latest_revision=Subquery(latest))
        .filter(ranking__revision=F("latest_revision"))
        .select_related("ranking__game")
        .order_by("ranking__game__key", "-ranking__month")
    )
