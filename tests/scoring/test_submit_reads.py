"""``POST /api/v1/matches/`` reads its club, the submitter's right, the game and the
players in one statement (``scoring.services.submission_reads``): every refusal is the
one the reads made one by one gave (status, body, and which comes first), and a
submission makes one read and one insert (issue 23, the POST's fourth pass)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from quotient.demo import rename_players
from scoring.api import matches as matches_api
from scoring.engine.divisor import random_record
from scoring.models import Match
from tests.factories import FederationAdminFactory, OrganiserFactory, PlayerFactory

pytestmark = pytest.mark.usefixtures("month_end")


def record(*handles: str, game: Any = "divisor") -> dict[str, Any]:
    raw = random_record(7, players=len(handles), set=6)
    named = rename_players(raw, dict(zip(raw["players"], handles, strict=True)))
    return {**named, "game": game}


def body(club: Any = "lyon", played_on: Any = "2026-11-02", **record_of: Any) -> dict[str, Any]:
    return {"club": club, "played_on": played_on, "record": record(*record_of["handles"])}


#: name -> (who submits, the body): each refusal, and two refused at once (the first
#: one the reads made one by one answers)
CASES: dict[str, tuple[str, Any]] = {
    "unknown club": ("organiser", body("nowhere", handles=("ana", "ben"))),
    "unknown club, bad date": ("organiser", body("nowhere", "02/11", handles=("ana", "ben"))),
    "unknown club, no right": ("outsider", body("nowhere", handles=("ana", "ben"))),
    "club not text": ("organiser", body(12, handles=("ana", "ben"))),
    "no right": ("outsider", body(handles=("ana", "ben"))),
    "no right, unknown player": ("outsider", body(handles=("ana", "zed"))),
    "no right, unknown game": (
        "outsider",
        {"club": "lyon", "played_on": "2026-11-02", "record": record("ana", "ben", game="nope")},
    ),
    "unknown game": (
        "organiser",
        {"club": "lyon", "played_on": "2026-11-02", "record": record("ana", "ben", game="nope")},
    ),
    "game not text": (
        "organiser",
        {"club": "lyon", "played_on": "2026-11-02", "record": record("ana", "ben", game=3)},
    ),
    "unknown game, unknown player": (
        "organiser",
        {"club": "lyon", "played_on": "2026-11-02", "record": record("ana", "zed", game="nope")},
    ),
    "unknown player": ("organiser", body(handles=("ana", "zed"))),
    "unknown player, admin": ("admin", body(handles=("ana", "zed"))),
    "unknown player, other club's organiser": ("outsider", body("berlin", handles=("ana", "zed"))),
    "player twice": ("organiser", body(handles=("ana", "ANA"))),
    "player twice, unknown player": ("organiser", body(handles=("ana", "ANA", "zed"))),
    "date in the future": ("organiser", body(played_on="2099-01-01", handles=("ana", "ben"))),
    "record not an object": ("organiser", {"club": "lyon", "played_on": "2026-11-02", "record": 3}),
    "players not a list": (
        "organiser",
        {"club": "lyon", "played_on": "2026-11-02", "record": {"game": "divisor", "players": 3}},
    ),
}


@pytest.fixture
def users(organiser, other_club, players):
    PlayerFactory(handle="eva", club=other_club)
    return {
        "organiser": organiser,
        "outsider": OrganiserFactory(club=other_club).user,
        "admin": FederationAdminFactory().user,
    }


def answer(api, user, data) -> tuple[int, Any]:
    api.force_authenticate(user)
    response = api.post("/api/v1/matches/", data, format="json")
    return response.status_code, response.json()


@pytest.mark.django_db
@pytest.mark.parametrize("name", list(CASES))
def test_every_refusal_is_the_one_the_reads_one_by_one_gave(api, users, monkeypatch, name):
    who, data = CASES[name]
    together = answer(api, users[who], data)
    monkeypatch.setattr(matches_api, "submission_reads", lambda *args: None)
    one_by_one = answer(api, users[who], data)
    assert together == one_by_one
    assert together[0] in (400, 403)
    assert not Match.objects.exists()


EXPECTED = {
    "unknown club": (400, "club"),
    "no right, unknown game": (403, None),
    "unknown game, unknown player": (400, "unknown-game"),
    "player twice, unknown player": (400, "unknown-player"),
    "player twice": (400, "player-twice"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("name", list(EXPECTED))
def test_the_first_refusal_answers(api, users, name):
    who, data = CASES[name]
    status, found = answer(api, users[who], data)
    wanted_status, what = EXPECTED[name]
    assert status == wanted_status
    if what == "club":
        assert found == {"club": ["Object with slug=nowhere does not exist."]}
    elif what is not None:
        assert found["error"]["code"] == what, found


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["organiser", "admin"])
def test_a_submission_reads_once_and_inserts_once(api, users, who):
    """The club, the right, the game and the players: one statement; the match, its
    seats and its event: one more (the savepoint around it is the test's transaction)."""
    api.force_authenticate(users[who])
    api.post("/api/v1/matches/", body(handles=("cem", "dan")), format="json")  # warm
    data = body(handles=("ana", "ben", "eva"))
    with CaptureQueriesContext(connection) as captured:
        response = api.post("/api/v1/matches/", data, format="json")
    assert response.status_code == 201, response.content
    statements = [q["sql"] for q in captured if "SAVEPOINT" not in q["sql"]]
    assert len(statements) == 2, statements
    assert statements[0].startswith("SELECT EXISTS") and "federation_player" in statements[0]
    assert statements[1].startswith("WITH match AS (INSERT")
    assert [s["player"] for s in response.json()["seats"]] == ["ana", "ben", "eva"]
