"""The ranking pages: club and country columns, filters, provisional players listed,
the explanation page, and a query count that does not grow with the list."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from federation.models import Club, Game, Player
from ratings.models import RankingEntry
from ratings.services import ranking_publish
from tests.builders import record_month
from tests.factories import ClubFactory, PlayerFactory

OCT, NOV = dt.date(2026, 10, 1), dt.date(2026, 11, 1)
AFTER_NOVEMBER = dt.datetime(2026, 12, 1, 9, tzinfo=dt.UTC)


@pytest.fixture
def lists(federation):
    """October: p00-p07 ranked, p08-p11 provisional; Berlin's p06, p07 (German), p08
    (no country); Chloé Martin (p00) consented, Chloé Dubois (p01) did not."""
    club, handles = federation
    berlin = ClubFactory(slug="berlin", name="Berliner Dominofreunde", country="DE")
    Player.objects.filter(handle__in=["p06", "p07"]).update(club=berlin, country="DE")
    Player.objects.filter(handle="p08").update(club=berlin, country="")
    for handle, name, consent in [("p00", "Chloé Martin", True), ("p01", "Chloé Dubois", False)]:
        player = Player.objects.get(handle=handle)
        player.display_name, player.public_name = name, consent
        player.save()
    with time_machine.travel(AFTER_NOVEMBER, tick=False):
        record_month(club=club, handles=handles[:8], month=OCT, count=40, seed=21)
        record_month(club=club, handles=handles[8:], month=OCT, count=2, seed=22)
        game = Game.objects.get(key="divisor")
        return ranking_publish(game=game, month=OCT).ranking


def rows(page: str, table: str) -> list[str]:
    """The body rows of the table of class ``table``, tags stripped."""
    body = re.search(rf'<table class="{table}">.*?<tbody>(.*?)</tbody>', page, re.S).group(1)
    return [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)).strip() for row in body.split("</tr>")
    ][:-1]


@pytest.mark.django_db
def test_the_list_has_club_and_country_and_lists_the_provisional_players(client, lists):
    page = client.get("/rankings/divisor/2026-10/").content.decode()
    ranked = lists.entries.filter(provisional=False).order_by("position")
    provisional = lists.entries.filter(provisional=True).order_by("position")
    assert ranked.count() == 8 and provisional.count() == 4
    shown = rows(page, "ranking")
    assert len(shown) == 8
    for line, entry in zip(shown, ranked.select_related("player__club"), strict=True):
        player = entry.player
        assert line.startswith(f"{entry.rank} {player.public_display_name} {entry.fladub} ")
        club, country = player.club.name, player.country.code or "–"
        assert line.endswith(f" {club} {country} {entry.results_counted}")
    listed = rows(page, "ranking provisional")
    assert [line.split(" ")[0:2] for line in listed] == [
        e.player.public_display_name.split(" ")[0:2] for e in provisional.select_related("player")
    ]
    assert any(line.endswith("Berliner Dominofreunde –") for line in listed)  # p08: no country
    assert 'href="/rankings/about/"' in page
    assert 'href="/api/v1/rankings/divisor/2026-10/?format=csv"' in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "ranked", "provisional"),
    [
        ("club=berlin", {"p06", "p07"}, {"p08"}),
        ("country=de", {"p06", "p07"}, set()),
        ("country=DE&club=lyon", set(), set()),
        ("name=CHLOE", {"p00"}, set()),  # Chloé Dubois did not consent: not by name
        ("name=p01", {"p01"}, set()),  # ... but her handle is found
        ("name=p1", set(), {"p10", "p11"}),
    ],
)
def test_filters(client, lists, query, ranked, provisional):
    response = client.get(f"/rankings/divisor/2026-10/?{query}")
    page = response.content.decode()
    found = set(re.findall(r'href="/players/(p\d\d)/"', page))
    assert found == ranked | provisional
    # the counts the page states (it is written in Python: ``ratings.list_page``)
    counts = re.findall(r"(\d+) (ranked|provisional) players? match", page)
    assert counts == [(str(len(ranked)), "ranked"), (str(len(provisional)), "provisional")]


@pytest.mark.django_db
def test_the_filter_choices_are_the_lists_clubs_and_countries(client, lists):
    response = client.get("/rankings/divisor/2026-10/?club=berlin")
    assert [c.slug for c in response.context["clubs"]] == ["berlin", "lyon"]
    assert [code for code, _ in response.context["countries"]] == ["FR", "DE"]  # by name
    assert '<option value="berlin" selected>' in response.content.decode()


@pytest.mark.django_db
def test_the_explanation_page(client):
    page = client.get("/rankings/about/").content.decode()
    assert "How the ranking number is computed" in page
    assert "1500 + 24 × (μ − 3σ)" in page
    cells = re.findall(r'<td class="num">([^<]+)</td>', page)
    assert cells == [
        "1",
        "1",
        "1",
        "0.9",
        "0.8",
        "0.7",
        "0.6",
        "0.5",
        "0.4",
        "0.3",
        "0.2",
        "0.1",
        "0",
    ]
    assert client.get("/rankings/about/", HTTP_ACCEPT_LANGUAGE="fr").status_code == 200


@pytest.mark.django_db
def test_the_index_links_the_latest_lists_and_the_player_search(client, lists):
    page = client.get("/rankings/").content.decode()
    assert 'href="/rankings/divisor/2026-10/"' in page
    assert 'action="/players/"' in page


def publish(month: dt.date, players: list[str], club: Club) -> None:
    with time_machine.travel(AFTER_NOVEMBER, tick=False):
        record_month(club=club, handles=players, month=month, count=len(players) * 3, seed=5)
        ranking_publish(game=Game.objects.get(key="divisor"), month=month)


@pytest.mark.django_db
def test_the_query_count_does_not_grow_with_the_list(client, games):
    lyon = ClubFactory(slug="lyon")
    berlin = ClubFactory(slug="berlin", country="DE")
    handles = [f"q{n:02d}" for n in range(40)]
    for n, handle in enumerate(handles):
        PlayerFactory(
            handle=handle, club=lyon if n % 2 else berlin, country="FR" if n % 3 else "DE"
        )
    publish(OCT, handles[:6], lyon)
    publish(NOV, handles, lyon)
    counts = {}
    for month in ("2026-10", "2026-11"):
        for query in ("", "?club=lyon&name=q0"):
            with CaptureQueriesContext(connection) as queries:
                assert client.get(f"/rankings/divisor/{month}/{query}").status_code == 200
            counts[month, query] = len(queries)
    assert RankingEntry.objects.filter(ranking__month=NOV).count() >= 30
    assert counts["2026-10", ""] == counts["2026-11", ""]
    assert counts["2026-10", "?club=lyon&name=q0"] == counts["2026-11", "?club=lyon&name=q0"]
    assert counts["2026-11", ""] <= 12


@pytest.mark.django_db
def test_unknown_months_and_pages(client, lists):
    assert client.get("/rankings/divisor/2026-09/").status_code == 404
    assert client.get("/rankings/divisor/2026-9/").status_code == 404
    assert client.get("/rankings/divisor/2026-10/?page=99&provisional_page=x").status_code == 200
    assert client.get("/rankings/about/").status_code == 200  # not taken for a game
