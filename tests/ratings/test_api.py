"""The ranking API and pages: the shapes other programs read."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from federation.models import Game
from ratings.services import ranking_publish
from tests.builders import record_month

OCT, NOV = dt.date(2026, 10, 1), dt.date(2026, 11, 1)
ENTRY_KEYS = {"rank", "player", "name", "fladub", "mu", "sigma", "results_counted", "movement"}
ENTRY_FIELDS = ["rank", "player", "name", "fladub", "mu", "sigma", "results_counted", "movement"]
DETAIL_FIELDS = [
    "game",
    "month",
    "revision",
    "published_at",
    "inputs_hash",
    "parameters",
    "engine_version",
    "entries",
    "entries_page",
    "provisional",
    "provisional_page",
]
DETAIL = "http://testserver/api/v1/rankings/divisor/2026-10/"


@pytest.fixture
def published(federation):
    club, handles = federation
    record_month(club=club, handles=handles[:8], month=OCT, count=40, seed=21)
    record_month(club=club, handles=handles[8:], month=OCT, count=2, seed=22)
    record_month(club=club, handles=handles[:8], month=NOV, count=30, seed=23)
    game = Game.objects.get(key="divisor")
    october = ranking_publish(game=game, month=OCT).ranking
    with time_machine.travel(dt.datetime(2026, 12, 1, 9, tzinfo=dt.UTC), tick=False):
        november = ranking_publish(game=game, month=NOV).ranking  # once November closed
    return october, november


@pytest.mark.django_db
def test_ranking_detail_shape(api, published):
    october, _ = published
    body = api.get("/api/v1/rankings/divisor/2026-10/").json()
    assert {
        "game",
        "month",
        "revision",
        "published_at",
        "inputs_hash",
        "parameters",
        "entries",
        "provisional",
    } <= set(body)
    assert (body["game"], body["month"], body["revision"]) == ("divisor", "2026-10", 1)
    assert body["inputs_hash"] == october.inputs_hash
    assert len(body["entries"]) == 8 and set(body["entries"][0]) == ENTRY_KEYS
    assert [e["rank"] for e in body["entries"]] == sorted(e["rank"] for e in body["entries"])
    fladubs = [e["fladub"] for e in body["entries"]]
    assert fladubs == sorted(fladubs, reverse=True)
    assert all("rank" not in e for e in body["provisional"])
    assert {e["player"] for e in body["provisional"]} <= {"p08", "p09", "p10", "p11"}
    assert body["provisional"] and set(body["provisional"][0]) == ENTRY_KEYS - {"rank"}


@pytest.mark.django_db
def test_entries_are_paginated(api, published):
    page1 = api.get("/api/v1/rankings/divisor/2026-10/?page_size=3").json()
    assert len(page1["entries"]) == 3 and page1["entries_page"]["count"] == 8
    page3 = api.get(page1["entries_page"]["next"].replace("page=2", "page=3")).json()
    assert [e["rank"] for e in page3["entries"]] == [
        e["rank"] for e in api.get("/api/v1/rankings/divisor/2026-10/").json()["entries"][6:]
    ]
    assert api.get("/api/v1/rankings/divisor/2026-10/?page=9").status_code == 404


@pytest.mark.django_db
def test_months_history_and_errors(api, published):
    months = api.get("/api/v1/rankings/divisor/").json()
    assert [m["month"] for m in months["results"]] == ["2026-11", "2026-10"]
    history = api.get("/api/v1/players/p00/history/").json()["results"]
    assert [(h["game"], h["month"]) for h in history] == [
        ("divisor", "2026-11"),
        ("divisor", "2026-10"),
    ]
    assert all(isinstance(h["fladub"], int) for h in history)
    assert api.get("/api/v1/rankings/divisor/2026-09/").status_code == 404
    assert api.get("/api/v1/rankings/divisor/2026-9/").status_code == 400
    assert api.get("/api/v1/rankings/chess/").status_code == 404


@pytest.mark.django_db
def test_forced_revision_is_served_and_old_one_kept(api, published):
    ranking_publish(game=Game.objects.get(key="divisor"), month=OCT, force=True)
    assert api.get("/api/v1/rankings/divisor/2026-10/").json()["revision"] == 2
    assert api.get("/api/v1/rankings/divisor/2026-10/?revision=1").json()["revision"] == 1
    assert len(api.get("/api/v1/rankings/divisor/").json()["results"]) == 2  # one per month


@pytest.mark.django_db
def test_ranking_and_player_pages(client, published):
    for path in ["/rankings/", "/rankings/divisor/", "/rankings/divisor/2026-10/", "/players/p00/"]:
        assert client.get(path).status_code == 200, path
    assert client.get("/rankings/divisor/2025-01/").status_code == 404
    page = client.get("/rankings/divisor/2026-11/").content.decode()
    assert "2026-11" in page and "Player Number" in page


def entry_json(entry, *, ranked: bool) -> dict:
    row = {
        "rank": entry.rank,
        "player": entry.player.handle,
        "name": entry.player.public_display_name,
        "fladub": entry.fladub,
        "mu": entry.mu,
        "sigma": entry.sigma,
        "results_counted": entry.results_counted,
        "movement": entry.movement,
    }
    if not ranked:
        del row["rank"]
    return row


def utc(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


@pytest.mark.django_db
def test_ranking_detail_full_shape(api, published):
    """Every key, in order, and every value: the shape clients read, exactly."""
    october, _ = published
    body = api.get("/api/v1/rankings/divisor/2026-10/?page_size=3&page=2").json()
    assert list(body) == DETAIL_FIELDS
    assert body["published_at"] == utc(october.published_at)
    assert (body["parameters"], body["engine_version"]) == (
        october.parameters,
        october.engine_version,
    )
    ranked = october.entries.filter(provisional=False).select_related("player").order_by("position")
    assert body["entries"] == [entry_json(e, ranked=True) for e in ranked[3:6]]
    assert list(body["entries"][0]) == ENTRY_FIELDS
    assert body["entries_page"] == {
        "count": 8,
        "next": f"{DETAIL}?page=3&page_size=3",
        "previous": f"{DETAIL}?page=1&page_size=3",  # page=1 written, not dropped
    }
    provisional = october.entries.filter(provisional=True).select_related("player")
    assert body["provisional"] == [
        entry_json(e, ranked=False) for e in provisional.order_by("position")[:3]
    ]
    assert list(body["provisional"][0]) == ENTRY_FIELDS[1:]
    assert body["provisional_page"] == {
        "count": provisional.count(),
        "next": f"{DETAIL}?page=2&page_size=3&provisional_page=2"
        if provisional.count() > 3
        else None,
        "previous": None,
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "status", "body"),
    [
        ("?page=9", 404, {"detail": "page 9 does not exist"}),
        ("?provisional_page=9", 404, {"detail": "provisional_page 9 does not exist"}),
        ("?page=abc", 400, {"page": "a page number from 1"}),
        ("?page=0", 400, {"page": "a page number from 1"}),
        ("?page=%C2%B2", 400, {"page": "a page number from 1"}),  # "²" is a digit to str
        ("?page_size=0", 400, {"page_size": "a positive number"}),
        ("?page_size=x", 400, {"page_size": "a positive number"}),
        ("?revision=x", 400, {"revision": "a revision number"}),
        ("?revision=2", 404, {"detail": "no published divisor ranking for 2026-10"}),
    ],
)
def test_ranking_detail_errors(api, published, query, status, body):
    response = api.get(f"/api/v1/rankings/divisor/2026-10/{query}")
    assert (response.status_code, response.json()) == (status, body)


@pytest.mark.django_db
@pytest.mark.parametrize("month", ["2026-9", "%EF%BC%92%EF%BC%90%EF%BC%92%EF%BC%96-10", "1989-12"])
def test_a_malformed_month_is_a_400(api, published, month):
    response = api.get(f"/api/v1/rankings/divisor/{month}/")
    assert (response.status_code, response.json()) == (400, {"month": "Use YYYY-MM, e.g. 2026-11."})


@pytest.mark.django_db
def test_months_and_history_full_shape(api, published):
    october, november = published
    months = api.get("/api/v1/rankings/divisor/?page_size=1").json()
    assert months == {
        "count": 2,
        "next": "http://testserver/api/v1/rankings/divisor/?page=2&page_size=1",
        "previous": None,
        "results": [
            {
                "month": "2026-11",
                "revision": 1,
                "published_at": utc(november.published_at),
                "results_counted": november.results_counted,
                "url": "http://testserver/api/v1/rankings/divisor/2026-11/",
            }
        ],
    }
    history = api.get("/api/v1/players/P00/history/").json()
    entries = [
        november.entries.get(player__handle="p00"),
        october.entries.get(player__handle="p00"),
    ]
    assert history == {
        "count": 2,
        "next": None,
        "previous": None,
        "results": [
            {
                "game": "divisor",
                "month": month,
                "rank": e.rank,
                "fladub": e.fladub,
                "provisional": e.provisional,
                "results_counted": e.results_counted,
                "movement": e.movement,
            }
            for month, e in zip(["2026-11", "2026-10"], entries, strict=True)
        ],
    }
    assert api.get("/api/v1/players/nobody/history/").status_code == 404


@pytest.mark.django_db
def test_the_openapi_schema_describes_ranking_entries():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    assert list(components["RankingEntry"]["properties"]) == ENTRY_FIELDS
    assert list(components["ProvisionalEntry"]["properties"]) == ENTRY_FIELDS[1:]
    detail = components["RankingList"]["properties"]
    assert list(detail) == DETAIL_FIELDS
    assert detail["entries"]["items"] == {"$ref": "#/components/schemas/RankingEntry"}
    assert detail["provisional"]["items"] == {"$ref": "#/components/schemas/ProvisionalEntry"}
    months = schema["paths"]["/api/v1/rankings/{game}/"]["get"]["responses"]["200"]
    assert months["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/PaginatedRankingMonthList"
    }
    assert "url" in components["RankingMonth"]["properties"]
