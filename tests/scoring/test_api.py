"""The match API: submission (replayed, stored whole or not at all), lists, detail."""

import datetime as dt

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.engine.divisor import random_record
from scoring.models import Match, MatchSeat
from tests.samples import SHEET_RECORD

pytestmark = pytest.mark.usefixtures("month_end")


def submit(api, record, *, club="lyon", played_on="2026-11-02", lang="en"):
    return api.post(
        "/api/v1/matches/",
        {"club": club, "played_on": played_on, "record": record},
        format="json",
        HTTP_ACCEPT_LANGUAGE=lang,
    )


@pytest.mark.django_db
def test_organiser_submits_a_sheet_and_reads_it_back(api, organiser, players):
    api.force_authenticate(organiser)
    response = submit(api, SHEET_RECORD)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["verification"] == "sheet-checked"
    seats = {s["player"]: s for s in body["seats"]}
    # GAMES.md: ana scores 4 + 3, ben 5; ben and cem lose 14 and 9
    assert (seats["ana"]["points"], seats["ana"]["deduction"], seats["ana"]["score"]) == (7, 0, 7)
    assert (seats["ben"]["score"], seats["cem"]["score"]) == (5 - 14, -9)
    # ben and cem both end on -9: equal scores share a rank
    assert [seats[p]["rank"] for p in ("ana", "ben", "cem")] == [1, 2, 2]
    detail = api.get(f"/api/v1/matches/{body['id']}/").json()
    sheet = detail["score_sheet"]
    assert [row["points"] for row in sheet] == [4, 5, 0, 3]
    assert [row["running_total"] for row in sheet] == [4, 5, 0, 7]
    assert MatchSeat.objects.filter(match_id=body["id"]).count() == 3


@pytest.mark.django_db
def test_full_record_is_replayed_and_stored(api, federation_admin, players):
    record = random_record(7, players=3, set=12)
    api.force_authenticate(federation_admin)  # admins submit for any club
    response = submit(api, record)
    assert response.status_code == 201, response.content
    match = Match.objects.get(pk=response.json()["id"])
    assert match.verification == "replayed"
    assert match.result["valid"] is True
    assert len(match.result["moves"]) == sum(len(d["moves"]) for d in record["deals"])


@pytest.mark.django_db
@pytest.mark.parametrize(("lang", "fragment"), [("en", "move 2"), ("fr", "coup 2")])
def test_invalid_record_is_rejected_with_the_move_and_nothing_is_stored(
    api, organiser, players, lang, fragment
):
    record = random_record(3, players=3, set=12)
    moves = record["deals"][0]["moves"]
    moves[1] = {**moves[1], "player": moves[0]["player"]}  # the opener plays twice
    api.force_authenticate(organiser)
    response = submit(api, record, lang=lang)
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["move"], error["code"]) == (1, "wrong-turn")
    assert error["message"].startswith(fragment)
    assert Match.objects.count() == 0 and MatchSeat.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("record", "code"),
    [
        ([1, 2, 3], "not-an-object"),
        ({"game": "chess"}, "unknown-game"),
        ({"game": "divisor", "rules": {"set": 7}, "players": ["ana", "ben"], "deals": []}, None),
    ],
)
def test_unusable_records_are_400(api, organiser, players, record, code):
    api.force_authenticate(organiser)
    response = submit(api, record)
    assert response.status_code == 400
    if code:
        assert response.json()["error"]["code"] == code
    assert Match.objects.count() == 0


@pytest.mark.django_db
def test_unknown_handle_is_a_clear_400(api, organiser, players):
    record = {**SHEET_RECORD, "players": ["ana", "ben", "zoe"]}
    record["deals"] = [
        {
            "sheet": [
                {"player": "ana", "sum": 12},
                {"player": "ben", "sum": 15},
                {"player": "zoe", "draw": True},
                {"player": "ana", "sum": 9},
            ],
            "pips_left": {"ana": 0, "ben": 14, "zoe": 9},
        }
    ]
    api.force_authenticate(organiser)
    response = submit(api, record, lang="fr")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "unknown-player"
    assert "zoe" in response.json()["error"]["message"]
    assert "inscri" in response.json()["error"]["message"]
    assert Match.objects.count() == 0


@pytest.mark.django_db
def test_permissions(api, club, other_club, organiser, players):
    assert submit(api, SHEET_RECORD).status_code in (401, 403)  # anonymous
    api.force_authenticate(organiser)
    assert submit(api, SHEET_RECORD, club="berlin").status_code == 403  # another club
    assert Match.objects.count() == 0
    assert submit(api, SHEET_RECORD, club="lyon").status_code == 201


@pytest.mark.django_db
def test_the_same_match_twice_is_refused(api, organiser, players):
    api.force_authenticate(organiser)
    first = submit(api, SHEET_RECORD)
    assert first.status_code == 201
    again = submit(api, SHEET_RECORD)
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "duplicate-match"
    assert again.json()["error"]["params"]["match"] == first.json()["id"]
    assert Match.objects.count() == 1


@pytest.mark.django_db
def test_a_future_date_is_refused(api, organiser, players):
    api.force_authenticate(organiser)
    with time_machine.travel(dt.datetime(2026, 11, 2, 12, tzinfo=dt.UTC)):
        response = submit(api, SHEET_RECORD, played_on="2026-11-05")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "played-in-future"


@pytest.mark.django_db
def test_late_and_too_old_results_are_flagged(api, organiser, players):
    api.force_authenticate(organiser)
    # 00:30 on 1 December in Berlin is still 30 November in UTC: late all the same
    with time_machine.travel(dt.datetime(2026, 11, 30, 23, 30, tzinfo=dt.UTC)):
        late = submit(api, SHEET_RECORD, played_on="2026-11-20")
    assert late.status_code == 201
    assert late.json()["late"] is True and late.json()["counted_month"] == "2026-12"
    assert late.json()["warnings"][0]["code"] == "late-result"
    with time_machine.travel(dt.datetime(2026, 11, 30, 22, 30, tzinfo=dt.UTC)):
        on_time = submit(api, SHEET_RECORD, played_on="2026-11-21")
    assert on_time.json()["late"] is False and on_time.json()["counted_month"] == "2026-11"
    with time_machine.travel(dt.datetime(2026, 11, 15, 12, tzinfo=dt.UTC)):
        old = submit(api, SHEET_RECORD, played_on="2025-11-30")
    assert old.status_code == 201
    assert old.json()["counted_month"] is None
    assert old.json()["warnings"][0]["code"] == "too-old-to-rate"


@pytest.mark.django_db
def test_list_filters_and_pagination(api, organiser, players, other_club):
    from quotient.demo import rename_players
    from scoring.services import match_record

    for n in range(55):
        record = random_record(100 + n, players=2, set=6)
        handles = ["ana", "ben"] if n % 2 else ["cem", "dan"]
        record = rename_players(record, dict(zip(record["players"], handles, strict=True)))
        match_record(
            club=organiser.memberships.first().club if n % 3 else other_club,
            played_on=dt.date(2026, 10 if n < 30 else 11, 1 + n % 28),
            record=record,
        )
    everything = api.get("/api/v1/matches/").json()
    assert everything["count"] == 55 and len(everything["results"]) == 50
    assert api.get("/api/v1/matches/?game=divisor&page=2").json()["count"] == 55
    assert api.get("/api/v1/matches/?game=astronomy").json()["count"] == 0
    assert api.get("/api/v1/matches/?player=ana").json()["count"] == 27
    assert api.get("/api/v1/matches/?club=berlin").json()["count"] == 19
    assert api.get("/api/v1/matches/?month=2026-11").json()["count"] == 25
    assert api.get("/api/v1/matches/?month=2026-13").status_code == 400
    first = api.get("/api/v1/matches/?page_size=5").json()["results"][0]
    assert first["played_on"] >= "2026-11-01" and len(first["seats"]) == 2


@pytest.mark.django_db
def test_list_query_count_does_not_grow_with_matches(api, players, club):
    from scoring.services import match_record

    match_record(club=club, played_on=dt.date(2026, 10, 1), record=SHEET_RECORD)
    with CaptureQueriesContext(connection) as one:
        api.get("/api/v1/matches/")
    for day in range(2, 12):
        match_record(club=club, played_on=dt.date(2026, 10, day), record=SHEET_RECORD)
    with CaptureQueriesContext(connection) as many:
        api.get("/api/v1/matches/")
    assert len(many) == len(one)
