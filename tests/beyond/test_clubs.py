"""Club pages: ``/clubs/``, ``/clubs/<slug>/`` and ``GET /api/v1/clubs/<slug>/stats/``."""

from __future__ import annotations

import datetime as dt
from xml.etree import ElementTree

import pytest
import time_machine

from federation.models import Game, Player
from tests.beyond.conftest import SEP, play
from tests.factories import ClubFactory, PlayerFactory
from tournaments.models import Tournament

SVG = "{http://www.w3.org/2000/svg}"
TODAY = dt.datetime(2026, 10, 20, 10, tzinfo=dt.UTC)


@pytest.fixture
def rivals(played):
    """Berlin's b1 and b2 meet lyon's p00 and p01 in September; lyon runs a public and a
    private tournament."""
    club, matches, ranking = played
    berlin = ClubFactory(slug="berlin", name="Berliner Dominofreunde", city="Berlin")
    PlayerFactory(handle="b1", club=berlin, display_name="Jürgen Müller", public_name=True)
    PlayerFactory(handle="b2", club=berlin, display_name="Anna Geheim", public_name=False)
    with time_machine.travel(dt.datetime(2026, 10, 2, 9, tzinfo=dt.UTC), tick=False):
        play(berlin, ["b1", "p00"], SEP.replace(day=20), [40, 10])  # b1 ahead
        play(berlin, ["p00", "b2", "p01"], SEP.replace(day=21), [50, 30, 10])
    divisor = Game.objects.get(key="divisor")
    for slug, public in (("lyon-open", True), ("lyon-secret", False)):
        Tournament.objects.create(
            name=slug,
            slug=slug,
            game=divisor,
            club=club,
            starts_on=dt.date(2026, 9, 12),
            public=public,
        )
    return club, berlin, ranking


@pytest.mark.django_db
def test_club_stats_api(api, rivals):
    club, berlin, ranking = rivals
    with time_machine.travel(TODAY, tick=False):
        body = api.get(f"/api/v1/clubs/{club.slug}/stats/").json()
    assert body["club"]["slug"] == club.slug
    assert [m["handle"] for m in body["members"]] == [f"p{n:02d}" for n in range(12)]
    months = body["matches_per_month"]
    assert len(months) == 12 and months[-1]["month"] == "2026-10"
    # lyon entered the four meetings and twelve more in September, berlin the other two
    assert {m["month"]: m["matches"] for m in months}["2026-09"] == 16
    assert sum(m["matches"] for m in months) == 16
    (divisor,) = body["rankings"]
    listed = ranking.entries.filter(player__club=club).order_by("position")
    assert [p["handle"] for p in divisor["players"]] == [e.player.handle for e in listed]
    assert [t["slug"] for t in body["tournaments"]] == ["lyon-open"]
    # p00 behind b1; p00 ahead of b2; p01 behind b2 -> 3 meetings, 1 won, 2 lost
    (versus,) = body["versus_clubs"]
    assert (versus["club"], versus["meetings"], versus["wins"], versus["losses"]) == (
        "berlin",
        3,
        1,
        2,
    )
    other = api.get("/api/v1/clubs/berlin/stats/").json()
    assert [m["name"] for m in other["members"]] == ["Jürgen Müller", "A. G."]
    assert (other["versus_clubs"][0]["wins"], other["versus_clubs"][0]["losses"]) == (2, 1)
    assert api.get("/api/v1/clubs/nowhere/stats/").status_code == 404


@pytest.mark.django_db
def test_club_pages(client, rivals):
    club, berlin, ranking = rivals
    listing = client.get("/clubs/?q=BERLINER", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'href="/clubs/berlin/"' in listing and f'href="/clubs/{club.slug}/"' not in listing
    assert 'href="/clubs/berlin/"' in client.get("/clubs/?q=dominofreunde").content.decode()
    assert "Clubs" in client.get("/clubs/?q=zzz").content.decode()
    with time_machine.travel(TODAY, tick=False):
        page = client.get(f"/clubs/{club.slug}/", HTTP_ACCEPT_LANGUAGE="fr")
    assert page.status_code == 200
    html = page.content.decode()
    assert "lyon-open" in html and "lyon-secret" not in html
    assert "Matchs par mois" in html or "Parties par mois" in html
    svg = html[html.index("<svg") : html.index("</svg>") + 6]
    tree = ElementTree.fromstring(svg)
    bars = tree.findall(f"{SVG}rect")
    assert len(bars) == 12
    assert bars[-2].find(f"{SVG}title").text == "2026-09: 16"
    assert 'href="/clubs/berlin/"' in html  # against other clubs
    berlin_page = client.get("/clubs/berlin/").content.decode()
    assert "Anna Geheim" not in berlin_page and "A. G." in berlin_page
    player = client.get("/players/p00/").content.decode()
    assert f'href="/clubs/{club.slug}/"' in player
    assert client.get("/clubs/nowhere/").status_code == 404
    assert Player.objects.filter(club=berlin).count() == 2
