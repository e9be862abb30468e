"""Finding players: ``/players/?q=`` and the API's ``?search=``, case- and
accent-insensitive, names only where the player consented; the stored name as
searched; the player API's field names."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from federation.models import Player, search_key
from tests.factories import ClubFactory, PlayerFactory


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("Chloé", "chloe"),
        ("  CHLOÉ   Martin ", "chloe martin"),
        ("Chloe\u0301", "chloe"),  # e + combining acute: the same name
        ("Maëlle Müller", "maelle muller"),
        ("Straße", "strasse"),
        ("Øyvind Łukasz Æsir", "oyvind lukasz aesir"),
        ("İnès", "ines"),
        ("ﬁ", "fi"),  # a ligature, spelt out
        ("a\u200bb\x07", "ab"),  # invisible and control characters dropped
        ("", ""),
    ],
)
def test_search_key(text, key):
    assert search_key(text) == key


@pytest.fixture
def searchable(club):
    berlin = ClubFactory(slug="berlin", name="Berliner Dominofreunde", country="DE")
    PlayerFactory(handle="chlo2", display_name="Chloé Martin", club=club, public_name=True)
    PlayerFactory(handle="cd7", display_name="Chloé Dubois", club=berlin, public_name=False)
    PlayerFactory(handle="chloe_k", display_name="Karin Schmidt", club=berlin, public_name=False)
    PlayerFactory(handle="bruno", display_name="Bruno Lefèvre", club=club, public_name=True)


@pytest.mark.django_db
def test_the_name_as_searched_is_kept_in_step(club):
    player = PlayerFactory(handle="ana", display_name="Anaïs Peeters", club=club)
    assert Player.objects.get(pk=player.pk).search_name == "anais peeters"
    player.display_name = "Anaïs Müller"
    player.save(update_fields=["display_name"])
    assert Player.objects.get(pk=player.pk).search_name == "anais muller"


@pytest.mark.django_db
def test_the_migration_fills_existing_players(club):
    PlayerFactory(handle="ana", display_name="Élodie Moreau", club=club)
    Player.objects.update(search_name="")  # as before the migration
    migration = importlib.import_module("federation.migrations.0005_player_search_name")
    migration.fill_search_names(apps, None)
    assert Player.objects.get(handle="ana").search_name == "elodie moreau"
    assert migration.search_key("Øse Straße") == search_key("Øse Straße")  # frozen copy


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("chloe", ["chlo2", "chloe_k"]),  # Chloé Dubois did not consent: not by her name
        ("CHLOÉ", ["chlo2", "chloe_k"]),
        ("chloe martin", ["chlo2"]),
        ("lefevre", ["bruno"]),
        ("dubois", []),
        ("CD7", ["cd7"]),  # a handle is always found
        ("schmidt", []),
        ("%", []),  # no wildcard
    ],
)
def test_the_search_page(client, searchable, query, found):
    response = client.get("/players/", {"q": query})
    assert response.status_code == 200
    assert [p.handle for p in response.context["page"].object_list] == found


@pytest.mark.django_db
def test_the_page_shows_initials_without_consent_and_lists_everyone(client, searchable):
    page = client.get("/players/?q=cd7").content.decode()
    assert "C. D." in page and "Dubois" not in page
    assert "Berliner Dominofreunde" in page and "<abbr" in page
    everyone = client.get("/players/")
    assert everyone.status_code == 200 and everyone.context["page"].paginator.count == 4
    assert client.get("/players/chlo2/").status_code == 200  # the player page still resolves


@pytest.mark.django_db
def test_the_search_page_is_paginated(client, club):
    for n in range(60):
        PlayerFactory(handle=f"p{n:02d}", display_name=f"Zoé {n}", club=club)
    first = client.get("/players/?q=zoe")
    assert first.context["page"].paginator.count == 60 and len(first.context["page"]) == 50
    assert 'href="?q=zoe&amp;page=2"' in first.content.decode()
    assert len(client.get("/players/?q=zoe&page=2").context["page"]) == 10


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "found"),
    [("chloe", {"chlo2", "chloe_k"}), ("Chloé", {"chlo2", "chloe_k"}), ("dubois", set())],
)
def test_the_api_search_is_the_same(api, searchable, query, found):
    body = api.get("/api/v1/players/", {"search": query}).json()
    assert {p["handle"] for p in body["results"]} == found


@pytest.mark.django_db
def test_player_fields_read_as_written(api, club, organiser):
    anonymous = api.get("/api/v1/players/").json()
    assert anonymous["results"] == []
    payload = {"handle": "cem", "display_name": "Cem Yılmaz", "club": "lyon", "public_name": False}
    api.force_authenticate(organiser)
    created = api.post("/api/v1/players/", payload, format="json")
    assert created.status_code == 201
    assert created.json() == {
        "handle": "cem",
        "name": "C. Y.",
        "club": "lyon",
        "country": "",
        "display_name": "Cem Yılmaz",
        "public_name": False,
    }
    shown = {"handle": "cem", "name": "C. Y.", "club": "lyon", "country": ""}
    assert api.get("/api/v1/players/cem/").json() == shown  # a read: as everyone reads it
    api.force_authenticate(None)
    assert api.get("/api/v1/players/cem/").json() == shown
    assert api.get("/api/v1/players/?search=yilmaz").json()["count"] == 0  # no consent


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "found"),
    [("chloe", ["chlo2", "chloe_k"]), ("CHLOÉ MARTIN", ["chlo2"]), ("dubois", []), ("", [])],
)
def test_the_tournament_pages_search_the_same_way(searchable, query, found):
    from tournaments.selectors import player_search

    assert [p.handle for p in player_search(query)] == found


@pytest.mark.django_db
def test_the_seat_pickers_search_the_same_way(client, searchable, organiser):
    """The entry forms' pickers: the club's own players by any spelling of their name
    (its organiser knows them all), other clubs' by handle or consented name."""
    PlayerFactory(
        handle="zed",
        display_name="Zoë Lévêque",
        club=Player.objects.get(handle="chlo2").club,
        public_name=False,
    )
    client.force_login(organiser)
    found = client.get("/matches/enter/players/", {"club": "lyon", "q": "chloe"}).json()
    assert [p["handle"] for p in found["players"]] == ["chlo2", "chloe_k"]
    found = client.get("/matches/enter/players/", {"club": "lyon", "q": "ZOE LEVEQUE"}).json()
    assert found["players"] == [{"handle": "zed", "name": "Zoë Lévêque"}]
    found = client.get("/matches/enter/players/", {"club": "lyon", "q": "dubois"}).json()
    assert found["players"] == []  # another club's player without consent: not by name
