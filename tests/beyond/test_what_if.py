"""What if: ``GET /api/v1/players/<h>/what-if/`` and its page; the estimate against a
real month close once the table is entered."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from federation.models import Game
from ratings.models import RankingEntry
from ratings.services import ranking_publish
from tests.beyond.conftest import OCT, play
from tests.builders import record_month

MID_OCTOBER = dt.datetime(2026, 10, 15, 10, tzinfo=dt.UTC)


@pytest.fixture
def october(played):
    """September published (``played``), and eight October matches among p02-p07."""
    club, matches, ranking = played
    with time_machine.travel(MID_OCTOBER, tick=False):
        record_month(club=club, handles=["p00", "p01", "p02", "p03"], month=OCT, count=8, seed=7)
    return club


@pytest.mark.parametrize(
    ("seated", "points", "opponents", "place"),
    [
        (["p00", "p01", "p02"], [50, 30, 10], "p01,p02", 1),
        (["p03", "p00"], [40, 10], "p03", 2),
    ],
)
@pytest.mark.django_db
def test_the_estimate_is_the_close_once_the_table_is_entered(
    api, october, seated, points, opponents, place
):
    with time_machine.travel(MID_OCTOBER, tick=False):
        response = api.get(
            f"/api/v1/players/p00/what-if/?game=divisor&opponents={opponents}&place={place}"
        )
        assert response.status_code == 200, response.content
        body = response.json()
        assert (body["game"], body["month"], body["estimate"]) == ("divisor", "2026-10", True)
        assert [s["handle"] for s in body["table"]] == seated
        assert [s["place"] for s in body["table"]] == list(range(1, len(seated) + 1))
        assert sum(s["win_probability"] for s in body["table"]) == pytest.approx(1, abs=1e-3)
        match = play(october, seated, OCT.replace(day=15), points)
    assert [s.rank for s in match.seats.order_by("seat")] == list(range(1, len(seated) + 1))
    with time_machine.travel(dt.datetime(2026, 11, 2, 9, tzinfo=dt.UTC), tick=False):
        ranking = ranking_publish(game=Game.objects.get(key="divisor"), month=OCT).ranking
    entry = RankingEntry.objects.get(ranking=ranking, player__handle="p00")
    estimate = body["player"]["with_table"]
    assert (estimate["fladub"], estimate["rank"]) == (entry.fladub, entry.rank)
    assert body["player"]["published"]["month"] == "2026-09"
    assert (
        body["player"]["change"] == estimate["fladub"] - body["player"]["without_table"]["fladub"]
    )
    assert (body["player"]["change"] > 0) == (place == 1)


@pytest.mark.django_db
def test_win_chances_favour_the_stronger_player(api, october):
    with time_machine.travel(MID_OCTOBER, tick=False):
        body = api.get("/api/v1/players/p00/what-if/?game=divisor&opponents=p11,p10").json()
    chances = {s["handle"]: s["win_probability"] for s in body["table"]}
    # p10 and p11 never played: both at the start, with equal chances, below p00's
    assert chances["p10"] == chances["p11"] < chances["p00"]
    assert body["player"]["place"] == 1


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("opponents=p01", "what-if-game"),
        ("game=chess&opponents=p01", "game-unknown"),
        ("game=divisor", "what-if-opponents"),
        (
            "game=divisor&opponents=" + ",".join(f"p{n:02d}" for n in range(1, 10)),
            "what-if-table-size",
        ),
        ("game=divisor&opponents=p01,P01", "what-if-player-twice"),
        ("game=divisor&opponents=p01,p00", "what-if-player-twice"),
        ("game=divisor&opponents=p01,nobody", "what-if-player-unknown"),
        ("game=divisor&opponents=p01&place=3", "what-if-place"),
        ("game=divisor&opponents=p01&place=x", "what-if-place"),
    ],
)
@pytest.mark.django_db
def test_what_if_bad_input(api, federation, query, code):
    response = api.get(f"/api/v1/players/p00/what-if/?{query}", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == code
    page = api.get(f"/players/p00/what-if/?{query}", HTTP_ACCEPT_LANGUAGE="fr")
    assert page.status_code == 400
    assert f'data-code="{code}"' in page.content.decode()


@pytest.mark.django_db
def test_what_if_pages(client, october):
    html = client.get("/players/p00/").content.decode()
    assert 'id="what-if"' in html and 'action="/players/p00/what-if/"' in html
    with time_machine.travel(MID_OCTOBER, tick=False):
        page = client.get(
            "/players/p00/what-if/?game=divisor&opponents=p01&place=1", HTTP_ACCEPT_LANGUAGE="fr"
        )
    assert page.status_code == 200
    text = page.content.decode()
    assert "Une estimation" in text and "Avec cette table" in text
    assert client.get("/players/p00/what-if/").status_code == 200
    assert (
        client.get("/api/v1/players/nobody/what-if/?game=divisor&opponents=p01").status_code == 404
    )
