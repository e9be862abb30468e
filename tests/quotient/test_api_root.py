"""``/api/v1/``: the root lists every endpoint, each pointing into the API (not at a
page); ``/api/v1/rankings/`` lists the games and their published months."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from federation.models import Game
from ratings.services import ranking_publish
from scoring.models import Match
from tests.builders import record_month

LISTS = [
    "clubs",
    "players",
    "matches",
    "imports",
    "tournaments",
    "rankings",
    "webhooks",
    "series",
    "auth_token",
]


@pytest.fixture
def published(federation):
    club, handles = federation
    game = Game.objects.get(key="divisor")
    with time_machine.travel(dt.datetime(2026, 12, 1, 9, tzinfo=dt.UTC), tick=False):
        for month, seed in [(dt.date(2026, 10, 1), 1), (dt.date(2026, 11, 1), 2)]:
            record_month(club=club, handles=handles[:6], month=month, count=18, seed=seed)
            ranking_publish(game=game, month=month)
    ranking_publish(game=game, month=dt.date(2026, 10, 1), force=True)  # a second revision


@pytest.mark.django_db
def test_the_root_lists_every_endpoint_in_the_api(api, published):
    body = api.get("/api/v1/").json()
    assert list(body) == [*LISTS, "schema", "docs", "templates"]
    assert body["matches"] == "http://testserver/api/v1/matches/"  # not the HTML list
    assert body["rankings"] == "http://testserver/api/v1/rankings/"
    for name in LISTS:
        assert body[name].startswith("http://testserver/api/v1/"), name
        response = api.get(body[name])
        # the token is a POST; imports and webhooks are a club's own
        expected = {"auth_token": 405, "imports": 401, "webhooks": 401}.get(name, 200)
        assert response.status_code == expected, name
        assert response["Content-Type"] == "application/json", name
    assert body["templates"] == {
        "club": "http://testserver/api/v1/clubs/{slug}/",
        "club_stats": "http://testserver/api/v1/clubs/{slug}/stats/",
        "player": "http://testserver/api/v1/players/{handle}/",
        "player_history": "http://testserver/api/v1/players/{handle}/history/",
        "player_versus": "http://testserver/api/v1/players/{handle}/vs/{other}/",
        "player_ranking": "http://testserver/api/v1/players/{handle}/rankings/{game}/{month}/",
        "match": "http://testserver/api/v1/matches/{id}/",
        "tournament": "http://testserver/api/v1/tournaments/{slug}/",
        "ranking_months": "http://testserver/api/v1/rankings/{game}/",
        "ranking": "http://testserver/api/v1/rankings/{game}/{month}/",
        "ranking_csv": "http://testserver/api/v1/rankings/{game}/{month}/?format=csv",
    }
    match = Match.objects.order_by("id").first()
    values = {"slug": "lyon", "handle": "p00", "game": "divisor", "month": "2026-11"}
    values["other"] = "p01"
    values["id"] = str(match.pk)
    for name, template in body["templates"].items():
        if name == "tournament":
            continue  # none in this federation
        url = template.format(**values)
        response = api.get(url)
        assert response.status_code == 200, (name, url)
    assert api.get(body["schema"]).status_code == 200


@pytest.mark.django_db
def test_rankings_lists_the_games_and_their_published_months(api, published):
    body = api.get("/api/v1/rankings/").json()
    assert (body["count"], body["next"], body["previous"]) == (5, None, None)
    divisor = next(g for g in body["results"] if g["game"] == "divisor")
    assert divisor == {
        "game": "divisor",
        "name": "Divisor dominoes",
        "url": "http://testserver/api/v1/rankings/divisor/",
        "months": [
            {
                "month": "2026-11",
                "revision": 1,
                "url": "http://testserver/api/v1/rankings/divisor/2026-11/",
            },
            {
                "month": "2026-10",
                "revision": 2,  # the latest revision only
                "url": "http://testserver/api/v1/rankings/divisor/2026-10/",
            },
        ],
    }
    assert [g["game"] for g in body["results"]] == sorted(g["game"] for g in body["results"])
    assert all(g["months"] == [] for g in body["results"] if g["game"] != "divisor")
    french = api.get("/api/v1/rankings/", HTTP_ACCEPT_LANGUAGE="fr").json()
    assert next(g for g in french["results"] if g["game"] == "divisor")["name"] != ""


@pytest.mark.django_db
def test_the_schema_documents_the_new_endpoints():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = schema["paths"]
    assert "/api/v1/rankings/" in paths
    why = paths["/api/v1/players/{handle}/rankings/{game}/{month}/"]["get"]
    assert why["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/PlayerRanking"
    }
    components = schema["components"]["schemas"]
    assert list(components["PlayerRanking"]["properties"]) == ["fladub", "rank", "results"]
    assert list(components["CountedResult"]["properties"]) == [
        "match",
        "played_on",
        "age",
        "weight",
    ]
    detail = paths["/api/v1/rankings/{game}/{month}/"]["get"]["responses"]["200"]["content"]
    assert set(detail) == {"application/json", "text/csv"}
