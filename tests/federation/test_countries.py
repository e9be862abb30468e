"""Countries are ISO 3166-1 codes (django-countries), checked at the API and cleaned
in the stored rows by the migration."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from federation.models import Club, Player
from tests.factories import PlayerFactory

migration = importlib.import_module("federation.migrations.0004_country_codes")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ("FR", "FR"),
        ("fr", "FR"),
        ("FRA", "FR"),
        ("250", "FR"),
        ("<>", None),
        ("XX", None),
        ("France", None),
        ("", None),
    ],
)
def test_a_club_country_is_an_iso_3166_code(api, federation_admin, given, stored):
    api.force_authenticate(federation_admin)
    response = api.post(
        "/api/v1/clubs/", {"slug": "x", "name": "X", "country": given}, format="json"
    )
    if stored is None:
        assert response.status_code == 400, response.content
        assert "country" in response.json()
        assert not Club.objects.exists()
    else:
        assert response.status_code == 201, response.content
        assert response.json()["country"] == stored == str(Club.objects.get().country)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("given", "status", "stored"), [("de", 201, "DE"), ("", 201, ""), ("<>", 400, None)]
)
def test_a_player_country_is_an_iso_3166_code_or_none(api, organiser, given, status, stored):
    api.force_authenticate(organiser)
    response = api.post(
        "/api/v1/players/",
        {"handle": "dora", "display_name": "Dora Lenz", "club": "lyon", "country": given},
        format="json",
    )
    assert response.status_code == status, response.content
    if stored is not None:
        assert response.json()["country"] == stored
        assert api.get("/api/v1/players/dora/").json()["country"] == stored


@pytest.mark.django_db
def test_clubs_are_filtered_by_country_in_any_case(api):
    from tests.factories import ClubFactory

    ClubFactory(slug="berlin", country="DE")
    assert api.get("/api/v1/clubs/?country=de").json()["count"] == 1
    assert api.get("/api/v1/clubs/?country=<>").json()["count"] == 0


@pytest.mark.django_db
def test_the_migration_cleans_the_stored_countries(club):
    players = [PlayerFactory(handle=h, club=club) for h in ("ana", "ben", "cem")]
    for player, garbage in zip(players, ["<>", "fr", ""], strict=True):
        Player.objects.filter(pk=player.pk).update(country=garbage)
    Club.objects.filter(pk=club.pk).update(country="<>")
    migration.clean_countries(apps, None)
    assert [str(p.country) for p in Player.objects.order_by("handle")] == ["", "FR", ""]
    assert str(Club.objects.get().country) == ""
