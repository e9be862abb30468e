import pytest


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/", "/matches/", "/rankings/", "/api/v1/", "/api/schema/", "/api/docs/"]
)
def test_public_pages_answer(client, path):
    response = client.get(path)
    assert response.status_code == 200


@pytest.mark.django_db
def test_home_page_is_translated_to_french(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200
    assert "Derniers résultats" in response.content.decode()
