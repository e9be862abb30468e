import pytest


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/matches/", "/rankings/", "/api/v1/", "/api/schema/", "/api/docs/"])
def test_public_pages_answer(client, path):
    response = client.get(path)
    assert response.status_code == 200
