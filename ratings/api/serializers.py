"""The ranking API's serializers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC
from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from federation.months import month_label
from ratings.models import RankingEntry, RankingList
from ratings.selectors import (
    GameMonths,
)

MONTH_FORMAT = "Use YYYY-MM, e.g. 2026-11."


class MonthField(serializers.CharField):
    """A month (stored as its first day) as ``YYYY-MM``."""

    def __init__(self, **kwargs) -> None:
        super().__init__(read_only=True, **kwargs)

    def to_representation(self, value) -> str:
        return month_label(value)


class PublishedAtField(serializers.DateTimeField):
    """In UTC (``...Z``), as the API has always written it."""

    def __init__(self, **kwargs) -> None:
        super().__init__(default_timezone=UTC, read_only=True, **kwargs)


class RankingEntrySerializer(serializers.ModelSerializer):
    """A ranked player of a list (movement: places gained since last month; null: new)."""

    player = serializers.CharField(source="player.handle", read_only=True)
    name = serializers.CharField(source="player.public_display_name", read_only=True)

    class Meta:
        model = RankingEntry
        fields = ["rank", "player", "name", "fladub", "mu", "sigma", "results_counted", "movement"]
        read_only_fields = ["rank", "fladub", "mu", "sigma", "results_counted", "movement"]


class ProvisionalEntrySerializer(RankingEntrySerializer):
    """A listed player with too few results to be ranked (no rank)."""

    class Meta(RankingEntrySerializer.Meta):
        fields = [f for f in RankingEntrySerializer.Meta.fields if f != "rank"]


class PageLinksSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)


@dataclass(frozen=True)
class RankingPage:
    """A published list with one page of its ranked entries and one of its provisional."""

    ranking: RankingList
    entries: list[RankingEntry]
    entries_page: dict
    provisional: list[RankingEntry]
    provisional_page: dict


class RankingListSerializer(serializers.Serializer):
    """A published list and one page of each of its two parts."""

    game = serializers.CharField(source="ranking.game.key")
    month = MonthField(source="ranking.month")
    revision = serializers.IntegerField(source="ranking.revision")
    published_at = PublishedAtField(source="ranking.published_at")
    inputs_hash = serializers.CharField(source="ranking.inputs_hash")
    parameters = serializers.JSONField(source="ranking.parameters")
    engine_version = serializers.CharField(source="ranking.engine_version")
    entries = RankingEntrySerializer(many=True)
    entries_page = PageLinksSerializer()
    provisional = ProvisionalEntrySerializer(many=True)
    provisional_page = PageLinksSerializer()


class RankingMonthSerializer(serializers.ModelSerializer):
    """A published month (its latest revision)."""

    month = MonthField()
    published_at = PublishedAtField()
    url = serializers.SerializerMethodField()

    class Meta:
        model = RankingList
        fields = ["month", "revision", "published_at", "results_counted", "url"]
        read_only_fields = ["revision", "results_counted"]

    def get_url(self, ranking: RankingList) -> str:
        path = reverse("api-ranking-detail", args=[ranking.game.key, month_label(ranking.month)])
        return self.context["request"].build_absolute_uri(path)


class PlayerHistorySerializer(serializers.ModelSerializer):
    """A player's entry in one month's list of one game."""

    game = serializers.CharField(source="ranking.game.key", read_only=True)
    month = MonthField(source="ranking.month")

    class Meta:
        model = RankingEntry
        fields = ["game", "month", "rank", "fladub", "provisional", "results_counted", "movement"]
        read_only_fields = ["rank", "fladub", "provisional", "results_counted", "movement"]


def history_body(rows: list[tuple[Any, ...]]) -> dict[str, Any]:
    """A whole history (``player_history_rows``) as the list view writes its one page
    with ``PlayerHistorySerializer`` (its fields, in order, the same types; a test
    compares the two)."""
    return {
        "count": len(rows),
        "next": None,
        "previous": None,
        "results": [
            {
                "game": game,
                "month": month_label(month),
                "rank": rank,
                "fladub": fladub,
                "provisional": provisional,
                "results_counted": results_counted,
                "movement": movement,
            }
            for game, month, rank, fladub, provisional, results_counted, movement in rows
        ],
    }


class GameMonthSerializer(serializers.Serializer):
    month = serializers.CharField()
    revision = serializers.IntegerField()
    url = serializers.URLField()


class RankingGameSerializer(serializers.Serializer):
    """A game and its published months (latest revision of each), newest first."""

    game = serializers.CharField(source="game.key")
    name = serializers.CharField(source="game.label")
    url = serializers.SerializerMethodField()
    months = serializers.SerializerMethodField()

    def _url(self, name: str, *args: str) -> str:
        return self.context["request"].build_absolute_uri(reverse(name, args=args))

    def get_url(self, row: GameMonths) -> str:
        return self._url("api-ranking-months", row.game.key)

    @extend_schema_field(GameMonthSerializer(many=True))
    def get_months(self, row: GameMonths) -> list[dict]:
        return [
            {
                "month": month_label(ranking.month),
                "revision": ranking.revision,
                "url": self._url("api-ranking-detail", row.game.key, month_label(ranking.month)),
            }
            for ranking in row.months
        ]


class CountedResultSerializer(serializers.Serializer):
    """A result the number counted: its match, play date, age (months since its play
    month) and weight in the list."""

    match = serializers.IntegerField(source="match_id")
    played_on = serializers.DateField()
    age = serializers.IntegerField()
    weight = serializers.FloatField()


class PlayerRankingSerializer(serializers.Serializer):
    """A player's number in one list (rank null: provisional) and what it counted."""

    fladub = serializers.IntegerField()
    rank = serializers.IntegerField(allow_null=True)
    results = CountedResultSerializer(many=True)
