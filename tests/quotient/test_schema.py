import pytest
from drf_spectacular.generators import SchemaGenerator


@pytest.mark.django_db
def test_openapi_schema_has_the_contract_paths_and_no_errors(capsys):
    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = schema["paths"]
    for path in [
        "/api/v1/matches/",
        "/api/v1/matches/{id}/",
        "/api/v1/players/",
        "/api/v1/clubs/",
        "/api/v1/rankings/{game}/{month}/",
        "/api/v1/players/{handle}/history/",
    ]:
        assert path in paths, path
    assert "post" in paths["/api/v1/matches/"]
    complaints = capsys.readouterr().err
    assert "Error" not in complaints and "Warning" not in complaints, complaints
