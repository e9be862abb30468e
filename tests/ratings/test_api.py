"""The ranking API and pages: the shapes other programs read."""

from __future__ import annotations

import datetime as dt

import pytest

from federation.models import Game
from ratings.services import ranking_publish
from tests.builders import record_month

OCT, NOV = dt.date(2026, 10, 1), dt.date(2026, 11, 1)
ENTRY_KEYS = {"rank", "player", "name", "fladub", "mu", "sigma", "results_counted", "movement"}


@pytest.fixture
def published(federation):
    club, handles = federation
    record_month(club=club, handles=handles[:8], month=OCT, count=40, seed=21)
    record_month(club=club, handles=handles[8:], month=OCT, count=2, seed=22)
    record_month(club=club, handles=handles[:8], month=NOV, count=30, seed=23)
    game = Game.objects.get(key="divisor")
    october = ranking_publish(game=game, month=OCT).ranking
    november = ranking_publish(game=game, month=NOV).ranking
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
