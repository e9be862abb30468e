"""The ranking API's serializers."""

from __future__ import annotations

from datetime import UTC
from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.generations import Generation, tag
from core.http_cache import NEAR_TIMEOUT
from core.near_cache import near
from federation.months import month_label
from ratings.models import RankingEntry, RankingList
from ratings.selectors import EntryRow, GameMonths

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


class RankingHeadSerializer(serializers.Serializer):
    """What a published list's answer says about the list, whatever its page."""

    game = serializers.CharField(source="game.key")
    month = MonthField()
    revision = serializers.IntegerField()
    published_at = PublishedAtField()
    inputs_hash = serializers.CharField()
    parameters = serializers.JSONField()
    engine_version = serializers.CharField()


# the answer's schema; ``list_head`` and the ``*_entry`` functions write the answer
class RankingListSerializer(RankingHeadSerializer):
    """A published list and one page of each of its two parts."""

    entries = RankingEntrySerializer(many=True)
    entries_page = PageLinksSerializer()
    provisional = ProvisionalEntrySerializer(many=True)
    provisional_page = PageLinksSerializer()


def list_head(ranking: RankingList, lists: Generation) -> dict:
    """``RankingHeadSerializer``'s data for ``ranking``, kept by the process (a
    published list does not change; ``lists``: the lists' generation)."""
    key = f"list-head:{ranking.pk}:{ranking.published_at.timestamp()}:{tag(lists)}"
    head = near.get(key)
    if head is None:
        head = dict(RankingHeadSerializer(ranking).data)
        near.set(key, head, NEAR_TIMEOUT)
    return head


def ranked_entry(row: EntryRow) -> dict:
    """What ``RankingEntrySerializer`` writes of the entry ``row``."""
    return {
        "rank": row.rank,
        "player": row.handle,
        "name": row.name,
        "fladub": row.fladub,
        "mu": row.mu,
        "sigma": row.sigma,
        "results_counted": row.results_counted,
        "movement": row.movement,
    }


def provisional_entry(row: EntryRow) -> dict:
    """What ``ProvisionalEntrySerializer`` writes of the entry ``row``."""
    return {
        "player": row.handle,
        "name": row.name,
        "fladub": row.fladub,
        "mu": row.mu,
        "sigma": row.sigma,
        "results_counted": row.results_counted,
        "movement": row.movement,
    }


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
