"""Strict records: keys GAMES.md does not define, oversized records, impossible dates
and unstorable text are refused whole, with a clear error, through the API."""

from __future__ import annotations

import json

import pytest

from quotient.demo import rename_players
from scoring.engine import engine
from scoring.models import Match
from tests.scoring.test_games_api import SUMMARIES

pytestmark = pytest.mark.usefixtures("clock")

HANDLES = ["ana", "ben", "cem", "dan"]
RANDOM = {
    "divisor": {"players": 3, "set": 9},
    "astronomy": {"size": 5},
    "9tka": {"players": 4},
    "trimorp": {},
    "dominyam": {"players": 2},
}


def a_record(game: str, seed: int = 5) -> dict:
    record = engine(game).random_record(seed, **RANDOM[game])
    return rename_players(record, dict(zip(record["players"], HANDLES, strict=False)))


def submit(api, record, *, played_on="2026-11-14"):
    return api.post(
        "/api/v1/matches/",
        {"club": "lyon", "played_on": played_on, "record": record},
        format="json",
    )


def with_key(record: dict, path: list, key: str) -> dict:
    """A copy of ``record`` with ``key`` added to the object at ``path``."""
    copy = json.loads(json.dumps(record))
    place = copy
    for step in path:
        place = place[step]
    place[key] = "?"
    return copy


CASES = [
    ("divisor", "full", [], "comment", "comment"),
    ("divisor", "full", ["rules"], "house", "rules.house"),
    ("divisor", "full", ["deals", 0], "extra", "deals[0].extra"),
    ("divisor", "full", ["deals", 0, "moves", 2], "tiel", "deals[0].moves[2].tiel"),
    ("divisor", "summary", ["deals", 0, "summary"], "winner", "deals[0].summary.winner"),
    ("divisor", "summary", ["deals", 0], "pips_left", "deals[0].pips_left"),
    ("astronomy", "full", ["moves", 0], "note", "moves[0].note"),
    ("astronomy", "summary", ["summary"], "score", "summary.score"),
    ("astronomy", "summary", [], "layout", "layout"),
    ("9tka", "full", ["moves", 3], "comment", "moves[3].comment"),
    ("9tka", "full", ["moves", 3], "to", "moves[3].to"),  # `to` belongs to a slide only
    ("trimorp", "full", [], "comment", "comment"),
    ("trimorp", "summary", ["summary", "series", "ana"], "5", "summary.series.ana.5"),
    ("dominyam", "full", ["turns", 0], "bonus", "turns[0].bonus"),
    ("dominyam", "full", ["layout", 3], "rot", "layout[3].rot"),
    ("dominyam", "summary", ["summary", "ana"], "dice", "summary.ana.dice"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "kind", "where", "key", "path"), CASES)
def test_a_key_games_md_does_not_define_is_refused_with_its_path(
    api, organiser, players, game, kind, where, key, path
):
    record = a_record(game) if kind == "full" else SUMMARIES[game]
    assert submit(api, record).status_code in (401, 403)  # anonymous: nothing checked
    api.force_authenticate(organiser)
    response = submit(api, with_key(record, where, key))
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert (error["code"], error["params"], error["move"]) == (
        "unknown-field",
        {"path": path},
        None,
    )
    assert Match.objects.count() == 0
    assert submit(api, record).status_code == 201  # the record itself is fine


@pytest.mark.django_db
def test_the_keys_games_md_defines_are_accepted(api, organiser, players):
    """Optional keys of GAMES.md: box_opener, penalty draws, blocked, resign, penalty."""
    api.force_authenticate(organiser)
    records = [
        {**SUMMARIES["trimorp"], "box_opener": "cem"},
        {**SUMMARIES["astronomy"], "summary": {"winner": "ana", "moves": 9, "resign": False}},
        {
            **SUMMARIES["dominyam"],
            "summary": {
                "ana": {"turn_points": 21, "tiles": ["6-6", "3-3"], "penalty": 0},
                "ben": {"turn_points": 17, "tiles": ["1-2", "3-5"]},
            },
        },
        a_record("9tka", 2),
        a_record("dominyam", 2),
    ]
    for record in records:
        response = submit(api, record)
        assert response.status_code == 201, response.content


@pytest.mark.django_db
def test_a_record_over_256_kb_is_a_413(api, organiser, players):
    api.force_authenticate(organiser)
    record = {
        "game": "divisor",
        "rules": {"set": 12},
        "players": ["ana", "ben"],
        "deals": [{"summary": {"points": {"ana": 1}, "pips_left": {"ana": 0}}}] * 6000,
    }
    assert len(json.dumps(record, separators=(",", ":"))) > 256 * 1024
    response = submit(api, record)
    assert response.status_code == 413
    error = response.json()["error"]
    assert error["code"] == "record-too-large" and error["params"] == {"limit_kb": 256}
    # a body far too large is refused before it is parsed
    huge = b'{"club": "lyon", "played_on": "2026-11-14", "record": "' + b"x" * 2_000_000 + b'"}'
    response = api.generic("POST", "/api/v1/matches/", huge, content_type="application/json")
    assert response.status_code == 413 and response.json()["error"]["code"] == "record-too-large"
    assert Match.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("played_on", "status", "code"),
    [
        ("0001-01-01", 400, "played-too-early"),
        ("1989-12-31", 400, "played-too-early"),
        ("1990-01-01", 201, None),
        ("2026-11-20", 201, None),
        ("2026-11-21", 400, "played-in-future"),
        ("2026-02-30", 400, None),  # no such day: the date field says so
    ],
)
def test_played_on_is_a_real_date_from_1990_to_today(
    api, organiser, players, played_on, status, code
):
    api.force_authenticate(organiser)
    response = submit(api, SUMMARIES["9tka"], played_on=played_on)
    assert response.status_code == status, response.content
    if code:
        assert response.json()["error"]["code"] == code
        assert response.json()["error"]["params"]["played_on"] == played_on


@pytest.mark.django_db
def test_unknown_fields_are_refused_in_corrections_too(api, organiser, players):
    api.force_authenticate(organiser)
    match_id = submit(api, SUMMARIES["9tka"]).json()["id"]
    record = with_key(SUMMARIES["9tka"], ["summary"], "winner")
    response = api.post(
        f"/api/v1/matches/{match_id}/correct/",
        {"record": record, "reason": "typo"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["params"] == {"path": "summary.winner"}
    assert Match.objects.get().version == 1


@pytest.mark.django_db
def test_the_submission_page_refuses_unstorable_text_and_nan(client, organiser, players):
    client.force_login(organiser)
    for text in (
        '{"game": "9tka", "players": ["ana\\u0000"]}',
        '{"game": "9tka", "players": ["\\ud800"]}',
        '{"game": "9tka", "players": ["ana", "ben"], "x": NaN}',
    ):
        response = client.post(
            "/matches/submit/", {"club": "lyon", "played_on": "2026-11-14", "record_text": text}
        )
        assert response.status_code == 400, text
    assert Match.objects.count() == 0


@pytest.mark.django_db
def test_the_replay_command_keeps_its_contract():
    """The strict keys are the service's: the engines (and the replay CLI) ignore them."""
    from scoring.engine import replay

    record = with_key(SUMMARIES["9tka"], [], "comment")
    assert replay(record)["valid"] is True
