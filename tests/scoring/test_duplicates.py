"""Duplicates by meaning: the same game resubmitted in another spelling is a 409 that
names the stored match, through the API as a client calls it."""

from __future__ import annotations

import copy
import datetime as dt
import json

import pytest

from quotient.demo import rename_players
from scoring.engine.divisor import random_record
from scoring.models import Match
from scoring.records import canonical_record
from tests.factories import PlayerFactory
from tests.samples import DIVISOR_SUMMARY, SHEET_RECORD

pytestmark = pytest.mark.usefixtures("clock")


@pytest.fixture
def mixed_case_players(club):
    # one handle is stored in mixed case: records may spell it any way
    return [PlayerFactory(handle=h, club=club) for h in ("ana", "ben", "Ocane14")]


def submit(api, record, *, club="lyon", played_on="2026-11-02", **extra):
    body = {"club": club, "played_on": played_on, "record": record, **extra}
    return api.post("/api/v1/matches/", body, format="json")


def dealt() -> dict:
    """A full (dealt, move-by-move) divisor game of ana, ben and Ocane14."""
    record = random_record(11, players=3, set=9)
    return rename_players(
        record, dict(zip(record["players"], ["ana", "ben", "Ocane14"], strict=True))
    )


def flipped(value):
    """Every tile written the other way round."""
    if isinstance(value, dict):
        return {key: flipped(item) for key, item in value.items()}
    if isinstance(value, list):
        return [flipped(item) for item in value]
    if isinstance(value, str) and value.count("-") == 1 and value.replace("-", "").isdigit():
        low, high = value.split("-")
        return f"{high}-{low}"
    return value


def reordered(value):
    """Every object's keys in reverse order (the same JSON, other bytes)."""
    if isinstance(value, dict):
        return {key: reordered(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [reordered(item) for item in value]
    return value


def refused_as_duplicate_of(response, match_id: int) -> bool:
    error = response.json()["error"]
    return (
        response.status_code == 409
        and error["code"] == "duplicate-match"
        and error["params"]["match"] == match_id
        and response.json()["detail"] == error["message"]
    )


@pytest.mark.django_db
def test_a_dealt_game_in_any_spelling_date_or_club_is_the_stored_match(
    api, organiser, federation_admin, other_club, mixed_case_players
):
    api.force_authenticate(organiser)
    first = submit(api, dealt())
    assert first.status_code == 201, first.content
    stored = first.json()["id"]
    variants = {
        "handles in upper case": rename_players(
            dealt(), {"ana": "ANA", "ben": "Ben", "Ocane14": "OCANE14"}
        ),
        "tiles the other way round": flipped(dealt()),
        "keys in another order": reordered(dealt()),
        "the default divisor written out": {**dealt(), "rules": {"set": 9, "divisor": 5}},
    }
    for name, record in variants.items():
        response = submit(api, record)
        assert refused_as_duplicate_of(response, stored), (name, response.content)
    assert refused_as_duplicate_of(submit(api, dealt(), played_on="2026-11-09"), stored)
    api.force_authenticate(federation_admin)  # another club, another day, upper case
    other = rename_players(flipped(dealt()), {"ana": "ANA"})
    assert refused_as_duplicate_of(
        submit(api, other, club="berlin", played_on="2026-10-01"), stored
    )
    assert Match.objects.count() == 1


@pytest.mark.django_db
def test_the_ten_copies_of_the_issue_are_refused(api, organiser, mixed_case_players):
    """Ten copies of one won game (case, orientation, key order, date) store one match."""
    api.force_authenticate(organiser)
    base = dealt()
    copies = [
        base,
        rename_players(base, {"ana": "ANA"}),
        flipped(base),
        reordered(base),
        rename_players(flipped(reordered(base)), {"Ocane14": "OCANE14"}),
        *[{**copy.deepcopy(base)} for _ in range(5)],
    ]
    statuses = [
        submit(api, record, played_on=f"2026-11-{day + 1:02d}").status_code
        for day, record in enumerate(copies)
    ]
    assert statuses == [201] + [409] * 9
    assert Match.objects.count() == 1


@pytest.mark.django_db
def test_an_extra_key_is_refused_not_stored(api, organiser, mixed_case_players):
    api.force_authenticate(organiser)
    assert submit(api, dealt()).status_code == 201
    record = dealt()
    record["deals"][0]["note"] = "again"
    response = submit(api, record)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "unknown-field"
    assert Match.objects.count() == 1


@pytest.mark.django_db
def test_a_summary_is_one_result_of_its_day_and_game_number(
    api, organiser, other_club, mixed_case_players
):
    record = rename_players(DIVISOR_SUMMARY, {"cem": "Ocane14"})
    api.force_authenticate(organiser)
    first = submit(api, record)
    assert first.status_code == 201 and first.json()["game_number"] == 1
    # the same result, same day: refused whatever the spelling or the club
    assert refused_as_duplicate_of(submit(api, reordered(record)), first.json()["id"])
    upper = rename_players(record, {"ana": "ANA", "Ocane14": "ocane14"})
    assert refused_as_duplicate_of(submit(api, upper), first.json()["id"])
    # the second identical summary of the evening is game 2; game 2 once only
    second = submit(api, record, game_number=2)
    assert second.status_code == 201 and second.json()["game_number"] == 2
    assert refused_as_duplicate_of(submit(api, upper, game_number=2), second.json()["id"])
    # another day is another result
    assert submit(api, record, played_on="2026-11-03").status_code == 201
    assert Match.objects.count() == 3


@pytest.mark.django_db
def test_a_score_sheet_is_bound_to_its_day(api, organiser, mixed_case_players, club):
    for handle in ("cem",):
        PlayerFactory(handle=handle, club=club)
    api.force_authenticate(organiser)
    first = submit(api, SHEET_RECORD)
    assert first.status_code == 201
    assert refused_as_duplicate_of(submit(api, reordered(SHEET_RECORD)), first.json()["id"])
    assert submit(api, SHEET_RECORD, played_on="2026-11-03").status_code == 201


@pytest.mark.django_db
@pytest.mark.parametrize("game_number", [0, -1, 1000, "two", True])
def test_game_number_is_a_positive_integer(api, organiser, mixed_case_players, game_number):
    api.force_authenticate(organiser)
    response = submit(
        api, DIVISOR_SUMMARY | {"players": ["ana", "ben", "Ocane14"]}, game_number=game_number
    )
    assert response.status_code == 400
    assert "game_number" in response.json()
    assert Match.objects.count() == 0


@pytest.mark.django_db
def test_a_withdrawn_match_no_longer_holds_its_content(api, organiser, mixed_case_players):
    api.force_authenticate(organiser)
    first = submit(api, dealt())
    match_id = first.json()["id"]
    withdrawn = api.post(
        f"/api/v1/matches/{match_id}/withdraw/", {"reason": "wrong club"}, format="json"
    )
    assert withdrawn.status_code == 200
    again = submit(api, flipped(dealt()))
    assert again.status_code == 201 and again.json()["id"] != match_id


@pytest.mark.django_db
def test_federation_admins_review_repeated_results(
    api, organiser, federation_admin, mixed_case_players
):
    record = rename_players(DIVISOR_SUMMARY, {"cem": "Ocane14"})
    api.force_authenticate(organiser)
    games = [submit(api, record, game_number=n).json()["id"] for n in (1, 2, 3)]
    other_day = submit(api, record, played_on="2026-11-05").json()["id"]
    other_result = submit(api, flipped(dealt()), game_number=2).json()["id"]
    assert api.get("/api/v1/matches/repeated/").status_code == 403
    api.force_authenticate(None)
    assert api.get("/api/v1/matches/repeated/").status_code == 401
    api.force_authenticate(federation_admin)
    groups = api.get("/api/v1/matches/repeated/?since=2026-10-01").json()
    assert len(groups) == 1
    group = groups[0]
    assert (group["game"], group["played_on"]) == ("divisor", "2026-11-02")
    assert [m["id"] for m in group["matches"]] == games
    assert [m["game_number"] for m in group["matches"]] == [1, 2, 3]
    assert [s["player"] for s in group["seats"]] == ["ana", "ben", "Ocane14"]
    assert other_day not in {m["id"] for m in group["matches"]}
    assert other_result not in {m["id"] for m in group["matches"]}
    # withdrawing the abuse empties the list
    for match_id in games[1:]:
        api.post(f"/api/v1/matches/{match_id}/withdraw/", {"reason": "abuse"}, format="json")
    assert api.get("/api/v1/matches/repeated/?since=2026-10-01").json() == []
    assert api.get("/api/v1/matches/repeated/?since=2026-13-01").status_code == 400


@pytest.mark.django_db
def test_the_admin_filter_lists_repeated_results(
    client, django_user_model, mixed_case_players, club
):
    from scoring.services import match_record

    record = rename_players(DIVISOR_SUMMARY, {"cem": "Ocane14"})
    day = dt.date(2026, 11, 2)
    first = match_record(club=club, played_on=day, record=record).match
    second = match_record(club=club, played_on=day, record=record, game_number=2).match
    alone = match_record(club=club, played_on=dt.date(2026, 11, 3), record=record).match
    client.force_login(django_user_model.objects.create_superuser("sec", "s@example.org", "pw"))
    page = client.get("/admin/scoring/match/?repeated=yes")
    assert page.status_code == 200
    shown = {match.pk for match in page.context["cl"].result_list}
    assert shown == {first.pk, second.pk} and alone.pk not in shown


def test_astronomy_keeps_the_orientation_its_cells_give():
    """The first cell holds the first number: the tile and its cells turn together."""

    def move(tile, cells):
        return canonical_record(
            {
                "game": "astronomy",
                "players": ["a", "b"],
                "moves": [{"player": "a", "tile": tile, "cells": cells}],
            },
            {},
        )

    same = move("3-5", [[1, 0], [1, 1]])
    assert move("5-3", [[1, 1], [1, 0]]) == same
    assert move("5-3", [[1, 0], [1, 1]]) != same  # the 5 where the 3 was: another game
    assert move("4-4", [[1, 1], [1, 0]]) == move("4-4", [[1, 0], [1, 1]])


def test_the_canonical_form_of_each_game():
    handles = {"ANA": "ana", "Ben": "ben"}
    dominyam = canonical_record(
        {
            "game": "dominyam",
            "rules": {"target_bonus": False},
            "players": ["ANA", "Ben"],
            "layout": [
                {"tile": "6-1", "cells": [[0, 1], [0, 0]]},
                {"tile": "0-0", "cells": [[1, 0], [1, 1]]},
            ],
            "turns": [
                {"player": "ANA", "dice": [6, 1, 3, 2, 5], "eat": ["6-1", "0-0"], "point_die": 5},
                {"player": "Ben", "dice": [1, 1, 1, 1, 1], "eat": None, "point_die": 4},
            ],
        },
        handles,
    )
    assert dominyam == {
        "game": "dominyam",
        "players": ["ana", "ben"],
        "layout": [
            {"tile": "1-6", "cells": [[0, 0], [0, 1]]},
            {"tile": "0-0", "cells": [[1, 0], [1, 1]]},
        ],
        "turns": [
            {"player": "ana", "dice": [1, 2, 3, 5, 6], "eat": ["0-0", "1-6"], "point_die": 5},
            {"player": "ben", "dice": [1, 1, 1, 1, 1]},
        ],
    }
    ninetka = canonical_record(
        {
            "game": "9tka",
            "players": ["ANA", "Ben"],
            "moves": [{"player": "Ben", "slide": "A4", "to": "D4", "pass": False}],
        },
        handles,
    )
    assert ninetka["moves"] == [{"player": "ben", "slide": "A4"}]
    divisor = canonical_record(
        {
            "game": "divisor",
            "rules": {"set": 6, "divisor": 3},
            "players": ["ANA", "Ben"],
            "deals": [
                {
                    "hands": {"ANA": ["6-6", "1-0"], "Ben": ["4-3"]},
                    "moves": [
                        {"player": "ANA", "tile": "6-6"},
                        {"player": "Ben", "draw": "5-2", "penalty": False},
                        {"player": "Ben", "tile": "6-2", "on": "6-6", "at": "side"},
                        {"player": "ANA", "tile": "1-0", "on": "6-2", "at": "end"},
                    ],
                }
            ],
        },
        handles,
    )
    assert divisor["rules"] == {"set": 6}
    assert divisor["deals"][0]["hands"] == {"ana": ["0-1", "6-6"], "ben": ["3-4"]}
    assert divisor["deals"][0]["moves"][1:] == [
        {"player": "ben", "draw": "2-5"},
        {"player": "ben", "tile": "2-6", "on": "6-6", "at": "side"},
        {"player": "ana", "tile": "0-1", "on": "2-6"},
    ]
    assert json.dumps(canonical_record({"game": "trimorp", "box_opener": "Ben"}, handles)) == (
        '{"game": "trimorp", "box_opener": "ben"}'
    )
