import pytest

from tests.factories import ClubFactory, PlayerFactory


@pytest.mark.django_db
def test_clubs_list_and_detail(api):
    ClubFactory(slug="lyon", name="Lyon")
    ClubFactory(slug="berlin", name="Berlin", country="DE")
    body = api.get("/api/v1/clubs/").json()
    assert body["count"] == 2
    assert [c["slug"] for c in body["results"]] == ["berlin", "lyon"]
    assert api.get("/api/v1/clubs/berlin/").json()["country"] == "DE"
    assert api.get("/api/v1/clubs/?country=FR").json()["count"] == 1


@pytest.mark.django_db
def test_anonymous_cannot_create_a_club(api):
    response = api.post("/api/v1/clubs/", {"slug": "x", "name": "X", "country": "FR"})
    assert response.status_code in (401, 403)


@pytest.mark.django_db
def test_players_search_pagination_and_initials(api, club):
    PlayerFactory(handle="ana", display_name="Ana Martin", club=club)
    PlayerFactory(handle="ben", display_name="Benoît Dupont", club=club, public_name=False)
    for n in range(60):
        PlayerFactory(handle=f"p{n:02d}", club=club)
    page1 = api.get("/api/v1/players/").json()
    assert page1["count"] == 62 and len(page1["results"]) == 50 and page1["next"]
    assert len(api.get("/api/v1/players/?page=2").json()["results"]) == 12
    assert api.get("/api/v1/players/ben/").json()["name"] == "B. D."
    assert api.get("/api/v1/players/ana/").json()["name"] == "Ana Martin"
    assert [p["handle"] for p in api.get("/api/v1/players/?search=martin").json()["results"]] == [
        "ana"
    ]
    # a name without consent is not searchable
    assert api.get("/api/v1/players/?search=dupont").json()["count"] == 0


@pytest.mark.django_db
def test_player_registration_permissions(api, club, other_club, organiser):
    payload = {"handle": "cem", "display_name": "Cem Yilmaz", "club": "lyon"}
    assert api.post("/api/v1/players/", payload, format="json").status_code in (401, 403)
    api.force_authenticate(organiser)
    refused = api.post("/api/v1/players/", {**payload, "club": "berlin"}, format="json")
    assert refused.status_code == 403
    created = api.post("/api/v1/players/", payload, format="json")
    assert created.status_code == 201, created.content
    again = api.post("/api/v1/players/", {**payload, "handle": "CEM"}, format="json")
    assert again.status_code == 400


@pytest.mark.django_db
def test_token_authentication(api, club, organiser):
    response = api.post(
        "/api/v1/auth/token/", {"username": organiser.username, "password": "secret-pass-123"}
    )
    assert response.status_code == 200
    token = response.json()["token"]
    payload = {"handle": "dora", "display_name": "Dora Lenz", "club": "lyon"}
    assert api.post("/api/v1/players/", payload, format="json").status_code == 401
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.post("/api/v1/players/", payload, format="json").status_code == 201
