"""Ranking pages read by position from the marks stored at publication: the same
entries as the plain query at every depth and page size, no COUNT, and as many
queries on a deep page as on the first; the player lookups by the lower(handle) index
with a constant number of queries."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from federation.models import Game, Player
from ratings import publication
from ratings.services import ranking_publish
from tests.builders import record_month

OCT = dt.date(2026, 10, 1)
AFTER = dt.datetime(2026, 11, 2, 9, tzinfo=dt.UTC)
URL = "/api/v1/rankings/divisor/2026-10/"


@pytest.fixture
def october(federation, monkeypatch):
    """Twelve players, some provisional; page marks every 3 entries (so that small
    lists cross marks)."""
    monkeypatch.setattr(publication, "MARK_STEP", 3)
    club, handles = federation
    with time_machine.travel(AFTER, tick=False):
        record_month(club=club, handles=handles[:9], month=OCT, count=40, seed=3)
        record_month(club=club, handles=handles[9:], month=OCT, count=2, seed=4)
        return ranking_publish(game=Game.objects.get(key="divisor"), month=OCT).ranking


@pytest.mark.django_db
def test_the_counts_and_marks_are_stored_at_publication(october):
    ranked = list(october.entries.filter(provisional=False).order_by("position"))
    provisional = list(october.entries.filter(provisional=True).order_by("position"))
    assert ranked and provisional
    assert (october.ranked_count, october.provisional_count) == (len(ranked), len(provisional))
    assert october.page_marks == {
        "step": 3,
        "ranked": [e.position for e in ranked[::3]],
        "provisional": [e.position for e in provisional[::3]],
    }


@pytest.mark.django_db
@pytest.mark.parametrize("size", [1, 2, 4, 5])
def test_every_page_holds_the_entries_of_the_plain_query(client, october, size):
    for part, param, key in [(False, "page", "entries"), (True, "provisional_page", "provisional")]:
        expected = [
            e.player.handle
            for e in october.entries.filter(provisional=part)
            .order_by("position")
            .select_related("player")
        ]
        shown, number = [], 1
        while True:
            body = client.get(URL, {"page_size": size, param: number}).json()
            shown += [row["player"] for row in body[key]]
            assert body[f"{key}_page"]["count"] == len(expected)
            if body[f"{key}_page"]["next"] is None:
                break
            number += 1
        assert shown == expected
        assert client.get(URL, {"page_size": size, param: number + 1}).status_code == 404


def _queries(client, url: str, params: dict) -> list[str]:
    from django.core.cache import cache

    cache.clear()  # the server-side cache would answer: count a computed page
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url, params).status_code == 200
    return [q["sql"] for q in queries.captured_queries]


@pytest.mark.django_db
def test_a_deep_api_page_costs_what_the_first_costs_and_counts_nothing(client, october):
    first = _queries(client, URL, {"page_size": 1})
    deep = _queries(
        client, URL, {"page_size": 1, "page": october.ranked_count, "provisional_page": 2}
    )
    assert len(first) == len(deep) <= 3
    assert not [sql for sql in first + deep if "COUNT(" in sql.upper()]


@pytest.mark.django_db
def test_a_deep_html_page_costs_what_the_first_costs_and_counts_nothing(
    client, october, monkeypatch
):
    monkeypatch.setattr("ratings.views.PER_PAGE", 2)
    page = "/rankings/divisor/2026-10/"
    first = _queries(client, page, {})
    deep = _queries(client, page, {"page": (october.ranked_count + 1) // 2, "provisional_page": 2})
    assert len(first) == len(deep)
    assert not [sql for sql in first + deep if "COUNT(" in sql.upper()]
    assert len(first) <= 6  # list, page, provisional page, clubs, countries, months


@pytest.mark.django_db
def test_player_lookups_use_the_lower_handle_index_in_constant_queries(
    client, october, django_assert_max_num_queries
):
    player = Player.objects.get(handle="p00")
    for url, most in [
        ("/api/v1/players/P00/history/", 3),
        ("/api/v1/players/P00/rankings/divisor/2026-10/", 5),
        ("/players/P00/", 12),
    ]:
        for _ in range(2):  # the second answer comes from the cache
            with django_assert_max_num_queries(most) as queries:
                assert client.get(url).status_code == 200, url
            sql = " ".join(q["sql"] for q in queries.captured_queries)
            assert "UPPER(" not in sql
    assert "LOWER(" in str(Player.objects.by_handle("P00").query).upper()
    assert Player.objects.by_handle("P00").get() == player


@pytest.mark.django_db
def test_every_slice_of_a_part_is_read_within_its_marks(october):
    """A slice is read as the index range between the marks around it: every slice of
    both parts (crossing marks, up to the end past the last mark) holds the entries
    of the plain query, and the range's upper mark is never one of its positions."""
    from ratings.selectors import NO_POSITION, ListPart

    for provisional in (False, True):
        expected = list(
            october.entries.filter(provisional=provisional)
            .order_by("position")
            .values_list("player__handle", "position")
        )
        for start in range(len(expected)):
            for stop in range(start + 1, len(expected) + 1):
                part = ListPart(october, provisional=provisional)
                low, high = part.query(start, stop)[2:4]
                positions = [position for _, position in expected[start:stop]]
                assert low <= positions[0] and positions[-1] < high
                assert high == NO_POSITION or high in {p for _, p in expected[stop:]}
                assert [row.handle for row in part.rows(start, stop)] == [
                    handle for handle, _ in expected[start:stop]
                ]
