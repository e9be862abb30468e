"""Every game through the same path: POST a record, read the match back, see its page."""

from __future__ import annotations

import datetime as dt

import pytest

from quotient.demo import rename_players
from scoring.engine import engine
from scoring.models import Match
from tests.samples import DIVISOR_SUMMARY

pytestmark = pytest.mark.usefixtures("clock")

HANDLES = ["ana", "ben", "cem", "dan"]

RANDOM = {
    "divisor": {"players": 3, "set": 9},
    "astronomy": {"size": 5},
    "9tka": {"players": 4},
    "trimorp": {},
    "dominyam": {"players": 2},
}

SUMMARIES = {
    "divisor": DIVISOR_SUMMARY,
    "astronomy": {
        "game": "astronomy",
        "rules": {"size": 5},
        "players": ["ana", "ben"],
        "summary": {"winner": "ana", "moves": 9},
    },
    "9tka": {
        "game": "9tka",
        "players": ["ana", "ben", "cem"],
        "summary": {"sections": {"ana": 4, "ben": 3, "cem": 1}},
    },
    "trimorp": {
        "game": "trimorp",
        "players": ["ana", "ben", "cem"],
        "box_opener": "cem",
        "summary": {
            "series": {
                "ana": {"4": 2, "3": 5, "2": 9},
                "ben": {"4": 2, "3": 4, "2": 11},
                "cem": {"4": 1, "3": 6, "2": 8},
            }
        },
    },
    "dominyam": {
        "game": "dominyam",
        "players": ["ana", "ben"],
        "summary": {
            "ana": {"turn_points": 21, "tiles": ["6-6", "3-3"]},
            "ben": {"turn_points": 17, "tiles": ["1-2", "3-5"]},
        },
    },
}

#: (player, rank) expected from each summary, by the rules of GAMES.md
SUMMARY_RANKS = {
    "divisor": {"ana": 1, "ben": 3, "cem": 2},  # 12, 7-14=-7, 3-9=-6
    "astronomy": {"ana": 1, "ben": 2},
    "9tka": {"ana": 1, "ben": 2, "cem": 3},
    "trimorp": {"ana": 1, "ben": 2, "cem": 3},  # (2,5,9) > (2,4,11) > (1,6,8)
    "dominyam": {"ana": 1, "ben": 2},
}


def a_record(game: str, seed: int) -> dict:
    record = engine(game).random_record(seed, **RANDOM[game])
    return rename_players(record, dict(zip(record["players"], HANDLES, strict=False)))


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(RANDOM))
def test_full_records_of_every_game_are_recorded_with_ranks(api, organiser, players, game):
    api.force_authenticate(organiser)
    record = a_record(game, 5)
    response = api.post(
        "/api/v1/matches/",
        {"club": "lyon", "played_on": "2026-11-14", "record": record},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["game"] == game and body["verification"] == "replayed" and body["finished"]
    ranks = [seat["rank"] for seat in body["seats"]]
    assert all(isinstance(rank, int) and rank >= 1 for rank in ranks) and min(ranks) == 1
    assert len(body["score_sheet"]) == len(body["result"]["moves"]) > 0
    page = api.get(f"/matches/{body['id']}/")
    assert page.status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(SUMMARIES))
def test_summary_records_of_every_game(api, organiser, players, game):
    api.force_authenticate(organiser)
    response = api.post(
        "/api/v1/matches/",
        {"club": "lyon", "played_on": "2026-11-14", "record": SUMMARIES[game]},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["verification"] == "summary"
    assert {seat["player"]: seat["rank"] for seat in body["seats"]} == SUMMARY_RANKS[game]
    page = api.get(f"/matches/{body['id']}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Saisi en résumé" in page


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("game", "column", "key"),
    [
        ("astronomy", "Replies left to the opponent", "legal_moves_left"),
        ("dominyam", "Best meal the dice allowed", "best_meal"),
        ("9tka", "Play", "slide"),
        ("divisor", "Ends sum", "ends_sum"),
    ],
)
def test_match_page_shows_each_games_own_columns(client, club, players, game, column, key):
    from scoring.services import match_record

    match = match_record(club=club, played_on=dt.date(2026, 11, 3), record=a_record(game, 9)).match
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f"<th>{column}</th>" in page and f"<th>{key}</th>" not in page  # words, not keys


@pytest.mark.django_db
def test_astronomy_decisive_mistake_is_on_the_match_detail(
    api, club, players, tasks_in_process, django_capture_on_commit_callbacks
):
    from scoring.engine.astronomy import decisive_mistake
    from scoring.services import match_record

    for seed in range(20):
        record = a_record("astronomy", seed)
        expected = decisive_mistake(record)
        if expected is not None:
            break
    assert expected is not None, "no random game with a decisive mistake"
    with django_capture_on_commit_callbacks(execute=True):  # the analysis task, in-process
        match = match_record(club=club, played_on=dt.date(2026, 11, 3), record=record).match
    detail = api.get(f"/api/v1/matches/{match.pk}/").json()
    assert detail["analysis"] == {"decisive_mistake": expected}
    assert detail["analysis_state"] == "done"
    mistake = expected["move"]
    assert detail["result"]["moves"][mistake]["player"] == expected["player"]
    page = api.get(f"/matches/{match.pk}/").content.decode()
    assert f"move {mistake + 1} by" in page


@pytest.mark.django_db
def test_unfinished_records_are_stored_without_standings_or_rating(api, organiser, players):
    record = a_record("trimorp", 3)
    record["moves"] = record["moves"][:6]
    api.force_authenticate(organiser)
    response = api.post(
        "/api/v1/matches/",
        {"club": "lyon", "played_on": "2026-11-14", "record": record},
        format="json",
    )
    assert response.status_code == 201, response.content
    match = Match.objects.get(pk=response.json()["id"])
    assert not match.finished and match.counted_month is None
    assert all(seat.rank is None for seat in match.seats.all())
